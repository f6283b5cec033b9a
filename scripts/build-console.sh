#!/usr/bin/env bash
# Builds the apps the gateway serves — the agent console (apps/console → apps/console/dist, served at /) and the chat
# widget (apps/widget → apps/widget/dist: the loader /widget.js and the frame /widget/) — through turbo's task graph
# (turbo.json), in one run: each cached in .turbo/cache by the hash of its sources, lockfile and config, so an
# unchanged app is restored in milliseconds instead of rebuilt. Used by `npm start`, `npm run fleet`, `npm test` and
# deploy/Dockerfile.
#   build-console.sh [turbo run options...]   e.g. --force to rebuild anyway, --dry=json to see the cache status
# Runs under scripts/toolchain.sh (Node 24 and pnpm on PATH, the workspace installed).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# No telemetry, no remote cache (turbo.json also disables it), no update check: the build stays on this machine.
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1 TURBO_NO_UPDATE_NOTIFIER=1
unset TURBO_TOKEN TURBO_TEAM TURBO_API TURBO_REMOTE_CACHE_SIGNATURE_KEY
# new-only: a cache hit prints one line, a real build its output.
exec "$root/node_modules/.bin/turbo" run build --filter=@switchboard/console --filter=@switchboard/widget --output-logs=new-only --log-prefix=none "$@"
