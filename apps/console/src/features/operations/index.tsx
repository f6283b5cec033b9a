export function OperationsScreen(_: { path: string }) {
  return <h1>Operations</h1>
}
