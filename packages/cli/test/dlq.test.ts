import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { createJetStreamBus, newEnvelope } from '@switchboard/events'
import { createRootLogger } from '@switchboard/platform'
import { engineUrls, uniqueId } from '@switchboard/testing'
import t from 'tap'
import { REPO_ROOT } from '../src/fleet.ts'
import { dropNamespace } from '../src/namespace.ts'

const run = promisify(execFile)
const bin = join(REPO_ROOT, 'packages/cli/src/bin.ts')
const engines = engineUrls()
const ns = uniqueId('cli')

function cli(...args: string[]) {
  return run(process.execPath, [bin, ...args, '--nats', engines.natsUrl, '--prefix', ns], {
    env: { ...process.env, LOG_LEVEL: 'warn' },
  })
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const v = await fn()
    if (v !== undefined) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

t.test(
  'dlq list / replay against JetStream: a failed event is listed, then delivered once the consumer works',
  async (t) => {
    const logger = createRootLogger({ level: 'silent' })
    const bus = await createJetStreamBus({ url: engines.natsUrl, prefix: ns, logger })
    t.teardown(async () => {
      await bus.close()
      await dropNamespace(ns, engines)
    })
    await bus.ensureStreams([{ name: 'DEMO', subjects: ['demo.>'] }])
    let broken = true
    const delivered: string[] = []
    await bus.consume(
      { durable: 'demo-consumer', stream: 'DEMO', maxDeliver: 2, backoffMs: [50], ackWaitMs: 2000 },
      async (d) => {
        if (broken) throw new Error('table audit_logs is missing')
        delivered.push(d.envelope.id)
      },
    )
    const ids: string[] = []
    for (const n of [1, 2]) {
      const env = newEnvelope({
        type: 'demo.thing.happened',
        tenant_id: 'acme',
        workspace_id: 'support',
        actor: { user_id: 'u1', kind: 'agent' },
        data: { n },
      })
      ids.push(env.id)
      await bus.publish('demo.thing.happened', env)
    }
    await until('two dead letters', async () => ((await bus.deadLetters()).length === 2 ? true : undefined))

    const listed = JSON.parse((await cli('dlq', 'list', '--json')).stdout) as {
      count: number
      items: Array<{ seq: number; consumer: string; origin_subject: string; error: string; envelope: { id: string } }>
    }
    t.equal(listed.count, 2)
    t.same(
      listed.items.map((i) => i.envelope.id),
      ids,
    )
    t.equal(listed.items[0]!.consumer, 'demo-consumer')
    t.equal(listed.items[0]!.origin_subject, 'demo.thing.happened')
    t.match(listed.items[0]!.error, /audit_logs is missing/)
    t.match((await cli('dlq', 'list')).stdout, /^2 dead letter\(s\)/)

    await t.rejects(cli('dlq', 'replay'), /--all or --seq/, 'replay without a selection refuses')

    broken = false
    const one = await cli('dlq', 'replay', '--seq', String(listed.items[0]!.seq))
    t.match(one.stdout, /replayed 1 dead letter/)
    await until('the first event delivered', async () => (delivered.includes(ids[0]!) ? true : undefined))
    t.equal((await bus.deadLetters()).length, 1, 'the other one is still a dead letter')

    const all = await cli('dlq', 'replay', '--all')
    t.match(all.stdout, /replayed 1 dead letter/)
    await until('the second event delivered', async () => (delivered.includes(ids[1]!) ? true : undefined))
    t.same([...delivered].sort(), [...ids].sort(), 'each delivered once')
    t.equal((await bus.deadLetters()).length, 0)
  },
)
