#!/usr/bin/env bash
# `npm test`: lint, type check and every test tier (unit, service integration on PostgreSQL/Redis/NATS and on
# SQLite/in-memory, end to end through the gateway in both run modes). Ends with a plain `N passed, N failed`.
# Runs under scripts/toolchain.sh, so node is v24 and pnpm is on PATH.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
mkdir -p .tap
passed=0
failed=0
step() { # name, command...
  local name="$1"; shift
  echo "== $name"
  if "$@"; then passed=$((passed + 1)); echo "ok - $name"; else failed=$((failed + 1)); echo "not ok - $name"; fi
}

# The real engines every integration tier needs. A tier that cannot run says so loudly and counts as failed.
eval "$(node scripts/engines.ts)"
if [ -n "${ENGINES_DOWN:-}" ]; then
  echo "!!!! ENGINES UNREACHABLE: $ENGINES_DOWN — the integration and end-to-end tiers cannot pass without them." >&2
  echo "!!!! Start them (see README, 'Engines') or point DATABASE_URL / REDIS_URL / NATS_URL at running ones." >&2
fi

step "lint (biome)" npx biome check .
step "type check (tsc --noEmit)" npx tsc --noEmit -p .
# The apps' TSX needs its own settings (jsx, lib dom): each app its own tsconfig, checked through turbo (cached).
step "type check console (tsc -p apps/console)" npx turbo run typecheck --filter=@switchboard/console --output-logs=errors-only
step "type check widget (tsc -p apps/widget)" npx turbo run typecheck --filter=@switchboard/widget --output-logs=errors-only
step "dependencies (declared = imported)" node scripts/check-deps.ts
# The end-to-end tiers and the size budget tests use the console's and the widget's builds, as the gateway serves
# them (cached by turbo).
step "build console and widget (vite, turbo)" bash scripts/build-console.sh
# The browser tier drives Debian's Chromium: installed here when missing (root + apt); if it cannot be, this step
# fails loudly and so do the browser tests — never a silent skip.
step "browser (Debian's chromium)" bash scripts/ensure-chromium.sh

# tap rebuilds its plugin set when .taprc changes it; do it before the run so the first run is not the build.
npx tap build >/dev/null 2>&1 || true
mapfile -t files < <(find packages services gateway test-e2e -path '*/node_modules' -prune -o -name '*.test.ts' -print | sort)
if [ "${#files[@]}" -eq 0 ]; then
  echo "no test files found" >&2
  failed=$((failed + 1))
else
  echo "== tap: ${#files[@]} test files"
  npx tap --reporter=tap "${files[@]}" "$@" 2>&1 | tee .tap/output.tap | node scripts/tap-summary.ts
  summary="$(grep -aE '^# \{ total:' .tap/output.tap | tail -1)"
  tap_pass="$(sed -nE 's/.*pass: ([0-9]+).*/\1/p' <<<"$summary")"
  tap_fail="$(sed -nE 's/.*fail: ([0-9]+).*/\1/p' <<<"$summary")"
  if [ -z "$summary" ]; then
    echo "tap printed no summary (crashed?)" >&2
    failed=$((failed + 1))
  fi
  passed=$((passed + ${tap_pass:-0}))
  failed=$((failed + ${tap_fail:-0}))
fi
echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
