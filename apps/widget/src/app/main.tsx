/**
 * The chat app in the widget's iframe (Preact): reads the frame's URL, keeps the conversation in a ChatStore fed
 * by one visitor socket, and talks to the loader (open/close in, ready/unread/close out). The socket opens at once
 * when a conversation is kept from an earlier visit (to resume it and count unread messages), otherwise with the
 * visitor's first message: a page view alone opens no socket.
 */
import { render } from 'preact'
import { App } from './app.tsx'
import { ChatStore } from './lib/chat-store.ts'
import { readParams } from './lib/params.ts'
import { loaderLink } from './lib/parent.ts'
import { socketUrl, VisitorSocket } from './lib/visitor-socket.ts'
import './app.css'

const params = readParams(location.search)
const link = loaderLink(params.embedOrigin)
const store = new ChatStore(
  params.tenantId,
  params.workspaceId,
  { unread: (count) => link.post({ type: 'switchboard:unread', count }) },
  // inside a host page the loader says when it is open; a frame opened as its own page is open
  !link.embedded,
)
const socket = new VisitorSocket(socketUrl(params.tenantId, params.workspaceId, params.embedOrigin), {
  state: store.onState,
  frame: store.onFrame,
  ready: store.onReady,
})
store.attach(socket)

let started = false
const connect = () => {
  if (started) return
  started = true
  socket.start()
}
if (store.state.sessionId) connect()

link.listen({ open: () => store.setOpen(true), close: () => store.setOpen(false) })
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') store.visible()
})

render(<App params={params} store={store} link={link} connect={connect} />, document.getElementById('root')!)
link.post({ type: 'switchboard:ready' })
