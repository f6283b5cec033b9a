/** The tickets screen, loaded lazily by the shell: the list at `/tickets`, one ticket at `/tickets/:id`. */
import { TicketDetail } from './ticket-detail.tsx'
import { TicketList } from './ticket-list.tsx'
import { useTicketsLive } from './use-tickets-live.ts'
import './tickets.css'

export function TicketsScreen({ id }: { id: string | null }) {
  useTicketsLive()
  return <div className="tickets-screen">{id ? <TicketDetail key={id} id={id} /> : <TicketList />}</div>
}
