/**
 * Where upload bytes live: a small port with two adapters — files under a directory (the embedded default, one
 * process owns it) and the service's own database (the fleet: any replica can serve any upload; never a
 * replica's local disk).
 */
export interface BlobStore {
  readonly kind: 'file' | 'database'
  put(id: string, data: Uint8Array): Promise<void>
  /** undefined when there is no such blob */
  get(id: string): Promise<Uint8Array | undefined>
  delete(id: string): Promise<void>
}
