// An integration's settings checked against its `config_schema`, a JSON Schema subset (one flat object of scalar
// settings; its shape is the route's ConfigSchema). Not a JSON Schema engine such as Ajv: an administrator's schema
// stays data here, never compiled into code, and the subset needs only the few rules below. Messages name the setting
// and the rule, never the value (it may be a secret). Pure.
import { isSecretKey } from '@switchboard/platform'
import { type ConfigSchema, MAX_SETTING_LENGTH, type SettingSchema } from '../schemas/integration.schemas.ts'

export type Scalar = string | number | boolean

/** What is wrong, and where under the request body. */
export interface Problem {
  path: string
  message: string
}

/**
 * A secret setting: marked by its schema (`format: "password"` or `"x-secret": true`) or named like a secret (the
 * audit's masking rule: password, secret, token, api_key, …), declared or not. Sealed at rest, never shown.
 */
export function isSecretSetting(key: string, schema: ConfigSchema): boolean {
  const p = schema.properties?.[key]
  return p?.format === 'password' || p?.['x-secret'] === true || isSecretKey(key)
}

const STRING_ONLY = ['minLength', 'maxLength', 'format'] as const
const NUMBER_ONLY = ['minimum', 'maximum'] as const

/** The schema's consistency, beyond its shape: every rule must be one that can hold. */
export function schemaProblem(schema: ConfigSchema): Problem | undefined {
  const props = schema.properties ?? {}
  for (const key of schema.required ?? []) {
    if (!Object.hasOwn(props, key)) {
      return { path: 'config_schema.required', message: `names ${key}, which properties does not declare` }
    }
  }
  for (const [key, p] of Object.entries(props)) {
    const at = `config_schema.properties.${key}`
    const numeric = p.type === 'number' || p.type === 'integer'
    if (p.type !== 'string' && STRING_ONLY.some((k) => p[k] !== undefined)) {
      return { path: at, message: 'minLength, maxLength and format apply to strings only' }
    }
    if (!numeric && NUMBER_ONLY.some((k) => p[k] !== undefined)) {
      return { path: at, message: 'minimum and maximum apply to numbers only' }
    }
    if (
      (p.minLength ?? 0) > (p.maxLength ?? MAX_SETTING_LENGTH) ||
      (p.minimum ?? -Infinity) > (p.maximum ?? Infinity)
    ) {
      return { path: at, message: 'its lower bound is above its upper bound' }
    }
    if (isSecretSetting(key, schema)) {
      if (p.type !== 'string') return { path: at, message: 'a secret setting must be of type string' }
      if (p.enum) return { path: at, message: 'a secret setting has no enum (the schema is shown to every reader)' }
    }
    if (p.enum) {
      if (p.type === 'boolean') return { path: `${at}.enum`, message: 'enum does not apply to booleans' }
      const { enum: values, ...rule } = p
      if (values.some((v) => valueProblem(rule, v))) {
        return { path: `${at}.enum`, message: `every value must be a valid ${p.type}` }
      }
    }
  }
  return undefined
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** Why `value` breaks the setting's rules, or undefined. */
function valueProblem(p: SettingSchema, value: unknown): string | undefined {
  if (p.type === 'boolean') return typeof value === 'boolean' ? undefined : 'must be a boolean'
  if (p.type === 'string') {
    if (typeof value !== 'string') return 'must be a string'
    if (value.length < (p.minLength ?? 0)) return `must be at least ${p.minLength} characters`
    if (value.length > (p.maxLength ?? MAX_SETTING_LENGTH)) {
      return `must be at most ${p.maxLength ?? MAX_SETTING_LENGTH} characters`
    }
    if (p.format === 'uri' && !/^https?:$/.test(URL.parse(value)?.protocol ?? '')) return 'must be an http(s) URL'
    if (p.format === 'email' && !EMAIL.test(value)) return 'must be an email address'
  } else {
    if (typeof value !== 'number' || !Number.isFinite(value)) return `must be a ${p.type}`
    if (p.type === 'integer' && !Number.isInteger(value)) return 'must be an integer'
    if (p.minimum !== undefined && value < p.minimum) return `must be at least ${p.minimum}`
    if (p.maximum !== undefined && value > p.maximum) return `must be at most ${p.maximum}`
  }
  if (p.enum && !p.enum.includes(value)) return `must be one of ${p.enum.join(', ')}`
  return undefined
}

/** An undeclared setting's value, when the schema lets undeclared ones through: any scalar, text bounded. */
function scalarProblem(value: unknown): string | undefined {
  if (typeof value === 'boolean') return undefined
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'must be a finite number'
  if (typeof value !== 'string') return 'must be a string, a number or a boolean'
  return value.length > MAX_SETTING_LENGTH ? `must be at most ${MAX_SETTING_LENGTH} characters` : undefined
}

/** The settings (secrets in clear, in memory only) against the schema: the first problem, or undefined. */
export function configProblem(schema: ConfigSchema, config: Record<string, unknown>): Problem | undefined {
  const props = schema.properties ?? {}
  for (const key of schema.required ?? []) {
    if (config[key] === undefined) return { path: `config.${key}`, message: 'is required by config_schema' }
  }
  for (const [key, value] of Object.entries(config)) {
    const p = Object.hasOwn(props, key) ? props[key] : undefined
    let problem: string | undefined
    if (p) problem = valueProblem(p, value)
    else if (schema.additionalProperties !== true) problem = 'is not declared by config_schema'
    else
      problem =
        scalarProblem(value) ??
        (isSecretKey(key) && typeof value !== 'string' ? 'must be a string (a secret)' : undefined)
    if (problem) return { path: `config.${key}`, message: problem }
  }
  return undefined
}
