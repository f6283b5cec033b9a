import t from 'tap'
import { SeqWindow } from '../../src/domain/seq-window.ts'

t.test('a resume window: what lies at or below the floor was sent', async (t) => {
  const w = new SeqWindow(4)
  t.notOk(w.offer(3), 'before the resume point')
  t.notOk(w.offer(4), 'the last of the history')
  t.ok(w.offer(5))
  t.notOk(w.offer(5), 'a redelivery')
  t.equal(w.floor, 5)
})

t.test('out of order: a late seq is sent once, and the floor closes over it', async (t) => {
  const w = new SeqWindow(0)
  t.ok(w.offer(2), 'early')
  t.equal(w.floor, 0)
  t.ok(w.offer(1), 'the late one is not lost')
  t.equal(w.floor, 2)
  t.notOk(w.offer(2))
  t.ok(w.has(1) && w.has(2) && !w.has(3))
})

t.test('a window without a floor starts at its first seq', async (t) => {
  const w = new SeqWindow()
  t.notOk(w.has(10))
  t.ok(w.offer(10))
  t.notOk(w.offer(10))
  t.notOk(w.offer(9), "before it: not this socket's")
  t.ok(w.offer(11))
  t.equal(w.floor, 11)
})

t.test('a gap that never fills is given up past the bound', async (t) => {
  const w = new SeqWindow(0, 3)
  for (const seq of [2, 3, 4, 5]) t.ok(w.offer(seq))
  t.equal(w.floor, 5, 'seq 1 given up: the floor jumps over it')
  t.notOk(w.offer(1))
  t.ok(w.offer(6))
})

t.test('sent: only what went through the window, not what lies below where it started', async (t) => {
  const following = new SeqWindow()
  following.offer(10)
  t.ok(following.sent(10), 'sent live')
  t.notOk(following.sent(9), "below its first seq: never this socket's")
  t.ok(following.has(9), 'though taken as had')
  t.notOk(following.sent(11))
  const resumed = new SeqWindow(4)
  t.notOk(resumed.sent(4), 'the resume point is the client’s, not sent here')
  resumed.offer(6)
  t.ok(resumed.sent(6))
  t.notOk(resumed.sent(5), 'the gap below it')
})
