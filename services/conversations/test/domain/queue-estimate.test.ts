import t from 'tap'
import {
  assignmentInterval,
  estimatedWaitSeconds,
  priorityRank,
  waitedSeconds,
} from '../../src/domain/queue-estimate.ts'

t.test('priority ranks order the queue', async (t) => {
  t.ok(priorityRank('urgent') > priorityRank('high'))
  t.ok(priorityRank('high') > priorityRank('normal'))
  t.ok(priorityRank('normal') > priorityRank('low'))
  t.equal(priorityRank('whatever'), priorityRank('normal'), 'unknown queues as normal')
})

t.test('the interval: the window over the assignments in it', async (t) => {
  t.equal(assignmentInterval({ count: 0 }), null, 'no assignments: unknown')
  t.equal(assignmentInterval({ count: 6 }), 600, 'six an hour: one every ten minutes')
  t.equal(assignmentInterval({ count: 1 }), 3600)
  t.equal(assignmentInterval({ count: 4 }, 60_000), 15, 'another window')
})

t.test('the estimate is position × interval, null when the rate is unknown', async (t) => {
  t.equal(estimatedWaitSeconds(1, 300), 300)
  t.equal(estimatedWaitSeconds(3, 12.4), 37)
  t.equal(estimatedWaitSeconds(4, null), null)
  t.equal(waitedSeconds('2026-01-01T12:00:00.000Z', '2026-01-01T12:01:30.400Z'), 90)
  t.equal(waitedSeconds('2026-01-01T12:00:01.000Z', '2026-01-01T12:00:00.000Z'), 0)
})
