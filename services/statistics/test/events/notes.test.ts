// An internal note (a staff-only message, `visibility: internal`) is staff talking among themselves, not
// conversation traffic: statistics counts no note as a message.
import { ConversationEvents as C } from '@switchboard/contracts'
import { inEachStorageMode } from '@switchboard/testing'
import t from 'tap'
import { CONVERSATIONS_PROJECTION } from '../../src/consumers/conversations.consumer.ts'
import { ACME, applied, as, publish, statisticsApp, supervisor } from '../helpers/app.ts'
import { message } from '../helpers/world.ts'

inEachStorageMode(t, 'notes are not counted as messages', async (t, mode) => {
  const { app, svc } = await statisticsApp(t, mode)
  const now = new Date().toISOString()
  await publish(svc, C.messageCreated, message('s-n', now), ACME)
  const note = { ...message('s-n', now), sender: 'agent', sender_id: 'u-a1', visibility: 'internal' }
  const last = await publish(svc, C.messageCreated, note, ACME)
  await applied(svc, CONVERSATIONS_PROJECTION, last.id)
  const res = await app.inject({ method: 'GET', url: '/api/statistics/dashboard', headers: await as(supervisor()) })
  t.equal(res.statusCode, 200)
  t.equal(res.json().today_messages, 1, 'the customer message only')
})
