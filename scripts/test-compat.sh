#!/usr/bin/env bash
# Compatibility run against any n8n release, in one command:
#
#   npm run test:compat -- 2.41.1        # or LBA_N8N_VERSION=2.41.1 npm run test:compat
#   npm run test:compat -- "$(npm view n8n version)"   # n8n's current latest
#
# 1. Installs that n8n into the cache (scripts/install-n8n.sh, same recipe as the pinned one:
#    n8n-versions.json's overrides; about 4 minutes the first time). When the registry lacks
#    one of its dependencies it stops here with one sentence naming it, caches nothing, and
#    the run is recorded as "not installable".
# 2. Runs the real-n8n suites that matter to a user on that n8n (SUITES below) with the packed
#    package, the sandbox and Chromium; artifacts go to artifacts/compat/n8n-<version>/.
# 3. Prints one line per suite with the n8n version, writes artifacts/compat/n8n-<version>.md
#    and updates that version's row in docs/compatibility.md and the README.
# Extra arguments after the version go to jest (e.g. -t 'Retry').
# Not in .ci/run (CI keeps test:e2e on n8n-versions.json's "ci"); weekly against n8n's latest
# in .github/workflows/compat.yml.
set -euo pipefail

# Everything is in main() so bash has parsed the whole script before running it (editing or
# pulling this file during a long run cannot break the running one).
main() {
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

log() { printf '[test:compat] %s\n' "$*" >&2; }

version="${1:-${LBA_N8N_VERSION:-}}"
[ $# -gt 0 ] && shift
if [ -z "$version" ]; then
  log "usage: npm run test:compat -- <n8n version>   (e.g. 2.41.1; n8n-versions.json lists the ones we test)"
  exit 1
fi

# The suites a user on that n8n relies on: label|file.
SUITES=(
  "examples|test/e2e/lba-ads-examples.e2e.test.ts"
  "package loads and runs|test/e2e/lba-ads-load.e2e.test.ts"
  "duplicate protection (Retry, re-run)|test/e2e/duplicate-protection.e2e.test.ts"
  "AI agent tool|test/e2e/ai-agent.e2e.test.ts"
  "trigger|test/e2e/lba-ads-trigger.e2e.test.ts"
  "dry run|test/e2e/dry-run.e2e.test.ts"
  "community-package installer|test/e2e/community-install.e2e.test.ts"
)

out_dir="$root/artifacts/compat"
mkdir -p "$out_dir"
work="$(mktemp -d "${TMPDIR:-/tmp}/lba-compat-XXXXXX")"
trap 'rm -rf "$work"' EXIT
start=$(date +%s)

report() { # report <jest json or ""> <install note>
  node scripts/compat-report.js --version "$version" --json "$1" --note "$2" \
    --seconds "$(( $(date +%s) - start ))" --suites "$(printf '%s\n' "${SUITES[@]}")"
}

# 1. n8n into the cache. stdout (the bin path) to a file, stderr (progress) to the terminal and a log.
log "n8n $version: installing into the cache (instant when cached)..."
set +e
LBA_N8N_VERSION="$version" bash scripts/install-n8n.sh 2>&1 >"$work/install.out" | tee "$work/install.err" >&2
install_rc=${PIPESTATUS[0]}
set -e
if [ "$install_rc" -ne 0 ]; then
  reason="$(sed -n 's/^\[install-n8n\] \(.* cannot be installed: .*\)$/\1/p' "$work/install.err" | tail -1)"
  [ -n "$reason" ] || reason="n8n $version failed to install (exit $install_rc; see the install log)"
  report "" "$reason" || true
  exit "$install_rc"
fi
bin="$(tail -1 "$work/install.out")"
running="$(N8N_USER_FOLDER="$work/n8n-version" bash scripts/with-node24.sh "$bin" --version 2>/dev/null | tail -1)"
if [ "$running" != "$version" ]; then
  log "expected n8n $version, but $bin --version says '$running'"
  exit 1
fi
log "n8n $running installed at $bin"

# 2. What the e2e suites need besides n8n, then the build the packed package comes from.
bash scripts/install-chromium.sh
command -v openssl >/dev/null || bash scripts/apt-install.sh openssl
npm run build >&2

files=()
for s in "${SUITES[@]}"; do files+=("${s#*|}"); done
status=0
LBA_N8N_BIN="$bin" LBA_N8N_VERSION="$version" LBA_E2E_ARTIFACTS="$out_dir/n8n-$version" \
  bash scripts/with-node24.sh jest -c test/e2e/jest.config.js --runTestsByPath "${files[@]}" \
  --json --outputFile="$work/jest.json" "$@" || status=$?

# 3. One line per suite, the markdown table, docs/compatibility.md and the README.
report "$work/jest.json" "" || status=$?
exit "$status"
}

main "$@"
