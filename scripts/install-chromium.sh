#!/usr/bin/env bash
# Install Debian's Chromium headless shell (driven by playwright-core in the browser e2e) when
# it is missing. `npx playwright install` cannot download browsers here; Debian's can. The
# headless shell is the build Playwright itself uses for headless runs: the same Blink and V8
# as Chromium without the desktop browser around them (about a fifth less CPU per editor session,
# measured in docs/development.md).
#
#   bash scripts/install-chromium.sh      # no-op if /usr/bin/chromium-headless-shell exists
#
# Needs root (CI runs as root) or passwordless sudo.
set -euo pipefail

CHROMIUM="${LBA_CHROMIUM:-/usr/bin/chromium-headless-shell}"
log() { printf '[install-chromium] %s\n' "$*" >&2; }

if [ -x "$CHROMIUM" ]; then
  log "found $CHROMIUM ($("$CHROMIUM" --version 2>/dev/null || echo 'version unknown'))"
  exit 0
fi

bash "$(dirname "$0")/apt-install.sh" chromium-headless-shell fonts-liberation
if [ ! -x "$CHROMIUM" ]; then
  log "apt-get finished but $CHROMIUM is missing"
  exit 1
fi
log "installed $("$CHROMIUM" --version 2>/dev/null)"
