import { AsyncLocalStorage } from 'node:async_hooks'
import type { Scope } from '@switchboard/platform'
import t from 'tap'
import { createQueueKicks, type QueuePass } from '../../src/commands/queue-kicks.ts'

// The kick machinery on its own, with a stand-in pass: where passes run, that a kick is never lost, and close.

const SCOPE: Scope = { tenant_id: 'acme', workspace_id: 'support' }
const quiet = { warn: () => {} }

t.test('passes and their conditions run outside the context of the request that kicked them', async (t) => {
  const request = new AsyncLocalStorage<string>()
  const seen: Array<string | undefined> = []
  const kicks = createQueueKicks(async () => {
    seen.push(request.getStore())
  }, quiet)
  request.run('POST /api/omni/sessions/:id/close', () => {
    kicks.kick(SCOPE)
    kicks.kick({ tenant_id: 'acme', workspace_id: 'other' }, async () => {
      seen.push(request.getStore())
      return true
    })
  })
  await kicks.settled()
  t.same(seen, [undefined, undefined, undefined], 'no request store in the passes or the condition')
})

t.test('a kick arriving just as a pass loop ends starts another pass', async (t) => {
  // A kick lands k microtasks after the first pass finished, for every k across the loop's ending: each must
  // be served by a pass that starts after it (none may fall between the loop's last look and its cleanup).
  for (let k = 0; k <= 24; k++) {
    let passes = 0
    let late: Promise<void> | undefined
    const kicks = createQueueKicks(async () => {
      passes++
      if (passes === 1) {
        late = (async () => {
          for (let i = 0; i < k; i++) await null
          kicks.kick(SCOPE)
        })()
      }
    }, quiet)
    kicks.kick(SCOPE)
    await kicks.settled()
    await late
    await kicks.settled()
    t.equal(passes, 2, `a kick ${k} microtasks after the pass is served`)
  }
})

t.test('kicks during a pass cost one more pass, not one each', async (t) => {
  let passes = 0
  const kicks = createQueueKicks(async () => {
    passes++
    if (passes === 1) for (let i = 0; i < 5; i++) kicks.kick(SCOPE)
  }, quiet)
  kicks.kick(SCOPE)
  await kicks.settled()
  t.equal(passes, 2)
})

t.test('close stops the running pass, waits for it, and takes no more kicks', async (t) => {
  let finished = false
  let passes = 0
  const pass: QueuePass = async (_scope, signal) => {
    passes++
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
    // a pass stops between records: something still to do after the abort, awaited by close
    await new Promise((r) => setTimeout(r, 30))
    finished = true
  }
  let conditionSawAbort = false
  const kicks = createQueueKicks(pass, quiet)
  kicks.kick(SCOPE)
  kicks.kick({ tenant_id: 'acme', workspace_id: 'other' }, async (signal) => {
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
    conditionSawAbort = true
    return true
  })
  await new Promise((r) => setTimeout(r, 20))
  t.equal(passes, 1, 'the pass is running')
  await kicks.close()
  t.ok(finished, 'close waited for the running pass')
  t.ok(conditionSawAbort, 'a waiting condition is told to give up')
  kicks.kick(SCOPE)
  await kicks.settled()
  t.equal(passes, 1, 'no pass after close, not even for the condition that answered true')
})

t.test('a failing pass is logged, never thrown, and the next kick runs again', async (t) => {
  const warned: unknown[] = []
  let passes = 0
  const kicks = createQueueKicks(
    async () => {
      passes++
      throw new Error('database away')
    },
    { warn: (...args: unknown[]) => warned.push(args) },
  )
  kicks.kick(SCOPE)
  await kicks.settled()
  kicks.kick(SCOPE)
  await kicks.settled()
  t.equal(passes, 2)
  t.equal(warned.length, 2)
})
