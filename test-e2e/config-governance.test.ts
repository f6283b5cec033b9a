// Governed configuration end to end through the gateway, in both run modes (the fleet with two replicas of every
// service): the spec's governance walk by two administrators (medium change verified by the other; high-risk change
// refused without approval and with the executor's own, accepted with the other's; failed verification; rollback
// refused without confirm and without approval, then executed), history filters and counts, secrets never shown
// in any response or audit record; then the effect: session-risk thresholds changed for the tenant and for the
// workspace move the risk_level of the same session on every identity replica within 1 s, the workspace's override
// beating the tenant's and its removal falling back; and the public portal follows its scope.
import { login, register } from './harness/auth.ts'
import { until } from './harness/http.ts'
import { identityActors } from './harness/identity-actors.ts'
import { inEachMode } from './harness/modes.ts'

const SECRET = 'sk-e2e-NEVER-SHOWN-7f3a9c1e55'

inEachMode('config governance', { replicas: 2, gatewayReplicas: 1 }, async (t, system) => {
  const { api, suffix, demo, admin, auditRecord } = await identityActors(system)
  const first = { token: admin.token, headers: demo }
  const pw = `Pw-gov2-${suffix}-0123456789`
  const created = await api.post(
    '/api/security/users',
    { username: `gov2_${suffix}`, email: `gov2_${suffix}@e2e.example.com`, role: 'admin', password: pw },
    first,
  )
  t.equal(created.status, 201, created.text)
  const second = { token: (await login(api, `gov2_${suffix}`, pw)).token, headers: demo }
  const ws = '/api/security/config/workspace'
  const tenant = '/api/security/config/tenant'
  const approve = (base: string, change_ref: string, approval_ref: string) =>
    api.post(`${base}/approve`, { notes: `reviewed ${change_ref}`, change_ref, reason: 'review', approval_ref }, second)
  const passAll = (template: any) => template.checks.map((c: any) => ({ id: c.id, status: 'passed' }))

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
    const update = await auditRecord(t, 'scoped_config.workspace.update', `${system.tenant_id}/${system.workspace_id}`)
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
        first,
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
})
