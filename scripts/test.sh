#!/usr/bin/env bash
# `npm test`: the build (if its sources changed), then lint and Jest at once. Lint is one process
# at a time on one core while Jest has a worker per core; at once, the run takes about Jest's time
# instead of both in a row. Lint's output is printed when both have ended (its last line says
# whether it passed), and either failing fails `npm test`. Arguments go to Jest.
set -uo pipefail
cd "$(dirname "$0")/.."
node scripts/build-if-changed.js || exit $?
lint_log=$(mktemp)
trap 'rm -f "$lint_log"' EXIT
npm run lint >"$lint_log" 2>&1 &
lint_pid=$!
jest_status=0
bash scripts/with-node24.sh jest "$@" || jest_status=$?
lint_status=0
wait "$lint_pid" || lint_status=$?
cat "$lint_log"
if [ "$lint_status" != 0 ]; then echo "npm test: lint FAILED (exit $lint_status)" >&2; fi
if [ "$jest_status" != 0 ]; then exit "$jest_status"; fi
exit "$lint_status"
