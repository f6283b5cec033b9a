// The console's resume point (packages/contracts/src/hub-resume.ts, kept per joined conversation by the console's lib/hub.ts and the widget's chat store): after a reconnect it rejoins each conversation with
// `after` = the newest message it holds with no gap before it, so a frame still on its way when the socket dropped
// (frames can arrive out of order: two replicas publish one session's events) is sent again, not lost.
import t from 'tap'
import { GAP_GIVE_UP_MS, ResumePoint } from '../packages/contracts/src/hub-resume.ts'

t.test('the resume point moves only over messages held without a gap', async (t) => {
  const point = new ResumePoint('m0')
  t.equal(point.after, 'm0', 'the history the view fetched first')
  point.note('m5', 5, 1_000)
  t.equal(point.after, 'm5', 'the first frame after the join')
  point.note('m7', 7, 1_100)
  t.equal(point.after, 'm5', 'seq 6 not held yet: resuming after 7 would lose it')
  point.note('m6', 6, 1_200)
  t.equal(point.after, 'm7', 'the late one closes the gap')
  point.note('m6', 6, 1_300)
  point.note('m4', 4, 1_300)
  t.equal(point.after, 'm7', 'a copy or an older one moves nothing')
  point.note('m9', 9, 2_000)
  point.note('m10', 10, 2_100)
  t.equal(point.after, 'm7', 'held past a gap')
  point.note('m11', 11, 2_000 + GAP_GIVE_UP_MS - 1)
  t.equal(point.after, 'm7', 'the gap may still fill')
  point.note('m12', 12, 2_000 + GAP_GIVE_UP_MS)
  t.equal(point.after, 'm12', 'a gap open that long is never sent to this console: passed over')
})

t.test('joined without history: the hub default until the first frame', async (t) => {
  const point = new ResumePoint(null)
  t.equal(point.after, null)
  point.note('m3', 3, 0)
  t.equal(point.after, 'm3')
})
