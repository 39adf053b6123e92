#!/usr/bin/env bash
# The test command (`npm test`): build, static checks, then every vitest project (unit, sandbox,
# client, end-to-end under the real Pulumi engine) in one run, with Node 24 and the pinned Pulumi CLI.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
export PATH="$here/node_modules/.bin:$PATH"
echo "node $(node --version) ($(command -v node))"
npm run --silent build
# The static checks (the type checks and Biome, one thread each) run beside the workflow lint and
# the plugin binaries, on the machine's other core; their output is printed when they end, and
# their failure fails the run before any test starts.
checks_log=$(mktemp)
npm run --silent check >"$checks_log" 2>&1 &
checks=$!
trap 'kill "$checks" 2>/dev/null || true; rm -f "$checks_log"' EXIT
# The CI workflows users copy (examples/ci) are linted, so they cannot rot. The actions they use
# (actions/plan, actions/apply) are linted by test/unit/actions/workflows.test.ts: actionlint reads
# workflows only, so that test lays each action's steps out as a workflow's job.
"$(bash scripts/ensure-actionlint.sh)" examples/ci/.github/workflows/*.yml
# The plugin binaries (scripts/dist.ts) for the tests that read and run them: made once per run,
# only when those tests run (all of them, or a filter naming them), and copied from the cache when
# this commit's were made before.
if [ $# -eq 0 ] || printf '%s\n' "$@" | grep -q 'plugin-binar'; then
  npm run --silent dist
fi
checks_status=0
wait "$checks" || checks_status=$?
trap - EXIT
cat "$checks_log"
rm -f "$checks_log"
if [ "$checks_status" -ne 0 ]; then
  echo "npm run check failed (exit $checks_status)" >&2
  exit "$checks_status"
fi
# Mutation testing (scripts/mutation.ts): the modules of provider/ whose code or tests changed since
# the committed report are mutated, and one below the floor fails the run; with none, it costs a
# second. Only on a whole run: a filter names tests, not modules.
if [ $# -eq 0 ]; then
  node scripts/mutation.ts --ci
fi
mkdir -p test/.work
results=test/.work/vitest-results.json
rm -f "$results"
status=0
bash scripts/with-pulumi.sh sh -c 'echo "pulumi $(pulumi version) ($(command -v pulumi))"; exec vitest run --reporter=default --reporter=json --outputFile.json="$0" "$@"' "$results" "$@" || status=$?
if [ -f "$results" ]; then
  # One plain closing line that any CI reader understands.
  node -e '
    const r = require(process.argv[1]);
    // A file that fails before its tests run (an import error) has no failed test: count it too.
    const broken = r.testResults.filter((f) => f.status === "failed" && !f.assertionResults.some((a) => a.status === "failed"));
    for (const f of broken) console.log(`test file failed to run: ${f.name}`);
    const failed = r.numFailedTests + broken.length;
    console.log(`tests: ${r.numPassedTests} passed, ${failed} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
  ' "$here/$results"
fi
exit $status
