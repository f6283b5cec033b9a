// The README's screenshots of the agent console (docs/screenshots/*.png), from a seeded embedded run:
//   bash scripts/toolchain.sh env node scripts/screenshots.ts
// CONSOLE_DIR=<a build> uses that build; else apps/console is built first (turbo: cached when unchanged).
// The work is in test-e2e/screenshots/demo.ts, beside the browser tests' harness and its playwright-core.
await import('../test-e2e/screenshots/demo.ts')
