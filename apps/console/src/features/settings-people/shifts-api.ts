/** The conversations service's shifts (`/api/shifts`, services/conversations README; shift.read / shift.write). */
import { api, type Page } from '../../lib/http.ts'

export const SHIFT_TYPES = ['morning', 'afternoon', 'evening', 'night'] as const

export interface Shift {
  id: string
  agent_id: string
  shift_type: string
  start_time: string
  end_time: string
  status: string
}

export const shiftKeys = {
  week: (userId: string, from: string) => ['settings-people', 'shifts', userId, from] as const,
}

/** One person's shifts starting in [from, to), by start time (stored by the agent's user id). */
export const listShifts = async (userId: string, from: Date, to: Date) =>
  (
    await api<Page<Shift>>('/api/shifts', {
      query: {
        agent_id: userId,
        date_from: from.toISOString(),
        date_to: to.toISOString(),
        page_size: 100,
        sort_by: 'start_time',
      },
    })
  ).data

export const createShift = (body: { agent_id: string; shift_type: string; start_time: string; end_time: string }) =>
  api<Shift>('/api/shifts', { method: 'POST', body })

export const deleteShift = (id: string) => api<null>(`/api/shifts/${encodeURIComponent(id)}`, { method: 'DELETE' })
