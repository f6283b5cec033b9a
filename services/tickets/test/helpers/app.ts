import type { EventBus } from '@switchboard/events'
import type { Test } from 'tap'
import { build } from '../../src/build.ts'
import { loadConfig } from '../../src/config.ts'
import { INTERNAL_SECRET, type Mode, type Storage, silentLogger, storage } from './modes.ts'

/**
 * A tickets app on isolated storage, closed and cleaned up when the test ends. `bus` lets a test hand in
 * its own bus (made for this storage, so on the same NATS prefix); the test closes it.
 */
export async function ticketsApp(t: Test, mode: Mode, opts: { bus?: (store: Storage) => Promise<EventBus> } = {}) {
  const store = storage(mode, 'tk')
  const config = {
    ...loadConfig({ INTERNAL_SECRET, LOG_LEVEL: 'silent' }),
    port: 0,
    database: store.database,
    cache: store.cache,
    bus: store.bus,
  }
  // Teardowns run last-in first-out: the app closes before its storage is dropped, even if build() fails.
  t.teardown(() => store.cleanup())
  const bus = opts.bus ? await opts.bus(store) : undefined
  if (bus) t.teardown(() => bus.close())
  const app = await build(config, { logger: silentLogger(), ...(bus ? { bus } : {}) })
  t.teardown(() => app.close())
  await app.ready()
  return { app, store }
}
