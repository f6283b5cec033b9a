import t from 'tap'
import { diffSnapshots } from '../../src/domain/diff.ts'

t.test('nested objects give dotted paths; arrays go by index', async (t) => {
  const before = { status: 'open', agent_id: null, tags: ['a', 'b'], custom_fields: { floor: 3, desk: { row: 1 } } }
  const after = { status: 'assigned', agent_id: 'a-1', tags: ['a', 'c', 'd'], custom_fields: { desk: { row: 2 } } }
  const diff = diffSnapshots(before, after)
  t.same(diff.changes, [
    { path: 'agent_id', type: 'updated', before: null, after: 'a-1' },
    { path: 'custom_fields.desk.row', type: 'updated', before: 1, after: 2 },
    { path: 'custom_fields.floor', type: 'removed', before: 3, after: null },
    { path: 'status', type: 'updated', before: 'open', after: 'assigned' },
    { path: 'tags.1', type: 'updated', before: 'b', after: 'c' },
    { path: 'tags.2', type: 'added', before: null, after: 'd' },
  ])
  t.match(diff, {
    has_before: true,
    has_after: true,
    changed: true,
    change_count: 6,
    changed_paths: ['agent_id', 'custom_fields.desk.row', 'custom_fields.floor', 'status', 'tags.1', 'tags.2'],
  })
})

t.test('equal snapshots: nothing changed', async (t) => {
  const snap = { a: [1, { b: 2 }], c: { d: null } }
  t.same(diffSnapshots(snap, structuredClone(snap)), {
    has_before: true,
    has_after: true,
    changed: false,
    change_count: 0,
    changed_paths: [],
    changes: [],
  })
})

t.test('a missing side: create lists fields as added, delete as removed, none is empty', async (t) => {
  const created = diffSnapshots(null, { id: 't1', tags: [] })
  t.match(created, { has_before: false, has_after: true, changed: true, changed_paths: ['id', 'tags'] })
  t.same(created.changes[0], { path: 'id', type: 'added', before: null, after: 't1' })
  const deleted = diffSnapshots({ id: 't1' }, undefined)
  t.match(deleted, { has_before: true, has_after: false, changes: [{ path: 'id', type: 'removed', after: null }] })
  t.match(diffSnapshots(null, null), { has_before: false, has_after: false, changed: false, change_count: 0 })
})

t.test('a change of kind is one update at that path', async (t) => {
  t.same(diffSnapshots({ x: { y: 1 } }, { x: [1] }).changes, [
    { path: 'x', type: 'updated', before: { y: 1 }, after: [1] },
  ])
  t.same(diffSnapshots({ x: 'a' }, { x: { y: 1 } }).changes, [
    { path: 'x', type: 'updated', before: 'a', after: { y: 1 } },
  ])
  t.same(diffSnapshots('a', 'b').changes, [{ path: '', type: 'updated', before: 'a', after: 'b' }])
  t.same(diffSnapshots({ n: 1 }, { n: '1' }).changes, [{ path: 'n', type: 'updated', before: 1, after: '1' }])
})

t.test('a shorter array removes by index; nested arrays of objects', async (t) => {
  t.same(diffSnapshots({ a: [1, 2, 3] }, { a: [1] }).changed_paths, ['a.1', 'a.2'])
  t.same(diffSnapshots({ a: [1, 2, 3] }, { a: [1] }).changes[1], {
    path: 'a.2',
    type: 'removed',
    before: 3,
    after: null,
  })
  t.same(diffSnapshots({ l: [{ k: 1 }, { k: 2 }] }, { l: [{ k: 1 }, { k: 3 }] }).changed_paths, ['l.1.k'])
})
