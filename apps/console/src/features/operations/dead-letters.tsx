/**
 * Dead letters of the bus the gateway is connected to: listed (`GET /api/ops/dead-letters`), one inspected (its
 * error, headers and envelope), replayed one by one or all — all in batches of REPLAY_BATCH sequences, a progress
 * bar moving with each batch answered. The list is read again after every replay.
 */
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import { queryClient } from '../../lib/query.ts'
import { EmptyState, ErrorText, Loading } from '../../ui/status.tsx'
import { type DeadLetter, listDeadLetters, opsKeys, REPLAY_BATCH, replayDeadLetters } from './api.ts'
import './messages.ts'

interface Progress {
  done: number
  total: number
  replayed: number
  running: boolean
}

function Inspect({ letter, onClose }: { letter: DeadLetter; onClose: () => void }) {
  const { t } = useI18n()
  const title = t('ops.envelope', { seq: letter.seq })
  return (
    <section className="admin-detail" aria-label={title}>
      <div className="admin-toolbar">
        <h3>{title}</h3>
        <button type="button" onClick={onClose}>
          {t('ops.close')}
        </button>
      </div>
      <dl>
        <dt>{t('ops.col.subject')}</dt>
        <dd>
          <code>{letter.origin_subject}</code> ({letter.origin_stream} #{letter.origin_seq})
        </dd>
        <dt>{t('ops.col.consumer')}</dt>
        <dd>{letter.consumer}</dd>
        <dt>{t('ops.col.error')}</dt>
        <dd>{letter.error}</dd>
      </dl>
      <pre>
        <code>{JSON.stringify({ headers: letter.headers ?? {}, envelope: letter.envelope }, null, 2)}</code>
      </pre>
    </section>
  )
}

export function DeadLettersPanel() {
  const { t, formatTime } = useI18n()
  const letters = useQuery({ queryKey: opsKeys.deadLetters, queryFn: ({ signal }) => listDeadLetters(signal) })
  const [inspected, setInspected] = useState<number | null>(null)
  const [confirming, setConfirming] = useState(false)
  const [progress, setProgress] = useState<Progress | null>(null)
  const [error, setError] = useState<unknown>(null)
  const items = letters.data?.items ?? []
  const shown = items.find((l) => l.seq === inspected)

  const replay = async (seqs: number[]) => {
    setConfirming(false)
    setError(null)
    const state: Progress = { done: 0, total: seqs.length, replayed: 0, running: true }
    setProgress({ ...state })
    try {
      for (let i = 0; i < seqs.length; i += REPLAY_BATCH) {
        const batch = seqs.slice(i, i + REPLAY_BATCH)
        const answer = await replayDeadLetters(batch)
        state.done += batch.length
        state.replayed += answer.replayed
        setProgress({ ...state })
      }
    } catch (err) {
      setError(err)
    } finally {
      setProgress({ ...state, running: false })
      if (inspected !== null && seqs.includes(inspected)) setInspected(null)
      await queryClient.invalidateQueries({ queryKey: opsKeys.deadLetters })
    }
  }

  return (
    <section aria-labelledby="ops-dead-title">
      <div className="admin-toolbar">
        <h2 id="ops-dead-title">{t('ops.dead')}</h2>
        <button type="button" onClick={() => void letters.refetch()} disabled={letters.isFetching}>
          {t('ops.refresh')}
        </button>
        <button
          type="button"
          onClick={() => setConfirming(true)}
          disabled={items.length === 0 || progress?.running === true}
        >
          {t('ops.replayAll')}
        </button>
      </div>
      {confirming && (
        <div className="admin-toolbar">
          <p>{t('ops.replayAll.confirm', { count: items.length })}</p>
          <button type="button" className="primary" onClick={() => void replay(items.map((l) => l.seq))}>
            {t('ops.replayAll.yes')}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            {t('ops.close')}
          </button>
        </div>
      )}
      {progress && (
        <div className="admin-toolbar">
          <progress aria-label={t('ops.progress')} max={progress.total} value={progress.done} />
          <span role="status" aria-live="polite">
            {progress.running
              ? t('ops.progress.text', { done: progress.done, total: progress.total })
              : t('ops.replayed', { count: progress.replayed })}
          </span>
        </div>
      )}
      <ErrorText error={error} />
      <ErrorText error={letters.error} />
      {letters.isPending ? (
        <Loading label={t('ops.dead.loading')} />
      ) : items.length === 0 ? (
        <EmptyState>{t('ops.dead.empty')}</EmptyState>
      ) : (
        <>
          <p>{t('ops.dead.count', { count: items.length })}</p>
          <table className="admin-table" aria-label={t('ops.dead.list')}>
            <thead>
              <tr>
                <th scope="col">{t('ops.col.seq')}</th>
                <th scope="col">{t('ops.col.failed')}</th>
                <th scope="col">{t('ops.col.consumer')}</th>
                <th scope="col">{t('ops.col.subject')}</th>
                <th scope="col">{t('ops.col.deliveries')}</th>
                <th scope="col">{t('ops.col.error')}</th>
                <th scope="col">{t('ops.col.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((l) => (
                <tr key={l.seq}>
                  <th scope="row">{l.seq}</th>
                  <td>{formatTime(l.failed_at)}</td>
                  <td>{l.consumer}</td>
                  <td>
                    <code>{l.origin_subject}</code>
                  </td>
                  <td>{l.deliveries}</td>
                  <td>{l.error}</td>
                  <td>
                    <button
                      type="button"
                      aria-expanded={inspected === l.seq}
                      aria-label={t('ops.inspect', { seq: l.seq })}
                      onClick={() => setInspected(inspected === l.seq ? null : l.seq)}
                    >
                      {t('ops.inspect.short')}
                    </button>{' '}
                    <button
                      type="button"
                      aria-label={t('ops.replay', { seq: l.seq })}
                      disabled={progress?.running === true}
                      onClick={() => void replay([l.seq])}
                    >
                      {t('ops.replay.short')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {shown && <Inspect letter={shown} onClose={() => setInspected(null)} />}
    </section>
  )
}
