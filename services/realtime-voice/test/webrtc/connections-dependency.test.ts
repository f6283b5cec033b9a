// Issue 19 §3: GET /api/v1/webrtc/connections answered a bare 500 when a Redis command timed out. The connection
// state lives in the shared cache; a cache that does not answer is 503 DEPENDENCY_TIMEOUT with Retry-After (the
// platform's rule, packages/platform/test/dependency-errors.test.ts), here through a proxy this test owns and
// freezes — never the machine's shared Redis.
import { silentLogger, startTcpProxy, storageFixture } from '@switchboard/testing'
import t from 'tap'
import { realtimeVoice } from '../../src/build.ts'
import { loadConfig } from '../../src/config.ts'
import { admin, headersOf, INTERNAL_SECRET } from '../helpers/hub.ts'

t.test('the WebRTC state routes when Redis stops answering', async (t) => {
  const store = await storageFixture(t, 'postgres', 'rvdep')
  const redisUrl = (store.cache as { url: string }).url
  const proxy = await startTcpProxy(redisUrl)
  t.teardown(() => proxy.close())
  const app = await realtimeVoice.build(
    {
      ...loadConfig({
        INTERNAL_SECRET,
        LOG_LEVEL: 'silent',
        // never called here; the hub's config needs them
        UPSTREAM_CONVERSATIONS: 'http://127.0.0.1:9',
        UPSTREAM_IDENTITY: 'http://127.0.0.1:9',
      }),
      port: 0,
      database: store.database,
      cache: { ...store.cache, url: proxy.urlFor(redisUrl) } as never,
      bus: store.bus,
    },
    { logger: silentLogger() },
  )
  t.teardown(() => app.close())
  await app.ready()
  const headers = await headersOf(admin())
  const get = (url: string) => app.inject({ method: 'GET', url, headers })

  const before = await get('/api/v1/webrtc/connections')
  t.equal(before.statusCode, 200, before.body)
  t.same(before.json(), { count: 0, items: [] })

  proxy.freeze()
  for (const url of ['/api/v1/webrtc/connections', '/api/v1/webrtc/stats', '/api/v1/webrtc/stats?session_id=s-1']) {
    const res = await get(url)
    t.equal(res.statusCode, 503, `${url}: ${res.body}`)
    t.equal(res.headers['retry-after'], '1')
    t.match(res.json(), { error: 'unavailable', code: 'DEPENDENCY_TIMEOUT', message: /^the cache did not answer/ })
  }

  proxy.thaw()
  const after = await get('/api/v1/webrtc/connections')
  t.equal(after.statusCode, 200, `answers again once Redis does: ${after.body}`)
})
