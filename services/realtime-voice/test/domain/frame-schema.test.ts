import t from 'tap'
import { parseClientFrame } from '../../src/domain/frame-schema.ts'

t.test('client frames are checked, their data cleaned to the protocol', async (t) => {
  t.same(parseClientFrame('{"type":"text-message","data":"hi","session_id":"s1","timestamp":"whatever"}'), {
    type: 'text-message',
    data: 'hi',
    session_id: 's1',
  })
  t.same(parseClientFrame('{"type":"join","data":{"session_id":"s1","after":"m1","extra":1}}'), {
    type: 'join',
    data: { session_id: 's1', after: 'm1' },
    session_id: undefined,
  })
  t.same(parseClientFrame('{"type":"leave"}'), { type: 'leave', data: {}, session_id: undefined }, 'absent data')
  t.same(parseClientFrame('{"type":"transfer-request"}'), {
    type: 'transfer-request',
    data: null,
    session_id: undefined,
  })
  const candidate = parseClientFrame(
    '{"type":"webrtc-candidate","data":{"candidate":"candidate:1","sdpMid":"0","sdpMLineIndex":0,"secret":"x"}}',
  )
  t.same(candidate, {
    type: 'webrtc-candidate',
    data: { candidate: 'candidate:1', sdpMid: '0', sdpMLineIndex: 0 },
    session_id: undefined,
  })
  const stats = parseClientFrame('{"type":"webrtc-stats","data":{"connection_state":"connected","bytes":9}}')
  t.same(stats, { type: 'webrtc-stats', data: { connection_state: 'connected' }, session_id: undefined })
})

t.test('what is wrong with a frame is said, never thrown', async (t) => {
  t.match(parseClientFrame('{"type":'), { problem: 'malformed' })
  t.match(parseClientFrame('"text"'), { problem: 'malformed' })
  t.match(parseClientFrame('{"type":""}'), { problem: 'malformed' })
  t.match(parseClientFrame('{"type":"join","session_id":5}'), { problem: 'malformed' })
  t.match(parseClientFrame('{"type":"toString"}'), { problem: 'unknown_type', type: 'toString' })
  t.match(parseClientFrame('{"type":"__proto__"}'), { problem: 'unknown_type' })
  t.match(parseClientFrame('{"type":"typing","data":{"state":"maybe"}}'), { problem: 'invalid_data', type: 'typing' })
  t.match(parseClientFrame('{"type":"text-message","data":""}'), { problem: 'invalid_data' })
  t.match(parseClientFrame('{"type":"webrtc-stats","data":{"connection_state":"great"}}'), {
    problem: 'invalid_data',
    message: /connection_state/,
  })
})
