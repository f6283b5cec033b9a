/** Placeholder until the inbox list lands (next commit). */
export function Inbox({ selectedId }: { selectedId: string | null }) {
  return <nav aria-label="Inbox" data-selected={selectedId ?? ''} />
}
