#!/usr/bin/env bash
# Makes actionlint (the GitHub Actions workflow linter, github.com/rhysd/actionlint) of the pinned
# version available and prints the path of the binary.
#
# Order of preference:
#   1. the binary cached under ${PULUMI_DOMAINAPI_CACHE:-~/.cache/pulumi-domainapi}/actionlint-<version>/;
#   2. a build of the published Go module (`go install`, through the Go module proxy) into that cache.
# An actionlint already on PATH is not used: its version would decide which rules apply.
#
#   "$(bash scripts/ensure-actionlint.sh)" examples/ci/.github/workflows/*.yml
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

version=${ACTIONLINT_VERSION:-1.7.12}
cache_root=${PULUMI_DOMAINAPI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-domainapi}
dir="$cache_root/actionlint-$version"
log() { echo "ensure-actionlint: $*" >&2; }

if [ -x "$dir/actionlint" ]; then
  echo "$dir/actionlint"
  exit 0
fi

# One build at a time per version; a run that waited uses what the other built.
. "$here/scripts/lib/build-lock.sh"
build_lock "$cache_root/locks/actionlint-$version" "actionlint $version"
trap build_lock_release EXIT
if [ -x "$dir/actionlint" ]; then
  echo "$dir/actionlint"
  exit 0
fi

command -v go >/dev/null 2>&1 || { log "go is not installed: cannot build actionlint $version"; exit 1; }
log "building actionlint $version from github.com/rhysd/actionlint@v$version (first run only; cached in $dir)"
# Built into a scratch directory and moved into place at the end, so that an interrupted build
# never leaves a half-written binary that a later run would trust.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/actionlint-build.XXXXXX")
trap 'rm -rf "$scratch"; build_lock_release' EXIT
# Outside any module, with its own GOBIN: `go install pkg@version` ignores this repository entirely.
(cd "$scratch" && GOBIN="$scratch/bin" GOFLAGS=-mod=mod go install -trimpath -ldflags "-s -w" \
  "github.com/rhysd/actionlint/cmd/actionlint@v$version")
mkdir -p "$cache_root"
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp"
mv "$scratch/bin/actionlint" "$dir.tmp/actionlint"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
log "built $("$dir/actionlint" -version | head -n1) in $dir"
echo "$dir/actionlint"
