import { createServer } from 'node:http'
import t, { type Test } from 'tap'
import { promptFor } from '../../src/domain/answering.ts'
import { createLlmClient } from '../../src/llm/openai.ts'
import { LlmError } from '../../src/llm/port.ts'
import type { Passage } from '../../src/providers/port.ts'
import { refusingUrl, startLlmStandIn } from '../helpers/stand-ins.ts'

const PASSAGES: Passage[] = [
  { document_id: 'd1', title: 'Refunds', content: 'Refunds take five working days.', score: 0.9, source: 'primary' },
  { document_id: 'd2', title: 'Returns', content: 'Returns are free within 30 days.', score: 0.7, source: 'primary' },
]
const MESSAGES = promptFor('how long do refunds take', PASSAGES)

async function failure(t: Test, promise: Promise<unknown>): Promise<LlmError> {
  const err = await promise.then(
    () => t.fail('expected an LlmError') as never,
    (e: unknown) => e,
  )
  t.type(err, LlmError)
  return err as LlmError
}

t.test('not configured without a base URL', async (t) => {
  const llm = createLlmClient({
    base_url: '',
    api_key: '',
    model: 'm',
    temperature: 0.7,
    max_tokens: 10,
    timeout_ms: 100,
  })
  t.equal(llm.configured, false)
  t.equal((await failure(t, llm.complete(MESSAGES))).kind, 'unavailable')
})

t.test('a completion: the request, the answer composed from the passages, token usage', async (t) => {
  const standIn = await startLlmStandIn()
  t.teardown(() => standIn.close())
  const llm = createLlmClient(standIn.settings({ base_url: `${standIn.url}/` }))
  t.equal(llm.configured, true)

  const answer = await llm.complete(MESSAGES)
  for (const p of PASSAGES) t.match(answer.content, p.content, `quotes "${p.title}"`)
  t.equal(answer.model, 'stand-in-model')
  t.ok(answer.tokens.prompt > 0 && answer.tokens.completion > 0)
  t.equal(answer.tokens.total, answer.tokens.prompt + answer.tokens.completion)

  const [req] = standIn.requests
  t.match(req, { method: 'POST', path: '/v1/chat/completions' })
  t.equal(req?.headers.authorization, `Bearer ${standIn.apiKey}`)
  t.same(req?.body, { model: 'stand-in-model', messages: MESSAGES, temperature: 0.2, max_tokens: 500 })
})

t.test('streamed: every piece handed over as it arrives, the whole answer returned', async (t) => {
  const standIn = await startLlmStandIn()
  t.teardown(() => standIn.close())
  const llm = createLlmClient(standIn.settings())
  const pieces: string[] = []
  const answer = await llm.complete(MESSAGES, { onDelta: (text) => pieces.push(text) })
  t.ok(pieces.length > 5, `${pieces.length} pieces`)
  t.equal(pieces.join(''), answer.content)
  for (const p of PASSAGES) t.match(answer.content, p.content)
  t.ok(answer.tokens.total > 0, 'usage read from the last chunk')
  t.equal(answer.tokens.total, answer.tokens.prompt + answer.tokens.completion)
  t.match(standIn.requests[0]?.body, { stream: true, stream_options: { include_usage: true } })

  const plain = await llm.complete(MESSAGES)
  t.equal(plain.content, answer.content, 'the same answer unstreamed')
  t.notMatch(standIn.requests[1]?.body, { stream: true }, 'stream only asked with onDelta')

  const quiet = await llm.complete(MESSAGES, {
    onDelta: () => {
      throw new Error('listener gone')
    },
  })
  t.equal(quiet.content, answer.content, 'a failing listener does not fail the answer')
})

t.test('failures by kind', async (t) => {
  const standIn = await startLlmStandIn({ slowMs: 2000 })
  t.teardown(() => standIn.close())
  const llm = createLlmClient(standIn.settings({ timeout_ms: 150 }))
  const stream = () => llm.complete(MESSAGES, { onDelta: () => {} })

  for (const call of [() => llm.complete(MESSAGES), stream]) {
    standIn.setMode('slow')
    t.equal((await failure(t, call())).kind, 'timeout')
    standIn.setMode('error')
    t.match(await failure(t, call()), { kind: 'http', status: 500 })
    standIn.setMode('garbage')
    t.equal((await failure(t, call())).kind, 'invalid', 'not JSON')
    standIn.setMode('shape')
    t.equal((await failure(t, call())).kind, 'invalid', 'no choices[0].message.content')
    standIn.setMode('drop')
    t.equal((await failure(t, call())).kind, 'connection')
  }
  standIn.setMode('good')
  standIn.cutStreams = true
  t.match(await failure(t, stream()), { kind: 'invalid', message: /before \[DONE\]/ }, 'a stream cut short')
  standIn.cutStreams = false

  const noKey = createLlmClient(standIn.settings({ api_key: '' }))
  t.match(await failure(t, noKey.complete(MESSAGES)), { kind: 'http', status: 401 })
  t.equal(standIn.requests.at(-1)?.headers.authorization, undefined, 'no Authorization without a key')

  const down = createLlmClient(standIn.settings({ base_url: await refusingUrl('/v1') }))
  t.equal((await failure(t, down.complete(MESSAGES))).kind, 'connection')
  t.equal((await failure(t, down.complete(MESSAGES, { onDelta: () => {} }))).kind, 'connection')
})

t.test('the timeout also bounds a stream that stalls midway', async (t) => {
  // a server that starts the stream, sends one piece and then nothing
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'Hel' } }] })}\n\n`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    server.closeAllConnections()
    server.close()
  })
  const { port } = server.address() as { port: number }
  const llm = createLlmClient({
    base_url: `http://127.0.0.1:${port}/v1`,
    api_key: '',
    model: 'm',
    temperature: 0,
    max_tokens: 10,
    timeout_ms: 200,
  })
  const pieces: string[] = []
  const started = Date.now()
  t.equal((await failure(t, llm.complete(MESSAGES, { onDelta: (p) => pieces.push(p) }))).kind, 'timeout')
  t.same(pieces, ['Hel'], 'the piece before the stall was handed over')
  t.ok(Date.now() - started < 1000)
})
