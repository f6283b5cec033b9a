#!/bin/sh
# Chooses the unit by SWITCHBOARD_UNIT and execs it, so signals reach Node directly (close-with-grace).
# A service is any folder services/<unit> of the unit registry (packages/contracts/src/units.ts).
set -eu
cd /app
unit="${SWITCHBOARD_UNIT:-gateway}"
case "$unit" in
  gateway) exec node gateway/src/main.ts "$@" ;;
  embedded) exec node packages/cli/src/bin.ts start --host "${HOST:-0.0.0.0}" "$@" ;;
  cli) exec node packages/cli/src/bin.ts "$@" ;;
  *[!a-z-]* | "") ;;
  *) [ -f "services/$unit/src/main.ts" ] && exec node "services/$unit/src/main.ts" "$@" ;;
esac
echo "SWITCHBOARD_UNIT=$unit: want gateway, embedded, cli or a service of services/" >&2
exit 64
