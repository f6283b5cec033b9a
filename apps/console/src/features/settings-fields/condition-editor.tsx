/**
 * The `all`/`any` condition editor: whether the field always shows or only when all (any) of the rows hold; each
 * row a ticket attribute or another custom field, an operator and a value. Labelled per row (a group named
 * "Condition n") so each control has an accessible name.
 */
import { useI18n } from '../../lib/i18n.tsx'
import { CONDITION_OPS, TICKET_CONTEXT_KEYS } from '../tickets/show-when.ts'
import type { CustomField } from './api.ts'
import { type ConditionDraft, type Join, LIST_OPS, type Row } from './conditions.ts'
import './messages.ts'

const JOINS: Join[] = ['always', 'all', 'any']

/**
 * A condition's value: one of a choice field's options when it compares with one value (the service refuses a value
 * that is not an option), else text — a comma-separated list for "is one of" / "is none of".
 */
function ValueInput({
  row,
  others,
  onChange,
}: {
  row: Row
  others: readonly CustomField[]
  onChange(v: string): void
}) {
  const { t } = useI18n()
  const target = row.field.startsWith('cf.') ? others.find((f) => `cf.${f.key}` === row.field) : undefined
  const options = target && (target.type === 'select' || target.type === 'multiselect') ? (target.options ?? []) : []
  if (LIST_OPS.has(row.op) || options.length === 0) {
    return (
      <label>
        {LIST_OPS.has(row.op) ? t('fields.cond.values') : t('fields.cond.value')}
        <input value={row.value} onChange={(e) => onChange(e.target.value)} />
      </label>
    )
  }
  return (
    <label>
      {t('fields.cond.value')}
      <select value={row.value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t('fields.cond.choose')}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  )
}

export function ConditionEditor({
  value,
  onChange,
  others,
}: {
  value: ConditionDraft
  onChange(next: ConditionDraft): void
  /** the other fields of the workspace (a field may not depend on itself) */
  others: readonly CustomField[]
}) {
  const { t } = useI18n()
  const setRow = (i: number, patch: Partial<Row>) =>
    onChange({ ...value, rows: value.rows.map((r, j) => (j === i ? { ...r, ...patch } : r)) })
  const first = TICKET_CONTEXT_KEYS[0]
  return (
    <fieldset className="fields-conditions">
      <legend>{t('fields.cond')}</legend>
      <label>
        {t('fields.cond.join')}
        <select
          value={value.join}
          onChange={(e) => {
            const join = e.target.value as Join
            const rows =
              join !== 'always' && value.rows.length === 0 ? [{ field: first, op: 'eq', value: '' }] : value.rows
            onChange({ join, rows })
          }}
        >
          {JOINS.map((j) => (
            <option key={j} value={j}>
              {t(`fields.cond.join.${j}`)}
            </option>
          ))}
        </select>
      </label>
      {value.join !== 'always' && (
        <>
          {value.rows.map((row, i) => {
            const n = i + 1
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
              <fieldset key={i} className="fields-condition-row">
                <legend>{t('fields.cond.row', { n })}</legend>
                <label>
                  {t('fields.cond.field')}
                  <select value={row.field} onChange={(e) => setRow(i, { field: e.target.value })}>
                    {TICKET_CONTEXT_KEYS.map((k) => (
                      <option key={k} value={k}>
                        {t(`fields.cond.${k}`)}
                      </option>
                    ))}
                    {others.map((f) => (
                      <option key={f.key} value={`cf.${f.key}`}>
                        {t('fields.cond.cf', { name: f.name || f.key })}
                      </option>
                    ))}
                  </select>
                </label>
                <label>
                  {t('fields.cond.op')}
                  <select value={row.op} onChange={(e) => setRow(i, { op: e.target.value })}>
                    {CONDITION_OPS.map((op) => (
                      <option key={op} value={op}>
                        {t(`fields.cond.op.${op}`)}
                      </option>
                    ))}
                  </select>
                </label>
                {row.op !== 'exists' && (
                  <ValueInput row={row} others={others} onChange={(value) => setRow(i, { value })} />
                )}
                <button
                  type="button"
                  onClick={() => {
                    const rows = value.rows.filter((_, j) => j !== i)
                    onChange({ join: rows.length ? value.join : 'always', rows })
                  }}
                >
                  {t('fields.cond.remove', { n })}
                </button>
              </fieldset>
            )
          })}
          <button
            type="button"
            onClick={() => onChange({ ...value, rows: [...value.rows, { field: first, op: 'eq', value: '' }] })}
          >
            {t('fields.cond.add')}
          </button>
        </>
      )}
    </fieldset>
  )
}
