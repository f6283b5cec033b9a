/**
 * The virtualized list (@tanstack/react-virtual): only the rows in view are in the DOM, so 50,000 conversations
 * scroll like 50. A listbox: `j`/`k` (or the arrow keys) move and open, the next page loads near the end.
 */
import { useVirtualizer } from '@tanstack/react-virtual'
import { type KeyboardEvent, useCallback, useEffect, useRef } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import { InboxRow } from './inbox-row.tsx'
import type { RowList } from './row-index.ts'
import './messages.ts'

const ROW_HEIGHT = 80

interface Props {
  /** the rows in order, read by position (row-index.ts): only those in view are read */
  rows: RowList
  total: number
  selectedId: string | null
  hasMore: boolean
  loadMore(): void
  onOpen(id: string): void
}

export function InboxList({ rows, total, selectedId, hasMore, loadMore, onOpen }: Props) {
  const { t } = useI18n()
  const scroller = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    // the virtualizer keys by position (the default): a key function over the rows is a new one whenever they
    // change, and it then lays out all 50,000 rows again (~2 ms a live frame). React keys the rows by conversation
    // (below): on a move the rows in view keep their DOM and only change their offset, instead of every row in view
    // rewriting its text (~2 ms a live frame); the rows are one size, so the virtualizer measures nothing
  })
  const items = virtualizer.getVirtualItems()
  const selectedIndex = selectedId ? rows.indexOf(selectedId) : -1

  const lastIndex = items.at(-1)?.index ?? 0
  useEffect(() => {
    if (hasMore && lastIndex >= rows.length - 20) loadMore()
  }, [hasMore, lastIndex, rows.length, loadMore])

  const move = useCallback(
    (delta: number) => {
      if (rows.length === 0) return
      const next = Math.min(rows.length - 1, Math.max(0, (selectedIndex < 0 ? -delta : selectedIndex) + delta))
      virtualizer.scrollToIndex(next, { align: 'auto' })
      onOpen(rows.at(next).id)
    },
    [rows, selectedIndex, virtualizer, onOpen],
  )

  // j/k anywhere but in a text field (where they type letters); the arrow keys inside the list. One listener for the
  // list's life (the newest `move` through a ref): re-adding it on each render was work in every live frame.
  const moveRef = useRef(move)
  moveRef.current = move
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return
      const target = event.target as HTMLElement | null
      if (target?.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]')) return
      if (event.key === 'j') moveRef.current(1)
      else if (event.key === 'k') moveRef.current(-1)
      else return
      event.preventDefault()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'ArrowDown') move(1)
    else if (event.key === 'ArrowUp') move(-1)
    else return
    event.preventDefault()
  }

  return (
    <div
      ref={scroller}
      className="inbox-list"
      role="listbox"
      tabIndex={0}
      aria-label={t('inbox.list')}
      aria-description={t('inbox.keys')}
      aria-activedescendant={selectedIndex >= 0 ? `inbox-row-${selectedId}` : undefined}
      onKeyDown={onKeyDown}
    >
      <div role="presentation" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((item) => {
          const row = rows.at(item.index)
          return (
            <InboxRow
              key={row.id}
              row={row}
              index={item.index}
              selected={row.id === selectedId}
              top={item.start}
              height={item.size}
              setSize={total}
              onOpen={onOpen}
            />
          )
        })}
      </div>
    </div>
  )
}
