// Issue 19 §3: with no knowledge provider configured (the default), any agent's upload or sync used to answer 503 and
// log an error with a stack, so any agent could raise HighErrorRate. A missing configuration is the caller's: 409
// AI_PROVIDER_NOT_CONFIGURED, logged at info, never a 5xx nor an error line.
import { createRootLogger } from '@switchboard/platform'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { agent, aiApp, call, platformAdmin } from '../helpers/app.ts'
import { startPrimaryStandIn } from '../helpers/stand-ins.ts'

const UPLOAD = '/api/v1/ai/knowledge/upload'
const SYNC = '/api/v1/ai/knowledge/sync'
const doc = { title: 'Warranty', content: 'Two years on every device.', tags: ['policy'] }

function capturingLogger() {
  const lines: Array<{ level: number; msg: string; err?: unknown; code?: string }> = []
  const logger = createRootLogger({
    level: 'info',
    destination: { write: (l: string) => void lines.push(JSON.parse(l)) },
  })
  return { logger, lines }
}

inEachStorageMode(t, 'upload and sync with no knowledge provider configured', async (t, mode) => {
  const { logger, lines } = capturingLogger()
  const { app } = await aiApp(t, mode, {}, {}, logger)
  lines.length = 0 // what start-up said (no UPSTREAM_CONVERSATIONS here) is not the requests'
  for (const who of [agent(), platformAdmin()]) {
    const upload = await call(app, who, 'POST', UPLOAD, doc)
    t.equal(upload.statusCode, 409, upload.body)
    t.match(upload.json(), {
      error: 'conflict',
      code: 'AI_PROVIDER_NOT_CONFIGURED',
      message: 'no knowledge provider is configured for this scope',
    })
    const sync = await call(app, who, 'POST', SYNC)
    t.equal(sync.statusCode, 409, sync.body)
    t.equal(sync.json().code, 'AI_PROVIDER_NOT_CONFIGURED')
  }
  t.same(
    lines.filter((l) => l.level >= 40),
    [],
    'nothing logged at warn or error (no stack, nothing for HighErrorRate)',
  )
  t.equal(lines.filter((l) => l.level === 30 && /refused: no knowledge provider/.test(l.msg)).length, 4, 'info')
  const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body
  t.notMatch(metrics, /http_request_duration_seconds_count\{[^}]*status="5\d\d"/, 'no 5xx counted')
})

inEachStorageMode(t, 'upload and sync with every configured provider switched off', async (t, mode) => {
  const primary = await startPrimaryStandIn()
  t.teardown(() => primary.close())
  const { logger, lines } = capturingLogger()
  const { app } = await aiApp(t, mode, {}, { primary: primary.settings() }, logger)
  t.equal((await call(app, platformAdmin(), 'PUT', '/api/v1/ai/knowledge-provider/disable')).statusCode, 200)
  lines.length = 0
  const upload = await call(app, platformAdmin(), 'POST', UPLOAD, doc)
  t.equal(upload.statusCode, 409, upload.body)
  t.match(upload.json(), { code: 'AI_PROVIDER_NOT_CONFIGURED', message: /switched off/ })
  const sync = await call(app, agent(), 'POST', SYNC)
  t.equal(sync.statusCode, 409, sync.body)
  t.same(
    lines.filter((l) => l.level >= 40),
    [],
    'nothing logged at warn or error',
  )
  t.equal(primary.docs.size, 0)
})
