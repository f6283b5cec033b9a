import t from 'tap'
import { statesAfter } from '../../src/webrtc/connections.ts'

const fresh = { connection_state: 'new', ice_connection_state: 'new', ice_gathering_state: 'new' }

t.test('signalling moves a connection forward; reports say more', async (t) => {
  t.same(statesAfter(fresh, 'offer', {}), fresh)
  t.same(statesAfter(fresh, 'answer', {}), {
    ...fresh,
    connection_state: 'connecting',
    ice_connection_state: 'checking',
  })
  t.same(statesAfter(fresh, 'candidate', {}), { ...fresh, ice_gathering_state: 'gathering' })
  const connected = {
    connection_state: 'connected',
    ice_connection_state: 'connected',
    ice_gathering_state: 'complete',
  }
  t.same(statesAfter(connected, 'answer', {}), connected, 'a renegotiation does not move it back')
  t.same(statesAfter(connected, 'candidate', {}), connected)
  t.same(statesAfter(connected, 'stats', { connection_state: 'failed' }), { ...connected, connection_state: 'failed' })
})
