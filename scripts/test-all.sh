#!/usr/bin/env bash
# Every test: types, unit, database (real PostgreSQL), Workers runtime and browser (Playwright + Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-test-deps.sh
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_HIDE_BANNER=true NO_UPDATE_NOTIFIER=1

step() { printf '\n== %s (at %ss) ==\n' "$1" "$SECONDS"; }
# The Worker entry imports the Remix server build, so build before type-checking.
step "build"
npx remix vite:build >/dev/null
# Type-checking and lint are each one process on one core: run them side by side, print each one's output.
step "typecheck and lint"
log=$(mktemp -d)
npx tsc --noEmit >"$log/typecheck" 2>&1 &
tsc_pid=$!
npm run lint >"$log/lint" 2>&1 &
lint_pid=$!
tsc_rc=0 lint_rc=0
wait $tsc_pid || tsc_rc=$?
wait $lint_pid || lint_rc=$?
printf -- '-- typecheck (exit %s)\n' "$tsc_rc"; cat "$log/typecheck"
printf -- '-- lint (exit %s)\n' "$lint_rc"; cat "$log/lint"
if [ "$tsc_rc" != 0 ] || [ "$lint_rc" != 0 ]; then exit 1; fi
step "unit and database tests"
npx vitest run
step "Workers runtime tests"
npx vitest run --config vitest.workers.config.ts
step "scheduler Worker tests (workerd, real database, local push services)"
npx vitest run --config vitest.scheduler.config.ts
step "browser tests"
npx playwright test
printf '\n== all tests passed in %ss ==\n' "$SECONDS"
