#!/usr/bin/env bash
# The engine-harness tests on n8n 1.x's engine (issue 14), on the machine's Node (n8n 1.x
# supports Node 20.19 to 24; 20 is its lower end). Installs the engine pinned in
# test/n8n1/engine/package.json into the cache outside the clone (once per version), then
# runs test/n8n1/jest.config.js against it. Build the package first (npm run test:n8n1 does).
# Extra arguments go to jest (e.g. a test path).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
. scripts/use-system-node.sh

start=$(date +%s)
engine="$(LBA_N8N_MANIFEST=test/n8n1/engine/package.json LBA_N8N_PACKAGE=n8n-core LBA_N8N_NODE=system \
  bash scripts/install-n8n.sh | tail -1)"
installed=$(date +%s)

export LBA_N8N1_ENGINE="$engine"
export LBA_RELIABILITY_ARTIFACTS=artifacts/reliability-n8n1
status=0
node node_modules/.bin/jest -c test/n8n1/jest.config.js "$@" || status=$?
end=$(date +%s)
echo "[test:n8n1] n8n-core $(node -p "require('$engine/node_modules/n8n-core/package.json').version") on Node $(node -v):" \
  "install $((installed - start))s, tests $((end - installed))s, total $((end - start))s (exit $status)"
exit "$status"
