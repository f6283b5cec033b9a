import { silentLogger } from '@switchboard/testing'
import { conversations } from '../../src/build.ts'
import { loadConfig } from '../../src/config.ts'
import { as, INTERNAL_SECRET, servicePrincipal } from './app.ts'

// A second replica of the service in a process of its own — its own clock and UUIDv7 generator, as a replica in
// the fleet has — on the storage the parent test hands over in CV_REPLICA_STORAGE. Driven over IPC:
// `{op: 'post', session_id, contents: [...]}` posts the messages one after another as the hub would and answers
// `{ids}`; `{op: 'close'}` closes the app and exits.

// Replicas' clocks drift apart (NTP keeps them within milliseconds to seconds): CV_REPLICA_CLOCK_SKEW_MS sets this
// one's, which is the clock its UUIDv7 ids are made from.
const skew = Number(process.env.CV_REPLICA_CLOCK_SKEW_MS ?? 0)
const clock = Date.now
Date.now = () => clock() + skew

const storage = JSON.parse(process.env.CV_REPLICA_STORAGE ?? '{}')
const app = await conversations.build(
  {
    ...loadConfig({ INTERNAL_SECRET, LOG_LEVEL: 'silent', DB_DRIVER: 'postgres', QUEUE_INTERVAL_MS: '3600000' }),
    port: 0,
    database: storage.database,
    cache: storage.cache,
    bus: storage.bus,
  },
  { logger: silentLogger() },
)
await app.ready()
await app.whenStarted() // consumers attached, as a runner's /ready waits for
const hub = await as(servicePrincipal())

type Order = { op: 'post'; session_id: string; customer_id: string; contents: string[] } | { op: 'close' }

process.on('message', async (order: Order) => {
  if (order.op === 'close') {
    await app.close()
    process.exit(0)
  }
  const ids: string[] = []
  for (const content of order.contents) {
    const res = await app.inject({
      method: 'POST',
      url: `/internal/sessions/${order.session_id}/messages`,
      headers: hub,
      payload: { sender: 'customer', customer_id: order.customer_id, content },
    })
    if (res.statusCode !== 201) {
      process.send?.({ error: `${res.statusCode} ${res.body}` })
      return
    }
    ids.push(res.json().message.id)
  }
  process.send?.({ ids })
})
process.send?.({ ready: true })
