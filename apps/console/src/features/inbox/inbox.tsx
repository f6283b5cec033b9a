/**
 * The inbox: tabs Mine / Unassigned / Waiting queue / All (supervisors and admins), status and channel filters,
 * the virtualized list; selecting a conversation opens `/conversations/:id`.
 */
import { useCallback, useEffect, useState } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import { useCommand } from '../../lib/keyboard.ts'
import { navigate } from '../../lib/router.tsx'
import { ErrorText, Loading } from '../../ui/status.tsx'
import { CHANNELS, INBOX_VIEWS, type InboxFilters, type InboxView, SESSION_STATUSES } from './api.ts'
import { InboxList } from './inbox-list.tsx'
import { useInbox, useMaySeeAll } from './use-inbox.ts'
import { markOpened, useInboxLive } from './use-inbox-live.ts'
import './messages.ts'

export function Inbox({ selectedId }: { selectedId: string | null }) {
  const { t } = useI18n()
  const maySeeAll = useMaySeeAll()
  const views = INBOX_VIEWS.filter((v) => v !== 'all' || maySeeAll)
  const [view, setView] = useState<InboxView>('mine')
  const [filters, setFilters] = useState<InboxFilters>({})
  const inbox = useInbox(view, filters)
  // the command palette's "Go to …"
  useCommand('inbox.view', (next) => {
    if ((views as string[]).includes(next)) setView(next as InboxView)
  })
  useInboxLive(selectedId)

  useEffect(() => {
    if (selectedId) markOpened(selectedId)
  }, [selectedId])

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = inbox
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage()
  }, [hasNextPage, isFetchingNextPage, fetchNextPage])
  const open = useCallback((id: string) => navigate(`/conversations/${encodeURIComponent(id)}`), [])

  return (
    <nav className="inbox" aria-label={t('inbox.label')}>
      <div role="tablist" aria-label={t('inbox.tabs')} className="inbox-tabs">
        {views.map((v) => (
          <button
            key={v}
            type="button"
            role="tab"
            id={`inbox-tab-${v}`}
            aria-selected={v === view}
            aria-controls="inbox-panel"
            tabIndex={v === view ? 0 : -1}
            onClick={() => setView(v)}
          >
            {t(`inbox.tab.${v}`)}
          </button>
        ))}
      </div>
      <div className="inbox-filters">
        <label>
          <span>{t('inbox.filter.status')} </span>
          <select
            value={filters.status ?? ''}
            onChange={(e) => setFilters((f) => ({ ...f, status: e.target.value || undefined }))}
          >
            <option value="">{t('inbox.filter.any')}</option>
            {SESSION_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`inbox.status.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>{t('inbox.filter.channel')} </span>
          <select
            value={filters.channel ?? ''}
            onChange={(e) => setFilters((f) => ({ ...f, channel: e.target.value || undefined }))}
          >
            <option value="">{t('inbox.filter.any')}</option>
            {CHANNELS.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div id="inbox-panel" role="tabpanel" aria-labelledby={`inbox-tab-${view}`} className="inbox-panel">
        {inbox.isPending ? (
          <Loading label={t('inbox.loading')} />
        ) : inbox.isError ? (
          <ErrorText error={inbox.error} />
        ) : (
          <>
            <p className="visually-hidden" aria-live="polite">
              {t('inbox.count', { count: inbox.rows.length })}
            </p>
            {inbox.rows.length === 0 ? (
              <p className="placeholder">{t('inbox.empty')}</p>
            ) : (
              <InboxList
                rows={inbox.rows}
                total={hasNextPage ? -1 : inbox.rows.length}
                selectedId={selectedId}
                hasMore={Boolean(hasNextPage)}
                loadMore={loadMore}
                onOpen={open}
              />
            )}
          </>
        )}
      </div>
    </nav>
  )
}
