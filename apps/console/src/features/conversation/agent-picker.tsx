/** A modal list of the workspace's agents with their status and load, to assign or transfer a conversation to. */
import { useQuery } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState } from 'react'
import { useI18n } from '../../lib/i18n.tsx'
import { ErrorText, Loading } from '../../ui/status.tsx'
import { keys, listAgents } from './api.ts'

interface Props {
  title: string
  /** the agent (user id) who has it now: not offered */
  exclude: string | null
  busy: boolean
  error: unknown
  onPick(agentUserId: string): void
  onCancel(): void
}

export function AgentPicker({ title, exclude, busy, error, onPick, onCancel }: Props) {
  const { t } = useI18n()
  const dialog = useRef<HTMLDialogElement>(null)
  const headingId = useId()
  const [chosen, setChosen] = useState<string | null>(null)
  // load changes with every hand-over: ask again each time the picker opens
  const agents = useQuery({ queryKey: keys.agents, queryFn: listAgents, staleTime: 0 })

  useEffect(() => {
    const el = dialog.current
    if (el && !el.open) el.showModal() // modal: focus moves in and stays until it closes
  }, [])

  const offered = (agents.data ?? []).filter((a) => a.user_id !== exclude)
  return (
    <dialog
      ref={dialog}
      className="agent-picker"
      aria-labelledby={headingId}
      onCancel={(e) => {
        e.preventDefault()
        onCancel()
      }}
    >
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault()
          if (chosen) onPick(chosen)
        }}
      >
        <h2 id={headingId}>{title}</h2>
        {agents.isLoading && <Loading label={t('conversation.loading')} />}
        <ErrorText error={agents.error ?? error} />
        {agents.data && offered.length === 0 && <p>{t('conversation.picker.empty')}</p>}
        <fieldset>
          <legend>{t('conversation.picker.agents')}</legend>
          {offered.map((a) => (
            <label key={a.id} className={`agent-option status-${a.status}`}>
              <input
                type="radio"
                name="agent"
                value={a.user_id}
                checked={chosen === a.user_id}
                onChange={() => setChosen(a.user_id)}
              />
              <span className="agent-name">{a.name}</span>
              <span className="agent-load">
                {t('conversation.picker.load', { status: a.status, load: a.current_load, max: a.max_concurrent })}
              </span>
            </label>
          ))}
        </fieldset>
        <div className="dialog-actions">
          <button type="button" onClick={onCancel}>
            {t('conversation.picker.cancel')}
          </button>
          <button type="submit" className="primary" disabled={!chosen || busy}>
            {t('conversation.picker.confirm')}
          </button>
        </div>
      </form>
    </dialog>
  )
}
