export function AuditScreen(_: { path: string }) {
  return <h1>Audit</h1>
}
