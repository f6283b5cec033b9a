import t from 'tap'
import { actionFor } from '../src/http/audit.ts'

t.test('audit action names from method and route template (docs/api.md §12)', async (t) => {
  const cases: Array<[string, string, string, string]> = [
    ['POST', '/api/customers', 'customers', 'customers.create'],
    ['POST', '/api/tickets/:id/assign', 'tickets', 'tickets.assign'],
    ['PUT', '/api/agents/:id/status', 'agents', 'agents.status'],
    ['DELETE', '/api/macros/:id', 'macros', 'macros.delete'],
    ['POST', '/api/custom-fields', 'custom_fields', 'custom_fields.create'],
    // `apps/<x>` is the resource `app_<x>`, as the earlier system's records named it
    ['POST', '/api/apps/integrations', 'app_integrations', 'app_integrations.create'],
    ['PUT', '/api/apps/integrations/:id', 'app_integrations', 'app_integrations.update'],
    ['PATCH', '/api/apps/integrations/:id', 'app_integrations', 'app_integrations.update'],
    ['DELETE', '/api/apps/integrations/:id', 'app_integrations', 'app_integrations.delete'],
    // `/api/omni` is the `workspace` resource (its permission); conversation management is workspace.<verb>, never omni.*
    ['POST', '/api/omni/sessions', 'workspace', 'workspace.create'],
    ['POST', '/api/omni/sessions/:id/messages', 'workspace', 'workspace.messages'],
    ['POST', '/api/omni/sessions/:id/assign', 'workspace', 'workspace.assign'],
    ['POST', '/api/omni/sessions/:id/transfer', 'workspace', 'workspace.transfer'],
    ['POST', '/api/omni/sessions/:id/close', 'workspace', 'workspace.close'],
  ]
  for (const [method, route, resource, action] of cases) {
    t.same(actionFor(method, route), { resource, action }, `${method} ${route}`)
  }
})
