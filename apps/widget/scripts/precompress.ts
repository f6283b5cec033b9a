// After both builds (loader and frame): a .br and a .gz beside each text file of dist/, which the gateway serves
// (@fastify/static preCompressed) to a browser that accepts them — compressed once at build time at the best levels,
// never per request. A file that does not shrink gets none. (The same step as apps/console/scripts/precompress.ts.)
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const TEXT = /\.(html|js|mjs|css|svg|json|txt|webmanifest)$/
const dir = process.argv[2] ?? 'dist'

function* files(path: string): Generator<string> {
  for (const name of readdirSync(path)) {
    const full = join(path, name)
    if (statSync(full).isDirectory()) yield* files(full)
    else if (TEXT.test(name)) yield full
  }
}

let written = 0
for (const file of files(dir)) {
  const raw = readFileSync(file)
  const variants = {
    br: brotliCompressSync(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    }),
    gz: gzipSync(raw, { level: 9 }),
  }
  for (const [ext, bytes] of Object.entries(variants)) {
    if (bytes.length >= raw.length) continue
    writeFileSync(`${file}.${ext}`, bytes)
    written++
  }
}
console.log(`precompress: ${written} .br/.gz files in ${dir}`)
