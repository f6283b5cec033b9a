import { Writable } from 'node:stream'
import t from 'tap'
import { createRootLogger, lazyChildLogger } from '../src/index.ts'

t.test('a lazy request logger logs like a pino child: bindings, levels, redaction', async (t) => {
  const lines: Record<string, unknown>[] = []
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)))
      done()
    },
  })
  const root = createRootLogger({ level: 'info', destination }).child({ service: 'svc' })
  const log = lazyChildLogger(root, { reqId: 'r-1' }, {})
  log.debug('not at this level')
  log.warn({ user: { password: 'p', name: 'n' } }, 'hello')
  t.equal(log.level, 'info')
  t.ok(log.isLevelEnabled('warn'))
  log.child({ step: 2 }).info('nested')
  const quiet = lazyChildLogger(root, { reqId: 'r-2' }, { level: 'error' })
  quiet.warn('dropped by the child level')
  await new Promise((r) => setImmediate(r))
  t.match(lines, [
    { level: 40, service: 'svc', reqId: 'r-1', msg: 'hello', user: { password: '[REDACTED]', name: 'n' } },
    { level: 30, reqId: 'r-1', step: 2, msg: 'nested' },
  ])
  t.equal(lines.length, 2)
})
