#!/usr/bin/env bash
# Install Debian's PostgreSQL and Redis (for the queue-mode tests and bench P4) when missing.
# n8n's queue mode needs both; there is no Docker here, so the tests run private instances
# of these binaries on loopback ports (test/queue/lib/services.js).
#
#   bash scripts/install-queue-services.sh   # no-op when both are installed
#
# Needs root (CI runs as root) or passwordless sudo. PostgreSQL refuses to run as root, so
# the tests start it as Debian's `postgres` user, which the package creates.
set -euo pipefail

log() { printf '[install-queue-services] %s\n' "$*" >&2; }

have_postgres() { ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 && id postgres >/dev/null 2>&1; }
have_redis() { command -v redis-server >/dev/null 2>&1; }

if have_postgres && have_redis; then
  # Redis on the real clock: under libfaketime (LBA_CI_CLOCK, .ci/run) it hangs at start.
  log "found $(ls -d /usr/lib/postgresql/*/bin | tail -1) and $(LD_PRELOAD= redis-server --version | cut -d' ' -f1-3)"
  exit 0
fi

bash "$(dirname "$0")/apt-install.sh" postgresql redis-server
if ! have_postgres || ! have_redis; then
  log "apt-get finished but PostgreSQL or Redis is still missing"
  exit 1
fi
