/**
 * The caller of a voice call as its conversation's customer: the `from` address as a URI — RFC 3966 `tel:` unless it
 * is a SIP URI (RFC 3261 `sip:`/`sips:`) already. A request may put anything in `from`, and conversations stores the
 * customer it is given: as a URI it is never taken for a person's id (another tenant's user id sent as `from` becomes
 * `tel:<that id>`, which names nobody), so a voice conversation never points at a person of the directory.
 */
export function callerAddress(from: string): string {
  return /^(tel|sips?):/i.test(from) ? from : `tel:${from}`
}
