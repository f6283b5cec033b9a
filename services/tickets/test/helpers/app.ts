import type { EventBus } from '@switchboard/events'
import type { Test } from 'tap'
import { build } from '../../src/build.ts'
import { loadConfig } from '../../src/config.ts'
import { INTERNAL_SECRET, type Mode, silentLogger, storage } from './modes.ts'

/** A tickets app on isolated storage, closed and cleaned up when the test ends. */
export async function ticketsApp(t: Test, mode: Mode, opts: { bus?: EventBus } = {}) {
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
  const app = await build(config, { logger: silentLogger(), ...(opts.bus ? { bus: opts.bus } : {}) })
  t.teardown(() => app.close())
  await app.ready()
  return { app, store }
}
