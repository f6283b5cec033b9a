// The README's screenshots of the chat widget (docs/screenshots/widget-*.png), the demo shop at /demo with the widget
// open on a desktop and on a phone, from a seeded embedded run:
//   bash scripts/toolchain.sh env node scripts/widget-screenshots.ts
// WIDGET_DIR=<a build> uses that build; else the apps are built first (turbo: cached when unchanged).
// The work is in test-e2e/screenshots/widget.ts, beside the browser tests' harness and its playwright-core.
await import('../test-e2e/screenshots/widget.ts')
