// `svc.publish`: an event straight to the bus, not through the outbox (the hub's signals), checked against its contract
// like `tx.emit`. On both storage modes (NATS and the in-process bus).
import { Type } from '@sinclair/typebox'
import type { Envelope } from '@switchboard/contracts'
import { inEachStorageMode, storageFixture } from '@switchboard/testing'
import type { Kysely } from 'kysely'
import t from 'tap'
import {
  createRootLogger,
  defineService,
  EventContractError,
  type ServiceBaseConfig,
  systemCaller,
} from '../src/index.ts'
import { baseConfig } from './helpers/base-config.ts'

const logger = createRootLogger({ level: 'silent' })

const PingEvents = {
  sent: { type: 'pings.ping.sent', data: Type.Object({ n: Type.Integer() }) },
} as const
const Undeclared = { type: 'pings.ping.other', data: Type.Object({}) }

const pings = defineService<ServiceBaseConfig, unknown>({
  unit: { name: 'pings', port: 0, prefixes: ['/api/pings'] },
  loadConfig: () => {
    throw new Error('built with an explicit config')
  },
  migrations: {},
  streams: [{ name: 'PINGS', subjects: ['pings.>'] }],
  events: [PingEvents],
  routes: {},
})

inEachStorageMode(t, 'svc.publish', async (t, mode) => {
  const store = await storageFixture(t, mode, 'pub')
  const app = await pings.build(baseConfig('pings', store), { logger })
  t.teardown(() => app.close())
  await app.ready()
  const svc = pings.contextOf(app)
  const scope = { tenant_id: 'acme', workspace_id: 'support' }
  const published = async () => {
    const out: Envelope[] = []
    await svc.bus.replay('PINGS', { fromSeq: 1 }, async (d) => {
      out.push(d.envelope)
    })
    return out
  }

  await svc.publish(systemCaller(scope), PingEvents.sent, { n: 1 })
  const [first, ...rest] = await published()
  t.same(rest, [], 'one event')
  t.match(first, { type: 'pings.ping.sent', tenant_id: 'acme', workspace_id: 'support', data: { n: 1 } })
  t.equal(first?.actor.user_id, 'system', "the caller's actor")

  await t.rejects(
    svc.publish(systemCaller(scope), PingEvents.sent, { n: 'one' } as never),
    EventContractError,
    'a payload off its contract is refused',
  )
  await t.rejects(
    svc.publish(systemCaller(scope), Undeclared as never, {} as never),
    EventContractError,
    'an event the service did not declare is refused',
  )
  t.equal((await published()).length, 1, 'nothing refused reached the bus')

  const outbox = await (svc.db as Kysely<{ outbox: { id: string } }>).selectFrom('outbox').select('id').execute()
  t.same(outbox, [], 'the outbox never held it')
})
