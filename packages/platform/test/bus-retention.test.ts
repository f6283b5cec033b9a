// EVENTS_RETENTION_DAYS and its siblings: read from the environment, checked, and applied to the streams a service
// ensures at start-up on a real JetStream (and nothing changed where they are unset).
import { natsStreamLimits, storageFixture } from '@switchboard/testing'
import t from 'tap'
import {
  baseConfigFromEnv,
  ConfigError,
  createRootLogger,
  defineService,
  parseConfig,
  ServiceBaseConfig,
} from '../src/index.ts'
import { baseConfig, TEST_SECRET } from './helpers/base-config.ts'

const logger = createRootLogger({ level: 'silent' })
const MS = 1_000_000
const DAY = 86_400_000
const unit = { name: 'svc', port: 1 }
const fromEnv = (env: NodeJS.ProcessEnv) =>
  parseConfig(ServiceBaseConfig, baseConfigFromEnv({ INTERNAL_SECRET: TEST_SECRET, ...env }, unit))

t.test('the settings from the environment', async (t) => {
  const set = fromEnv({
    EVENTS_RETENTION_DAYS: '30',
    EVENTS_MAX_BYTES: '1073741824',
    EVENTS_DLQ_RETENTION_DAYS: ' 90 ',
    EVENTS_DLQ_MAX_BYTES: '0',
  })
  t.same(set.bus, {
    driver: 'nats',
    url: 'nats://127.0.0.1:4222',
    prefix: '',
    retention: { max_age_days: 30, max_bytes: 1_073_741_824, dlq_max_age_days: 90, dlq_max_bytes: 0 },
  })
  const unset = fromEnv({ EVENTS_RETENTION_DAYS: '', EVENTS_DLQ_RETENTION_DAYS: '  ' })
  t.same(unset.bus, { driver: 'nats', url: 'nats://127.0.0.1:4222', prefix: '', retention: {} }, 'empty is unset')
  for (const [name, value] of [
    ['EVENTS_RETENTION_DAYS', 'thirty'],
    ['EVENTS_RETENTION_DAYS', '-1'],
    ['EVENTS_RETENTION_DAYS', '1.5'],
    ['EVENTS_DLQ_MAX_BYTES', '10GB'],
    ['EVENTS_DLQ_RETENTION_DAYS', '36501'],
  ] as const) {
    const message = new RegExp(`${name}: expected a whole number`)
    t.throws(() => fromEnv({ [name]: value }), { name: ConfigError.name, message }, `${name}=${value} refused`)
  }
  t.same(fromEnv({ BUS_DRIVER: 'memory', EVENTS_RETENTION_DAYS: '30' }).bus, { driver: 'memory' })
})

t.test('a service applies them to the streams it ensures; unset leaves a hand-set age', async (t) => {
  const store = await storageFixture(t, 'postgres', 'bret')
  if (store.bus.driver !== 'nats') throw new Error('nats expected')
  const svc = defineService<ServiceBaseConfig, object>({
    unit: { name: 'svc', port: 0, prefixes: ['/api/svc'] },
    loadConfig: () => baseConfig('svc', store),
    migrations: {},
    events: [],
    routes: {},
  })
  const { url } = store.bus
  const stream = (name: string) => `${store.prefix}_${name}`.toUpperCase()
  const info = (name: string) => natsStreamLimits(url, stream(name))
  const startWith = async (env: NodeJS.ProcessEnv) => {
    const retention = fromEnv(env).bus
    const config = baseConfig('svc', store, {
      bus: { ...store.bus, ...(retention.driver === 'nats' ? { retention: retention.retention } : {}) },
    })
    const app = await svc.build(config, { logger })
    await app.close()
  }

  await startWith({ EVENTS_RETENTION_DAYS: '14', EVENTS_DLQ_RETENTION_DAYS: '30' })
  for (const name of ['IDENTITY', 'TICKETS', 'CONVERSATIONS', 'AUDIT', 'REALTIME', 'CONFIG', 'AI']) {
    t.equal((await info(name)).max_age, 14 * DAY * MS, `${name}: 14 days`)
  }
  t.equal((await info('DLQ')).max_age, 30 * DAY * MS, 'DLQ: 30 days')

  await natsStreamLimits(url, stream('AUDIT'), { max_age: 2 * DAY * MS }) // nats stream edit AUDIT --max-age 2d
  await startWith({})
  t.equal((await info('AUDIT')).max_age, 2 * DAY * MS, 'a hand-set age survives a start without the setting')
  t.equal((await info('TICKETS')).max_age, 14 * DAY * MS)

  await startWith({ EVENTS_RETENTION_DAYS: '0' })
  t.equal((await info('AUDIT')).max_age, 0, '0 lifts the limit')
  t.equal((await info('DLQ')).max_age, 30 * DAY * MS, 'the DLQ has its own setting')
})
