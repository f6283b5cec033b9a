// Offline validation of Kubernetes objects against the API's OpenAPI schemas, as compiled validators shipped by the
// kubernetes-models package (no cluster, no download). The schemas allow unknown fields (the API server prunes or,
// with `kubectl --validate=strict`, refuses them), so a misspelt field would pass: the object is handed to the
// validator behind proxies that record which fields it looked at. A compiled validator reads every property its
// schema names and enumerates the keys of maps (labels, data, resources), so a key it neither read nor enumerated is
// one the schema does not know — what strict validation refuses.

import { validate as deployment } from 'kubernetes-models/_schemas/IoK8sApiAppsV1Deployment'
import { validate as hpa } from 'kubernetes-models/_schemas/IoK8sApiAutoscalingV2HorizontalPodAutoscaler'
import { validate as configMap } from 'kubernetes-models/_schemas/IoK8sApiCoreV1ConfigMap'
import { validate as namespace } from 'kubernetes-models/_schemas/IoK8sApiCoreV1Namespace'
import { validate as service } from 'kubernetes-models/_schemas/IoK8sApiCoreV1Service'
import { validate as networkPolicy } from 'kubernetes-models/_schemas/IoK8sApiNetworkingV1NetworkPolicy'
import { validate as pdb } from 'kubernetes-models/_schemas/IoK8sApiPolicyV1PodDisruptionBudget'

interface SchemaError {
  instancePath: string
  keyword: string
  params: unknown
}
type Validator = ((data: unknown) => boolean) & { errors?: SchemaError[] | null }

const VALIDATORS: Record<string, Validator> = {
  'apps/v1 Deployment': deployment as Validator,
  'v1 Service': service as Validator,
  'v1 ConfigMap': configMap as Validator,
  'v1 Namespace': namespace as Validator,
  'autoscaling/v2 HorizontalPodAutoscaler': hpa as Validator,
  'policy/v1 PodDisruptionBudget': pdb as Validator,
  'networking.k8s.io/v1 NetworkPolicy': networkPolicy as Validator,
}

interface Seen {
  read: Set<string>
  enumerated: boolean
  value: object
}

/** `value` behind proxies (every object and array in it) that record, per path, what the validator touched. */
function watched(value: unknown, path: string, book: Map<string, Seen>): unknown {
  if (value === null || typeof value !== 'object') return value
  const seen: Seen = { read: new Set(), enumerated: false, value }
  book.set(path, seen)
  const children = new Map<PropertyKey, unknown>()
  return new Proxy(value, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver)
      if (typeof key !== 'string' || !Object.hasOwn(target, key)) return v
      seen.read.add(key)
      if (!children.has(key)) children.set(key, watched(v, `${path}/${key}`, book))
      return children.get(key)
    },
    has(target, key) {
      if (typeof key === 'string') seen.read.add(key)
      return Reflect.has(target, key)
    },
    ownKeys(target) {
      seen.enumerated = true
      return Reflect.ownKeys(target)
    },
  })
}

/** Problems of one object: the schema's errors, and fields the schema does not define. [] when it is valid. */
export function schemaProblems(doc: { apiVersion?: string; kind?: string }): string[] {
  const validate = VALIDATORS[`${doc.apiVersion} ${doc.kind}`]
  if (!validate) return [`no schema here for ${doc.apiVersion} ${doc.kind}`]
  const book = new Map<string, Seen>()
  const ok = validate(watched(doc, '', book))
  const problems = ok
    ? []
    : (validate.errors ?? []).map((e) => `${e.instancePath || '/'}: ${e.keyword} ${JSON.stringify(e.params)}`)
  for (const [path, seen] of book) {
    if (seen.enumerated || Array.isArray(seen.value)) continue
    for (const key of Object.keys(seen.value))
      if (!seen.read.has(key)) problems.push(`${path}/${key}: not a field of the schema`)
  }
  return problems
}
