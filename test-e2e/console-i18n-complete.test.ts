// Every string the console shows in English has its Simplified Chinese: for each messages file of apps/console
// (features/*/messages.ts, nav-messages.ts, lib), the keys of its `'zh-CN'` block are those of its `en` block (an
// English `.one` plural form needs no twin: Chinese has one form). Read as text: the files import React's i18n module,
// which Node does not load.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'

const SRC = join(import.meta.dirname, '../apps/console/src')

function messageFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return messageFiles(path)
    return /messages\.ts$/.test(e.name) ? [path] : []
  })
}

/** The keys of the object literal that follows `label:` (its own level only). */
function keysOf(text: string, label: RegExp): Set<string> | undefined {
  const at = text.search(label)
  if (at < 0) return undefined
  let i = text.indexOf('{', at)
  const start = i
  let depth = 0
  for (; i < text.length; i++) {
    if (text[i] === '{') depth++
    else if (text[i] === '}' && --depth === 0) break
  }
  const body = text.slice(start + 1, i)
  return new Set([...body.matchAll(/'([\w.-]+)'\s*:/g)].map((m) => m[1]!))
}

const files = messageFiles(SRC).filter((f) => readFileSync(f, 'utf8').includes('defineMessages('))
t.ok(files.length >= 20, `${files.length} message files`)
for (const file of files) {
  const text = readFileSync(file, 'utf8')
  const en = keysOf(text, /\ben:\s*\{/)
  const zh = keysOf(text, /'zh-CN':\s*\{/)
  const name = file.slice(SRC.length + 1)
  t.ok(en && en.size > 0, `${name}: English strings`)
  t.ok(zh, `${name}: a Simplified Chinese block`)
  const missing = [...(en ?? [])].filter((k) => !k.endsWith('.one') && !zh?.has(k))
  t.same(missing, [], `${name}: every English key has its Chinese (${en?.size ?? 0})`)
  const stray = [...(zh ?? [])].filter((k) => !en?.has(k))
  t.same(stray, [], `${name}: no Chinese key without its English`)
}
