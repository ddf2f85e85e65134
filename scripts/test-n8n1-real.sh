#!/usr/bin/env bash
# Real n8n 1.x (issue 14) on the machine's Node: installs the n8n pinned in
# test/n8n1/real/package.json into the cache outside the clone (about 5-10 minutes the first
# time), then runs test/n8n1/real-n8n.e2e.test.ts against it. On Node 20 n8n 1.x's VM
# expression engine has no isolated-vm build, so the legacy engine is used.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
. scripts/use-system-node.sh

start=$(date +%s)
export LBA_N8N_BIN="$(LBA_N8N_MANIFEST=test/n8n1/real/package.json LBA_N8N_NODE=system bash scripts/install-n8n.sh | tail -1)"
installed=$(date +%s)
export LBA_E2E_NODE=system
status=0
node node_modules/.bin/jest -c test/n8n1/real.jest.config.js "$@" || status=$?
end=$(date +%s)
echo "[test:n8n1-real] n8n $("$LBA_N8N_BIN" --version 2>/dev/null | tail -1) on Node $(node -v):" \
  "install $((installed - start))s, tests $((end - installed))s, total $((end - start))s (exit $status)"
exit "$status"
