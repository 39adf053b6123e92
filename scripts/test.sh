#!/usr/bin/env bash
# The test command (`npm test`): build, static checks, then every vitest project (unit, sandbox,
# client, end-to-end under the real Pulumi engine) in one run, with Node 24 and the pinned Pulumi CLI.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
export PATH="$here/node_modules/.bin:$PATH"
echo "node $(node --version) ($(command -v node))"
npm run --silent build
npm run --silent check
mkdir -p test/.work
results=test/.work/vitest-results.json
rm -f "$results"
status=0
bash scripts/with-pulumi.sh sh -c 'echo "pulumi $(pulumi version) ($(command -v pulumi))"; exec vitest run --reporter=default --reporter=json --outputFile.json="$0" "$@"' "$results" "$@" || status=$?
if [ -f "$results" ]; then
  # One plain closing line that any CI reader understands.
  node -e '
    const r = require(process.argv[1]);
    console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
  ' "$here/$results"
fi
exit $status
