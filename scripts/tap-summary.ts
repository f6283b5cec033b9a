// Reads raw TAP on stdin and prints a compact view: one line per test file, with the failing points in full.
import { createInterface } from 'node:readline'

const rl = createInterface({ input: process.stdin })
let block: string[] = []
let depth0Failures = 0
for await (const line of rl) {
  if (/^(ok|not ok) \d+ - /.test(line)) {
    const failed = line.startsWith('not ok')
    if (failed) {
      depth0Failures++
      console.log(block.filter((l) => /not ok|^\s+(---|\.\.\.|[a-z_]+:|-|\s)/.test(l)).join('\n'))
    }
    console.log(line)
    block = []
  } else if (line.startsWith('# {') || line.startsWith('# time=')) {
    console.log(line)
  } else {
    block.push(line)
    if (block.length > 4000) block = block.slice(-2000)
  }
}
if (depth0Failures) console.log(`# ${depth0Failures} test file(s) failed`)
