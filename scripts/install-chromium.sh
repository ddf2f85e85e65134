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
if [ -n "${LBA_CHROMIUM:-}" ]; then
  log "LBA_CHROMIUM=$LBA_CHROMIUM is not an executable"
  exit 1
fi

# Debian's full Chromium when the headless shell is not in this machine's apt sources (it came to
# Debian 12 with Chromium 150): lib/browser.js uses /usr/bin/chromium when the shell is missing.
if ! bash "$(dirname "$0")/apt-install.sh" chromium-headless-shell fonts-liberation; then
  log "no chromium-headless-shell from apt: installing Debian's chromium instead"
  bash "$(dirname "$0")/apt-install.sh" chromium fonts-liberation
  CHROMIUM=/usr/bin/chromium
fi
if [ ! -x "$CHROMIUM" ]; then
  log "apt-get finished but $CHROMIUM is missing"
  exit 1
fi
log "installed $("$CHROMIUM" --version 2>/dev/null)"
