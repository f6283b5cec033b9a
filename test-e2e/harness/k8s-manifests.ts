// The manifests tests' shared reading of k8s/ and deploy/: documents of a file, the base with each document's file,
// an overlay built by kustomize, and which services each service calls according to its code.
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { GATEWAY, REPO_ROOT, SERVICES, upstreamEnvOf } from '@switchboard/cli'
import { parseAllDocuments } from 'yaml'

export const k8s = join(REPO_ROOT, 'k8s')
export const deploy = join(REPO_ROOT, 'deploy')
// every built unit of the registry (packages/contracts/src/units.ts): a new service fails here until deployed
export const units = [GATEWAY, ...SERVICES]

export function docs(file: string): any[] {
  const parsed = parseAllDocuments(readFileSync(file, 'utf8'))
  for (const d of parsed) if (d.errors.length) throw new Error(`${file}: ${d.errors[0]!.message}`)
  return parsed.map((d) => d.toJS()).filter(Boolean)
}

export function container(dep: any) {
  return dep.spec.template.spec.containers[0]
}

/** The base's documents, each with the file it came from. */
export function baseDocs(): any[] {
  return readdirSync(join(k8s, 'base'))
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) => docs(join(k8s, 'base', f)).map((d) => ({ ...d, file: f })))
}

/** An overlay built by kustomize, or undefined without kubectl. */
export function overlay(name: string): any[] | undefined {
  try {
    const out = execFileSync('kubectl', ['kustomize', join(k8s, 'overlays', name)], { encoding: 'utf8' })
    return parseAllDocuments(out)
      .map((d) => d.toJS())
      .filter(Boolean)
  } catch {
    return undefined
  }
}

const MEBI: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30 }
/** A memory quantity (`192Mi`) in bytes. */
export const bytes = (q: string) => Number.parseFloat(q) * (MEBI[/[KMG]i$/.exec(q)?.[0] ?? ''] ?? 1)

/** Which services a service calls: the UPSTREAM_<SERVICE> its config.ts documents reading (the code's own list). */
export function callsOf(service: string): string[] {
  const config = readFileSync(join(REPO_ROOT, 'services', service, 'src', 'config.ts'), 'utf8')
  const names = new Set([...config.matchAll(/\bUPSTREAM_([A-Z_]+)\b/g)].map((m) => m[1]))
  return SERVICES.filter((s) => names.has(upstreamEnvOf(s.name).slice('UPSTREAM_'.length))).map((s) => s.name)
}
