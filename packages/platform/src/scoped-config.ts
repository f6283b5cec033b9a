// Scoped configuration (docs/architecture.md §6): a service resolves the effective configuration of a scope by
// laying, lowest precedence first, code default ← system config ← tenant override ← workspace override ←
// runtime (environment, start arguments). These two helpers are that resolution; where the stored overrides come
// from (a projection of `config.scope.changed`, say) and how long they are cached is the service's business.

/** Every level optional: what an override layer may hold. Arrays are values, replaced whole. */
export type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> | null | undefined }
    : T

/** A scope's stored overrides: the tenant's own, and one workspace's; absent = nothing overridden there. */
export interface ScopedOverrides<T> {
  tenant?: T | null | undefined
  workspace?: T | null | undefined
}

/** Keys never copied from a layer: overrides may come from outside, and must not reach a prototype. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

/** An object literal or JSON object (not an array, a Date, a class instance, null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

function overlayInto(target: Record<string, unknown>, layer: Record<string, unknown>) {
  for (const [key, value] of Object.entries(layer)) {
    if (value === undefined || value === null || UNSAFE_KEYS.has(key)) continue
    const current = target[key]
    if (isPlainObject(value) && isPlainObject(current)) {
      const merged = { ...current }
      overlayInto(merged, value)
      target[key] = merged
    } else if (isPlainObject(value)) {
      const copy: Record<string, unknown> = {}
      overlayInto(copy, value)
      target[key] = copy
    } else {
      target[key] = Array.isArray(value) ? [...value] : value
    }
  }
}

/**
 * `base` with each layer laid over it, lowest precedence first (the last layer wins). A layer replaces only what
 * it holds: an `undefined` or `null` value, a missing key, and a missing or non-object layer change nothing;
 * nested plain objects merge key by key; arrays and every other value replace whole. Neither `base` nor a layer
 * is modified; the answer shares no object or array with them at the levels it merged.
 */
export function overlay<T extends object>(base: T, ...layers: (DeepPartial<NoInfer<T>> | null | undefined)[]): T {
  const result: Record<string, unknown> = {}
  overlayInto(result, base as Record<string, unknown>)
  for (const layer of layers) if (isPlainObject(layer)) overlayInto(result, layer)
  return result as T
}

/**
 * The stored layers of a scope in overlay order, `[tenant, workspace]` (the workspace's beats the tenant's), an
 * absent one as `undefined`: `overlay(system, ...scopeLayers(stored), runtime)` is the effective configuration.
 */
export function scopeLayers<T>(stored: ScopedOverrides<T> | null | undefined): [T | undefined, T | undefined] {
  return [stored?.tenant ?? undefined, stored?.workspace ?? undefined]
}
