#!/usr/bin/env bash
# Provisions Node 24 and pnpm from the npm registry when the machine's Node is older, installs the
# workspace, then runs what was asked:  run <start|fleet|bench|cli> [args...]  |  test
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
tools="$root/.tools"
want_node=24
want_pnpm=10.34.9

node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(node_major node)" -lt "$want_node" ]; then
  if [ ! -x "$tools/node_modules/.bin/node" ] || [ "$(node_major "$tools/node_modules/.bin/node")" -ne "$want_node" ]; then
    echo "toolchain: Node $(node -v 2>/dev/null || echo none) found; provisioning Node $want_node and pnpm from the npm registry into .tools/" >&2
    npm install --prefix "$tools" --no-save --no-audit --no-fund --loglevel=error "node@$want_node" "pnpm@$want_pnpm" >&2
  fi
  export PATH="$tools/node_modules/.bin:$PATH"
fi
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm -v 2>/dev/null)" != "$want_pnpm" ]; then
  if [ ! -x "$tools/node_modules/.bin/pnpm" ]; then
    npm install --prefix "$tools" --no-save --no-audit --no-fund --loglevel=error "pnpm@$want_pnpm" >&2
  fi
  export PATH="$tools/node_modules/.bin:$PATH"
fi
# Native addons are avoided on purpose (node:sqlite, napi prebuilds), so the machine's nodedir setting is moot.
unset npm_config_nodedir
export COREPACK_ENABLE_STRICT=0
# turbo (the task graph of turbo.json) sends nothing anywhere: no telemetry, no update check, no remote cache.
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1 TURBO_NO_UPDATE_NOTIFIER=1
# Node keeps the compiled code (and its type stripping of our .ts) of every module it loads here, checked against
# the source: a unit, a test file or a fleet's nine processes start on cached code (a fleet's start: 36 → 22 s of CPU).
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$root/node_modules/.cache/node-compile}"

stamp="$root/node_modules/.install-stamp"
if [ ! -f "$stamp" ] || [ pnpm-lock.yaml -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
  if [ -f pnpm-lock.yaml ] && [ -n "${CI:-}" ]; then
    pnpm install --frozen-lockfile --reporter=append-only >&2
  else
    pnpm install --reporter=append-only >&2
  fi
  touch "$stamp"
fi

cmd="${1:-}"; shift || true
case "$cmd" in
  test) exec bash "$root/scripts/test.sh" "$@" ;;
  run)
    what="${1:-}"; shift || true
    # The gateway serves the agent console's build at / and the widget's at /widget.js, /widget/: built first, through
    # turbo (a cache hit when unchanged).
    case "$what" in start|fleet|bench) bash "$root/scripts/build-console.sh" >&2 ;; esac
    case "$what" in
      start) exec node packages/cli/src/bin.ts start "$@" ;;
      fleet) exec node packages/cli/src/bin.ts fleet "$@" ;;
      bench) exec node test-e2e/bench/run.ts "$@" ;;
      cli) exec node packages/cli/src/bin.ts "$@" ;;
      *) echo "usage: toolchain.sh run <start|fleet|bench|cli>" >&2; exit 2 ;;
    esac ;;
  env) exec "$@" ;;
  *) echo "usage: toolchain.sh <run|test|env>" >&2; exit 2 ;;
esac
