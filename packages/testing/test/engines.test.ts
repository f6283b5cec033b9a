import { createServer } from 'node:net'
import t from 'tap'
import {
  chooseEngineSource,
  type EngineName,
  type EngineProbes,
  engineUrls,
  resolveEngine,
  uniqueId,
} from '../src/engines.ts'
import { tcpAnswers } from '../src/probes.ts'

t.test('the decision: environment, then loopback, then a container, else a loud failure', async (t) => {
  t.same(chooseEngineSource('postgres', { envUrl: 'postgres://db:5432/x' }), {
    kind: 'use',
    source: 'env',
    url: 'postgres://db:5432/x',
  })
  t.same(
    chooseEngineSource('postgres', { envUrl: 'postgres://db:5432/x', loopbackAnswers: false, dockerAnswers: false }),
    { kind: 'use', source: 'env', url: 'postgres://db:5432/x' },
    'a URL in the environment is used as given, whatever answers',
  )
  t.same(chooseEngineSource('redis', {}), { kind: 'probe', probe: 'loopback' }, 'no URL: look at the loopback first')
  t.same(chooseEngineSource('redis', { envUrl: '' }), { kind: 'probe', probe: 'loopback' }, 'an empty URL is none')
  t.same(chooseEngineSource('redis', { loopbackAnswers: true }), {
    kind: 'use',
    source: 'loopback',
    url: 'redis://127.0.0.1:6379',
  })
  t.same(chooseEngineSource('nats', { loopbackAnswers: false }), { kind: 'probe', probe: 'docker' })
  t.same(chooseEngineSource('nats', { loopbackAnswers: false, dockerAnswers: true }), { kind: 'container' })
  const fail = chooseEngineSource('nats', { loopbackAnswers: false, dockerAnswers: false })
  t.equal(fail.kind, 'fail')
  if (fail.kind === 'fail') {
    t.match(fail.message, /^NATS JetStream is not available/, 'names the engine')
    t.match(fail.message, /NATS_URL is not set/)
    t.match(fail.message, /nats:\/\/127\.0\.0\.1:4222/)
    t.match(fail.message, /docker info/)
  }
})

/** Probes that answer as told and record what was asked. */
function fakeProbes(answers: { loopback: boolean; docker: boolean }) {
  const asked: string[] = []
  const probes: EngineProbes = {
    loopback: async (engine) => {
      asked.push(`loopback:${engine}`)
      return answers.loopback
    },
    docker: async () => {
      asked.push('docker')
      return answers.docker
    },
    container: async (engine) => {
      asked.push(`container:${engine}`)
      return `${engine}://container:1234`
    },
  }
  return { probes, asked }
}

t.test('resolving runs only the probes the answers so far leave open', async (t) => {
  const cases: Array<{
    engine: EngineName
    env: Record<string, string>
    answers: { loopback: boolean; docker: boolean }
    expect: { url: string; source: string } | RegExp
    asked: string[]
  }> = [
    {
      engine: 'postgres',
      env: { DATABASE_URL: 'postgres://elsewhere/db' },
      answers: { loopback: false, docker: false },
      expect: { url: 'postgres://elsewhere/db', source: 'env' },
      asked: [],
    },
    {
      engine: 'postgres',
      env: {},
      answers: { loopback: true, docker: true },
      expect: { url: 'postgres://postgres@127.0.0.1:5432/test', source: 'loopback' },
      asked: ['loopback:postgres'],
    },
    {
      engine: 'redis',
      env: {},
      answers: { loopback: false, docker: true },
      expect: { url: 'redis://container:1234', source: 'container' },
      asked: ['loopback:redis', 'docker', 'container:redis'],
    },
    {
      engine: 'nats',
      env: {},
      answers: { loopback: false, docker: false },
      expect: /^NATS JetStream is not available/,
      asked: ['loopback:nats', 'docker'],
    },
  ]
  for (const c of cases) {
    const { probes, asked } = fakeProbes(c.answers)
    const run = resolveEngine(c.engine, c.env, probes)
    if (c.expect instanceof RegExp) await t.rejects(run, c.expect, `${c.engine}: fails loudly`)
    else t.same(await run, c.expect, `${c.engine} from ${c.expect.source}`)
    t.same(asked, c.asked, `${c.engine}: probes asked`)
  }
})

t.test('engineUrls: the environment, else the loopback services', async (t) => {
  t.same(engineUrls({}), {
    databaseUrl: 'postgres://postgres@127.0.0.1:5432/test',
    redisUrl: 'redis://127.0.0.1:6379',
    natsUrl: 'nats://127.0.0.1:4222',
  })
  t.equal(engineUrls({ REDIS_URL: 'redis://cache:6380' }).redisUrl, 'redis://cache:6380')
})

t.test('uniqueId: lower case, labelled, different each time, usable as a schema name', async (t) => {
  const a = uniqueId('Ab')
  t.match(a, /^ab_[a-z0-9]+_[0-9a-f]{6}$/)
  t.not(uniqueId('ab'), uniqueId('ab'))
})

t.test('tcpAnswers: a listening port answers, a closed one does not', async (t) => {
  const server = createServer((s) => s.destroy())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  t.equal(await tcpAnswers(`redis://127.0.0.1:${port}`), true)
  await new Promise<void>((resolve) => server.close(() => resolve()))
  t.equal(await tcpAnswers(`redis://127.0.0.1:${port}`), false)
})
