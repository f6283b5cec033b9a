// A JetStream bus closed while its server is unreachable: draining needs the server, so the drain fails — and the
// client used to go on reconnecting for ever (maxReconnectAttempts -1), keeping a closed unit's process alive and
// knocking on the server's port. Closed outright instead: close resolves and nothing reconnects.
import { createServer } from 'node:net'
import { engineUrls, startTcpProxy, uniqueId } from '@switchboard/testing'
import t from 'tap'
import { createJetStreamBus } from '../src/jetstream.ts'
import { silentLogger } from './fixtures/helpers.ts'

t.test('closing the bus while the server is gone: closed, no reconnection', async (t) => {
  const url = engineUrls().natsUrl
  const proxy = await startTcpProxy(url)
  t.teardown(() => proxy.close())
  const bus = await createJetStreamBus({ url: proxy.urlFor(url), prefix: uniqueId('evc'), logger: silentLogger() })
  t.ok(await bus.healthy())
  await proxy.close() // the server is gone: the client starts reconnecting

  await t.resolves(bus.close(), 'close resolves')

  // the port answers again: a client still reconnecting (every 2 s) would come knocking
  let knocked = 0
  const server = createServer((socket) => {
    knocked++
    socket.destroy()
  })
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: proxy.port }, resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  await new Promise((r) => setTimeout(r, 3000))
  t.equal(knocked, 0, 'nothing reconnected')
})
