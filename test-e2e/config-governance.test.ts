// Governed configuration end to end through the gateway, in both run modes (the fleet with two replicas of every
// service): the spec's governance walk by two administrators (medium change verified by the other; high-risk change
// refused without approval and with the executor's own, accepted with the other's; failed verification; rollback
// refused without confirm and without approval, then executed), history filters and counts, secrets never shown
// in any response or audit record; then the effect: session-risk thresholds changed for the tenant and for the
// workspace move the risk_level of the same session on every identity replica within 1 s, the workspace's override
// beating the tenant's and its removal falling back; and the public portal follows its scope. Who changes which
// scope: the tenant document only by a token bound to no workspace (the seeded platform admin's unscoped login, a
// tenant administrator's tenant-wide one); an administrator signed in to one workspace reads it but gets 403
// TENANT_ADMIN_REQUIRED on a tenant write (audited as refused), and still governs its workspace.
import { mintServiceToken } from '@switchboard/cli'
import { login, register } from './harness/auth.ts'
import { governanceActors } from './harness/governance-actors.ts'
import { until } from './harness/http.ts'
import { isError } from './harness/identity-kit.ts'
import { inEachMode } from './harness/modes.ts'

const SECRET = 'sk-e2e-NEVER-SHOWN-7f3a9c1e55'

// LLM_MODEL: ai-orchestrator's system layer, which the effective view must show as such (no LLM is called: no base URL)
const SYSTEM_MODEL = 'e2e-system-model'

inEachMode(
  'config governance',
  { replicas: 2, gatewayReplicas: 1, env: { LLM_MODEL: SYSTEM_MODEL } },
  async (t, system) => {
    const cast = await governanceActors(t, system)
    const { api, suffix, demo, admin, auditRecord, first, second, created, service, elsewhere } = cast
    const { firstTenant, secondTenant, ws, tenant, approve, passAll } = cast
    t.test('the governance walk by two administrators', async (t) => {
      const medium = await api.put(
        ws,
        { portal: { brand_name: `Desk ${suffix}` }, change_ref: `M-${suffix}`, reason: 'rebrand' },
        first,
      )
      t.equal(medium.status, 200, medium.text)
      t.match(medium.body, { change_risk: { risk_level: 'medium' }, governance_status: 'awaiting_verification' })
      const self = await api.post(
        `${ws}/verify/${medium.body.audit_id}`,
        {
          change_ref: `M-${suffix}`,
          reason: 'v',
          status: 'passed',
          evidence: ['ok'],
          checks: passAll(medium.body.verification_template),
        },
        first,
      )
      t.equal(self.status, 403, 'the executor does not verify its own change')
      const verified = await api.post(
        `${ws}/verify/${medium.body.audit_id}`,
        {
          change_ref: `M-${suffix}`,
          reason: 'v',
          status: 'passed',
          evidence: ['portal renders'],
          checks: passAll(medium.body.verification_template),
        },
        second,
      )
      t.equal(verified.status, 200, verified.text)
      t.equal(verified.body.source_governance_status, 'verified')

      const key = {
        llm: { base_url: 'https://llm.e2e.example/v1', api_key: SECRET, model: 'm' },
        change_ref: `K-${suffix}`,
        reason: 'new key',
      }
      t.equal((await api.put(ws, key, first)).body.code, 'APPROVAL_REF_REQUIRED')
      t.equal(
        (
          await api.post(
            `${ws}/approve`,
            { notes: 'mine', change_ref: `K-${suffix}`, reason: 'r', approval_ref: `AK-${suffix}` },
            first,
          )
        ).status,
        200,
      )
      const own = await api.put(ws, { ...key, approval_ref: `AK-${suffix}` }, first)
      t.equal(own.status, 403, 'approved by the executor only')
      t.equal((await approve(ws, `K-${suffix}`, `AK-${suffix}`)).status, 200)
      const high = await api.put(ws, { ...key, approval_ref: `AK-${suffix}` }, first)
      t.equal(high.status, 200, high.text)
      t.match(high.body, {
        change_risk: { risk_level: 'high' },
        governance_status: 'awaiting_verification',
        config: { llm: { api_key: '[REDACTED]' } },
      })

      const failed = await api.post(
        `${ws}/verify/${high.body.audit_id}`,
        {
          change_ref: `K-${suffix}`,
          reason: 'v',
          status: 'failed',
          notes: 'provider rejects the key',
          checks: [{ id: 'llm_provider_endpoint_verified', status: 'failed' }],
        },
        second,
      )
      t.equal(failed.status, 200, failed.text)
      t.equal(failed.body.source_governance_status, 'verification_failed')

      const rb = { change_ref: `R-${suffix}`, reason: 'undo the key', restore: 'before' }
      t.equal(
        (await api.post(`${ws}/rollback/${high.body.audit_id}`, rb, first)).body.code,
        'ROLLBACK_CONFIRMATION_REQUIRED',
      )
      t.equal(
        (await api.post(`${ws}/rollback/${high.body.audit_id}?confirm=true`, rb, first)).body.code,
        'APPROVAL_REF_REQUIRED',
      )
      t.equal((await approve(ws, `R-${suffix}`, `AR-${suffix}`)).status, 200)
      const rolled = await api.post(
        `${ws}/rollback/${high.body.audit_id}?confirm=true`,
        { ...rb, approval_ref: `AR-${suffix}` },
        first,
      )
      t.equal(rolled.status, 200, rolled.text)
      t.notOk(rolled.body.config.llm, 'the state before the key is back')
      t.equal(rolled.body.config.portal.brand_name, `Desk ${suffix}`)

      const history = await api.get(`${ws}/history?page_size=200`, first)
      t.equal(history.status, 200, history.text)
      t.ok(history.body.governance_summary.total_items >= 3)
      const failing = await api.get(`${ws}/history?governance_status=verification_failed`, first)
      t.ok(
        failing.body.data.some((i: any) => i.audit.id === high.body.audit_id),
        'the failed change is in the failed filter',
      )
      t.same(failing.body.applied_filters, { governance_status: 'verification_failed' })
      const entry = await api.get(`${ws}/history/${high.body.audit_id}`, first)
      t.equal(entry.status, 200, entry.text)
      for (const text of [
        medium.text,
        high.text,
        rolled.text,
        history.text,
        entry.text,
        (await api.get(ws, first)).text,
      ]) {
        t.notOk(text.includes(SECRET), 'no response shows the secret')
      }
    })

    t.test('every write is an audit record with its snapshots, none holds the secret', async (t) => {
      const update = await auditRecord(
        t,
        'scoped_config.workspace.update',
        `${system.tenant_id}/${system.workspace_id}`,
      )
      t.ok(update.record, 'scoped_config.workspace.update recorded')
      const every = await until('the rollback audit record', async () => {
        const res = await api.get('/api/audit/logs?resource=scoped_config&limit=200', first)
        const actions = new Set((res.body.data as any[]).map((r) => r.action))
        return ['update', 'approve', 'verify', 'rollback'].every((a) => actions.has(`scoped_config.workspace.${a}`))
          ? res
          : undefined
      })
      t.notOk(every.text.includes(SECRET), 'no audit record holds the secret')
      t.notOk(every.text.includes('NEVER-SHOWN'), 'nor a part of it')
    })

    t.test('a workspace-bound administrator reads the tenant document but cannot change it', async (t) => {
      const put = await api.put(
        tenant,
        { portal: { brand_name: `Hijack ${suffix}` }, change_ref: `H-${suffix}`, reason: 'every workspace' },
        second,
      )
      isError(t, put, 403, 'TENANT_ADMIN_REQUIRED', 'a tenant PUT with a workspace-bound token')
      isError(
        t,
        await api.post(
          `${tenant}/approve`,
          { notes: 'mine', change_ref: `H-${suffix}`, reason: 'r', approval_ref: `AH-${suffix}` },
          second,
        ),
        403,
        'TENANT_ADMIN_REQUIRED',
        'a tenant approval with a workspace-bound token',
      )
      const read = await api.get(tenant, second)
      t.equal(read.status, 200, read.text)
      t.equal(read.body.tenant_id, system.tenant_id)
      t.not(read.body.config.portal?.brand_name, `Hijack ${suffix}`, 'the tenant document did not change')
      const refused = await until('the refused tenant write in the audit log', async () => {
        const res = await api.get('/api/audit/logs?action=scoped_config.tenant.update&success=false', first)
        return (res.body.data as any[] | undefined)?.find((r) => r.request_id === put.body.request_id)
      })
      t.match(refused, { status_code: 403, resource_id: system.tenant_id, actor_user_id: created.body.user.id })
      // the same administrator's tenant-wide login may (a medium change: no approval needed)
      const allowed = await api.put(
        tenant,
        { portal: { support_email: `desk-${suffix}@e2e.example.com` }, change_ref: `E-${suffix}`, reason: 'contact' },
        secondTenant,
      )
      t.equal(allowed.status, 200, allowed.text)
    })

    t.test('session-risk thresholds apply live on every identity replica, workspace over tenant', async (t) => {
      // a customer of the demo workspace with three sessions: each non-current one scores at least 2
      const username = `risk_${suffix}`
      const reg = await register(api, username, demo)
      t.equal(reg.status, 201, reg.text)
      await login(api, username, reg.password)
      const current = await login(api, username, reg.password)
      const view = async () => {
        const res = await api.get('/api/v1/auth/sessions', { token: current.token })
        return (res.body.items as any[]).find((s) => !s.is_current)
      }
      const target = await view()
      const score: number = target.risk_score
      t.ok(score >= 2, `a non-current session scores ${score}`)
      const levelOf = async () => (await view()).risk_level as string

      /**
       * ms from the change's answer until the first of 10 consecutive reads (round-robin over both identity replicas
       * in the fleet) that all show `level`
       */
      const settle = async (level: string, since: number) => {
        let streakStart = 0
        let streak = 0
        while (streak < 10) {
          const read = Date.now()
          if ((await levelOf()) === level) {
            if (streak === 0) streakStart = read
            streak++
          } else streak = 0
          if (Date.now() - since > 10_000) throw new Error(`risk_level never settled at ${level}`)
        }
        return streakStart - since
      }
      const change = async (base: string, ref: string, session_risk: object | null) => {
        t.equal((await approve(base, `${ref}-${suffix}`, `A${ref}-${suffix}`)).status, 200)
        const res = await api.put(
          base,
          { session_risk, change_ref: `${ref}-${suffix}`, reason: 'risk policy', approval_ref: `A${ref}-${suffix}` },
          base === tenant ? firstTenant : first,
        )
        t.equal(res.status, 200, res.text)
        return Date.now()
      }

      const tenantMs = await settle('low', await change(tenant, 'T1', { medium_risk_score: 20, high_risk_score: 20 }))
      t.ok(tenantMs <= 1000, `tenant override: low on every replica ${tenantMs} ms after the change`)
      const wsMs = await settle('high', await change(ws, 'W1', { medium_risk_score: 1, high_risk_score: score }))
      t.ok(wsMs <= 1000, `workspace override beats the tenant's: high ${wsMs} ms after the change`)
      const backMs = await settle('low', await change(ws, 'W2', null))
      t.ok(backMs <= 1000, `workspace override removed: back to the tenant's (low) ${backMs} ms after the change`)
      t.comment(`live effect: ${tenantMs} / ${wsMs} / ${backMs} ms`)
    })

    t.test('a proposed high-risk change waits in the approvals list for a second administrator', async (t) => {
      const current = (await api.get(ws, first)).body.config
      const body = {
        llm: { ...current.llm, timeout_ms: 12_345 },
        change_ref: `P-${suffix}`,
        reason: 'slower provider',
      }
      const preview = await api.post(`${ws}/preview`, body, first)
      t.equal(preview.status, 200, preview.text)
      t.match(preview.body, { change_risk: { risk_level: 'high', changed_paths: ['llm.timeout_ms'] } })
      const proposed = await api.post(`${ws}/pending`, body, first)
      t.equal(proposed.status, 201, proposed.text)
      const id = proposed.body.id as string
      t.match(proposed.body, { status: 'pending', actions: { approve: false, withdraw: true } })
      // waiting: every replica answers the old value
      for (let i = 0; i < 4; i++) t.not((await api.get(ws, second)).body.config.llm?.timeout_ms, 12_345, 'not applied')
      const listed = await api.get(`${ws}/pending`, second)
      t.match(
        listed.body.data.find((p: any) => p.id === id),
        { proposer_user_id: admin.user.id, actions: { approve: true } },
      )
      const own = await api.post(`${ws}/pending/${id}/approve`, { notes: 'mine' }, first)
      t.equal(own.status, 403)
      t.equal(own.body.code, 'APPROVAL_SAME_ACTOR')
      // another tenant, and another workspace of this one, answer as for a missing change
      const otherTenant = { token: service, headers: { 'x-tenant-id': `other-${suffix}`, 'x-workspace-id': 'main' } }
      for (const who of [otherTenant, elsewhere]) {
        t.equal((await api.get(`${ws}/pending/${id}`, who)).body.code, 'CONFIG_PENDING_NOT_FOUND')
        t.equal((await api.post(`${ws}/pending/${id}/approve`, { notes: 'x' }, who)).status, 404)
      }
      const approved = await api.post(`${ws}/pending/${id}/approve`, { notes: 'timeout reviewed' }, second)
      t.equal(approved.status, 200, approved.text)
      t.match(approved.body, { pending: { status: 'approved' }, applied: { config: { llm: { timeout_ms: 12_345 } } } })
      t.notOk(approved.text.includes(SECRET), 'the kept key is never shown')
      for (let i = 0; i < 4; i++) t.equal((await api.get(ws, first)).body.config.llm?.timeout_ms, 12_345, 'applied')
      const entry = await api.get(`${ws}/history/${approved.body.applied.audit_id}`, first)
      t.match(entry.body, { audit: { actor_user_id: admin.user.id, change_ref: `P-${suffix}` } })
      t.equal((await api.post(`${ws}/pending/${id}/approve`, { notes: 'again' }, second)).status, 409)
      // audited: the proposal and the approval that ran it
      for (const action of ['propose', 'approve']) {
        const found = await until(`audit ${action} of ${id}`, async () => {
          const res = await api.get(`/api/audit/logs?action=scoped_config.workspace.${action}&limit=200`, first)
          return (res.body.data as any[]).find((r) => JSON.stringify(r.after_json ?? null).includes(id))
        })
        t.equal(found.success, true, `scoped_config.workspace.${action} recorded`)
        t.notOk(JSON.stringify(found).includes(SECRET))
      }
    })

    t.test('the public portal follows its scope', async (t) => {
      const q = `?tenant_id=${system.tenant_id}&workspace_id=${system.workspace_id}`
      const scoped = await until(
        'the portal',
        async () => {
          const res = await api.get(`/public/portal/config${q}`)
          return res.body.brand_name === `Desk ${suffix}` ? res : undefined
        },
        2000,
      )
      t.equal(scoped.status, 200)
      t.notOk(scoped.text.includes(SECRET))
      const system_ = await api.get('/public/portal/config')
      t.equal(system_.status, 200)
      t.not(system_.body.brand_name, `Desk ${suffix}`, 'no scope: the system portal')
    })

    t.test(
      'the effective configuration: every section with its sources, from the services that apply them',
      async (t) => {
        // the workspace's LLM section as stored (its key "[REDACTED]", which keeps it), with one field changed
        const current = await api.get(ws, first)
        const llm = { ...(current.body.config.llm ?? {}), max_tokens: 777 }
        const put = await api.put(ws, { llm, change_ref: `EFF-${suffix}`, reason: 'effective view' }, first)
        t.equal(put.status, 200, put.text)
        type Field = { path: string; value: unknown; source: string; set?: boolean }
        const view = await until(
          'the workspace override in ai-orchestrator',
          async () => {
            const res = await api.get(`${ws}/effective`, second)
            const f = Object.fromEntries((res.body.fields ?? []).map((x: Field) => [x.path, x]))
            return f['llm.max_tokens']?.value === 777 ? { res, f: f as Record<string, Field> } : undefined
          },
          5000,
        )
        t.equal(view.res.status, 200, view.res.text)
        t.same(view.res.body.unavailable, [], 'identity and ai-orchestrator both answered')
        const f = view.f
        t.same(f['llm.max_tokens'], { path: 'llm.max_tokens', value: 777, source: 'workspace' })
        t.same(
          f['llm.model'],
          { path: 'llm.model', value: SYSTEM_MODEL, source: 'system' },
          "ai-orchestrator's LLM_MODEL",
        )
        t.same(f['llm.temperature'], { path: 'llm.temperature', value: 0.7, source: 'default' }, 'the code default')
        t.match(f['llm.api_key'], { value: null, secret: true }, 'a key: only whether one is set')
        t.match(f['portal.brand_name'], { value: `Desk ${suffix}`, source: 'workspace' })
        const risk = Object.values(f).filter((x) => x.path.startsWith('session_risk.'))
        t.equal(risk.length, 10, "identity's session-risk fields")
        t.ok(
          risk.every((x) => ['workspace', 'tenant', 'system', 'default', 'runtime'].includes(x.source)),
          'each with its source',
        )
        t.notOk(view.res.text.includes(SECRET), 'no key in clear')
        const tenantView = await api.get(`${tenant}/effective`, second)
        t.equal(tenantView.status, 200, tenantView.text)
        const tf = Object.fromEntries(tenantView.body.fields.map((x: Field) => [x.path, x]))
        t.not(tf['llm.max_tokens'].source, 'workspace', "the tenant's view has no workspace layer")
        // a caller of another tenant: its own scope only, even naming demo's
        const tenantB = `eff${suffix}`
        const made = await api.post(
          '/api/security/tenants',
          { id: tenantB, workspaces: [{ id: 'support' }] },
          { token: service },
        )
        t.equal(made.status, 201, made.text)
        const { token: tokenB } = await mintServiceToken({
          service: 'e2e-b',
          permissions: ['security.read'],
          env: system.env,
          tenant_id: tenantB,
          workspace_id: 'support',
        })
        for (const headers of [{}, demo]) {
          const theirs = await api.get(`${ws}/effective`, { token: tokenB, headers })
          if (theirs.status !== 200) {
            t.equal(theirs.status, 403, `refused outright: ${theirs.text}`)
            continue
          }
          t.equal(theirs.body.tenant_id, tenantB, "B's own scope")
          const of = Object.fromEntries(theirs.body.fields.map((x: Field) => [x.path, x]))
          t.same(
            of['llm.max_tokens'],
            { path: 'llm.max_tokens', value: 1000, source: 'default' },
            "not demo's override",
          )
          t.notOk(theirs.text.includes(`Desk ${suffix}`), "none of demo's portal")
        }
      },
    )
  },
)
