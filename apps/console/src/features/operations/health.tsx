/**
 * Every unit's readiness as the gateway sees it (`GET /api/system/health`), then each replica's figures from its
 * `/metrics`; asked again every 15 s while shown.
 */
import { useQuery } from '@tanstack/react-query'
import { useI18n } from '../../lib/i18n.tsx'
import { ErrorText, Loading } from '../../ui/status.tsx'
import { opsKeys, systemHealth } from './api.ts'
import { ReplicaTable } from './health-replicas.tsx'
import './messages.ts'

export function SystemHealthPanel() {
  const { t, formatTime } = useI18n()
  const health = useQuery({
    queryKey: opsKeys.health,
    queryFn: ({ signal }) => systemHealth(signal),
    refetchInterval: 15_000,
  })
  const data = health.data
  return (
    <section aria-labelledby="ops-health-title">
      <div className="admin-toolbar">
        <h2 id="ops-health-title">{t('ops.health')}</h2>
        <button type="button" onClick={() => void health.refetch()} disabled={health.isFetching}>
          {t('ops.health.refresh')}
        </button>
      </div>
      <ErrorText error={health.error} />
      {health.isPending && <Loading label={t('ops.health.loading')} />}
      {data && (
        <>
          <p role="status" className={data.status === 'ready' ? 'admin-status-ok' : 'admin-status-bad'}>
            {data.status === 'ready' ? t('ops.health.all') : t('ops.health.degraded')}
          </p>
          <p>{t('ops.health.checked', { time: formatTime(data.checked_at) })}</p>
          <table className="admin-table" aria-label={t('ops.health.units')}>
            <thead>
              <tr>
                <th scope="col">{t('ops.col.unit')}</th>
                <th scope="col">{t('ops.col.status')}</th>
                <th scope="col">{t('ops.col.replicas')}</th>
              </tr>
            </thead>
            <tbody>
              {data.units.map((u) => (
                <tr key={u.unit}>
                  <th scope="row">{u.unit}</th>
                  <td className={u.status === 'ready' ? 'admin-status-ok' : 'admin-status-bad'}>
                    {u.status === 'ready' ? t('ops.ready') : t('ops.unready')}
                  </td>
                  <td>{t('ops.replicas', { ready: u.replicas_ready, total: u.replicas })}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <ReplicaTable units={data.units} />
        </>
      )}
    </section>
  )
}
