#!/bin/sh
# Chooses the unit by SWITCHBOARD_UNIT and execs it, so signals reach Node directly (close-with-grace).
set -eu
cd /app
unit="${SWITCHBOARD_UNIT:-gateway}"
case "$unit" in
  gateway) exec node gateway/src/main.ts "$@" ;;
  identity | tickets | audit) exec node "services/$unit/src/main.ts" "$@" ;;
  embedded) exec node packages/cli/src/bin.ts start --host "${HOST:-0.0.0.0}" "$@" ;;
  cli) exec node packages/cli/src/bin.ts "$@" ;;
  *) echo "SWITCHBOARD_UNIT=$unit: want gateway, identity, tickets, audit, embedded or cli" >&2; exit 64 ;;
esac
