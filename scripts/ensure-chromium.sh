#!/usr/bin/env bash
# The browser tier (test-e2e/browser/) drives Debian's Chromium through playwright-core: a test tool's own browser
# download cannot work on these machines. Installs the `chromium` package when the browser is missing (root, or
# sudo without a password: apt-get update && apt-get install -y chromium), then checks that it starts.
# When it cannot, it says so loudly and exits 1: the browser tests then fail, they are never skipped.
#   CHROMIUM_PATH   the browser to check (default /usr/bin/chromium, where the browser tests look)
#   CHROMIUM_APT    the package installer, for tests of this script (default apt-get, as root)
set -uo pipefail
browser="${CHROMIUM_PATH:-/usr/bin/chromium}"

loud() {
  echo "!!!! CHROMIUM UNAVAILABLE: $*" >&2
  echo "!!!! The browser tests (test-e2e/browser/) need Debian's Chromium at $browser; they will FAIL, not skip." >&2
  echo "!!!! Install it as root:  apt-get update && apt-get install -y chromium" >&2
  exit 1
}

works() { [ -x "$browser" ] && "$browser" --headless --no-sandbox --version >/dev/null 2>&1; }

if ! works; then
  if [ -n "${CHROMIUM_APT:-}" ]; then
    apt=("$CHROMIUM_APT")
  elif ! command -v apt-get >/dev/null 2>&1; then
    loud "$browser is missing and this machine has no apt-get (not Debian/Ubuntu)"
  elif [ "$(id -u)" -eq 0 ]; then
    apt=(apt-get)
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    apt=(sudo -n apt-get)
  else
    loud "$browser is missing and installing it needs root (or sudo without a password)"
  fi
  echo "chromium: $browser is missing; installing Debian's chromium package" >&2
  export DEBIAN_FRONTEND=noninteractive
  "${apt[@]}" update >&2 || loud "'${apt[*]} update' failed"
  "${apt[@]}" install -y --no-install-recommends chromium >&2 || loud "'${apt[*]} install -y chromium' failed"
  works || loud "the chromium package is installed but $browser does not start"
fi
echo "chromium: $("$browser" --headless --no-sandbox --version 2>/dev/null | head -1) at $browser"
