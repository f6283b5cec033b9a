/**
 * One SLA config's form, for a new one or an edit: priority and customer tier (one config per pair), the three times
 * in minutes, the warning threshold, business hours only, active. The service checks the rules (first response and
 * escalation before resolution; one per pair, one per name) and its refusal is shown in its words.
 */
import { type FormEvent, useState } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import { ErrorText } from '../../ui/status.tsx'
import { PRIORITIES, type SlaConfig, type SlaInput } from './api.ts'

const BLANK: SlaInput = {
  name: '',
  priority: 'normal',
  customer_tier: '',
  warning_threshold: 80,
  first_response_time: 60,
  resolution_time: 480,
  escalation_time: 240,
  business_hours_only: false,
  active: true,
}

export function SlaForm({
  config,
  onSave,
  onCancel,
}: {
  config: SlaConfig | null
  onSave(input: SlaInput): Promise<unknown>
  onCancel(): void
}) {
  const { t } = useI18n()
  const start = config ?? BLANK
  const [error, setError] = useState<unknown>(null)
  const [busy, setBusy] = useState(false)
  const title = config ? t('svc.sla.editTitle', { name: config.name }) : t('svc.sla.new')

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    const data = new FormData(e.currentTarget)
    const num = (k: string) => Number(data.get(k))
    setBusy(true)
    setError(null)
    try {
      await onSave({
        name: String(data.get('name') ?? '').trim(),
        priority: String(data.get('priority')),
        customer_tier: String(data.get('customer_tier') ?? ''),
        warning_threshold: num('warning_threshold'),
        first_response_time: num('first_response_time'),
        resolution_time: num('resolution_time'),
        escalation_time: num('escalation_time'),
        business_hours_only: data.get('business_hours_only') === 'on',
        active: data.get('active') === 'on',
      })
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }

  const minutes = (name: keyof SlaInput, label: string) => (
    <label>
      {label}
      <input name={name} type="number" min={1} max={525600} required defaultValue={Number(start[name])} />
    </label>
  )
  return (
    <form aria-label={title} onSubmit={submit} className="svc-form">
      <h3>{title}</h3>
      <label>
        {t('svc.sla.name')}
        <input name="name" required maxLength={100} defaultValue={start.name} autoComplete="off" />
      </label>
      <label>
        {t('svc.sla.priority')}
        <select name="priority" defaultValue={start.priority}>
          {PRIORITIES.map((p) => (
            <option key={p} value={p}>
              {t(`svc.priority.${p}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('svc.sla.tier')}
        <select name="customer_tier" defaultValue={start.customer_tier}>
          <option value="">{t('svc.tier.any')}</option>
          {PRIORITIES.map((p) => (
            <option key={p} value={p}>
              {t(`svc.priority.${p}`)}
            </option>
          ))}
        </select>
      </label>
      {minutes('first_response_time', t('svc.sla.firstResponse'))}
      {minutes('resolution_time', t('svc.sla.resolution'))}
      {minutes('escalation_time', t('svc.sla.escalation'))}
      <label>
        {t('svc.sla.warning')}
        <input
          name="warning_threshold"
          type="number"
          min={50}
          max={100}
          required
          defaultValue={start.warning_threshold}
        />
      </label>
      <label className="svc-check">
        <input name="business_hours_only" type="checkbox" defaultChecked={start.business_hours_only} />
        {t('svc.sla.businessHoursOnly')}
      </label>
      <label className="svc-check">
        <input name="active" type="checkbox" defaultChecked={start.active} />
        {t('svc.sla.active')}
      </label>
      <div className="svc-buttons">
        <button type="submit" disabled={busy}>
          {t('svc.sla.save')}
        </button>
        <button type="button" onClick={onCancel}>
          {t('svc.cancel')}
        </button>
      </div>
      {error !== null && <ErrorText error={error} />}
    </form>
  )
}
