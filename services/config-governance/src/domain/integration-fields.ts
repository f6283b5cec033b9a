// An app integration's own fields: its slug and the addresses the agent console shows (`iframe_url`, `icon_url`).
// Pure.

/** `localhost`, 127.0.0.0/8 and ::1, as WHATWG URL parsing normalises them (`http://2130706433/` is 127.0.0.1). */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/\.$/, '').toLowerCase()
  return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host)
}

/**
 * An integration URL, parsed and normalised, or why it is refused. Only `https:` is served to browsers: the console
 * frames it (a `javascript:`, `data:` or `file:` address would run or read in the console's origin, and plain
 * `http:` would be mixed content anyone on the path can rewrite). `http:` is allowed for a loopback host, and only
 * when `allowLoopbackHttp` (a unit running in development: an app on the developer's own machine). Credentials in the
 * address (`https://user:pass@…`) are refused: the URL is shown to every agent and travels in events, so a secret
 * belongs in the integration's `config`, where it is sealed. The normalised form (`href`) is what is stored, so what
 * was checked is what is served.
 */
export function checkAppUrl(raw: string, allowLoopbackHttp: boolean): { url: string } | { refused: string } {
  const url = URL.parse(raw.trim())
  if (!url) return { refused: 'must be an absolute URL' }
  if (url.protocol === 'http:') {
    if (!allowLoopbackHttp || !isLoopback(url.hostname)) {
      return { refused: 'must be an https URL (http only for a loopback host in development)' }
    }
  } else if (url.protocol !== 'https:') {
    return { refused: 'must be an https URL' }
  }
  if (!url.hostname) return { refused: 'must name a host' }
  if (url.username || url.password) return { refused: 'must not carry credentials; put secrets in config' }
  return { url: url.href }
}

/**
 * The slug of a name when none is given: lower-case ASCII letters and digits joined by single hyphens
 * (`"Acme CRM (EU)"` → `acme-crm-eu`), at most 64 characters; '' when nothing of the name is usable (the caller
 * then asks for a slug).
 */
export function slugFrom(name: string): string {
  return name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 64)
    .replace(/^-+|-+$/g, '')
}
