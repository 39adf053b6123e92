#!/usr/bin/env bash
# Makes `pulumi` (and, where its Go module can be had, `pulumi-language-nodejs`) of the version
# pinned by the @pulumi/pulumi dependency available, and prints the bin directory to put on PATH.
#
# Order of preference:
#   1. a `pulumi` already on PATH whose version is at least the pinned one;
#   2. binaries cached under ${PULUMI_DOMAINAPI_CACHE:-~/.cache/pulumi-domainapi}/pulumi-<version>/bin;
#   3. a build from the published Go modules in a scratch module outside the repo.
# No Pulumi source is ever written into this repository.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
version=${PULUMI_VERSION:-$(node -p "require('$here/node_modules/@pulumi/pulumi/package.json').version" 2>/dev/null || node -p "require('$here/package.json').devDependencies['@pulumi/pulumi'].replace(/^[^0-9]*/, '')")}
cache_root=${PULUMI_DOMAINAPI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-domainapi}
bin="$cache_root/pulumi-$version/bin"
log() { echo "ensure-pulumi: $*" >&2; }

version_ge() { # $1 >= $2, both x.y.z
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]
}

if [ -z "${PULUMI_DOMAINAPI_FORCE_BUILD:-}" ] && command -v pulumi >/dev/null 2>&1; then
  have=$(pulumi version 2>/dev/null | sed 's/^v//') || have=""
  if [ -n "$have" ] && version_ge "$have" "$version"; then
    log "using pulumi $have from PATH ($(command -v pulumi))"
    dirname "$(command -v pulumi)"
    exit 0
  fi
fi

if [ -x "$bin/pulumi" ]; then
  log "using cached pulumi $version in $bin"
  echo "$bin"
  exit 0
fi

# Several runs may start on a cold cache at once (two test files, two CI jobs): one builds, the
# others wait for it and use what it built.
. "$here/scripts/lib/build-lock.sh"
build_lock "$cache_root/locks/pulumi-$version" "pulumi $version"
trap build_lock_release EXIT
if [ -x "$bin/pulumi" ]; then
  log "using pulumi $version built by another run in $bin"
  echo "$bin"
  exit 0
fi

command -v go >/dev/null 2>&1 || { log "go is not installed: cannot build pulumi $version"; exit 1; }
log "building pulumi $version from github.com/pulumi/pulumi/pkg/v3@v$version (first run only; cached in $bin)"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/pulumi-build.XXXXXX")
trap 'rm -rf "$scratch"; build_lock_release' EXIT
cd "$scratch"
go mod init pulumi-domainapi-cli-build >/dev/null 2>&1
go mod edit -require="github.com/pulumi/pulumi/pkg/v3@v$version" -require="github.com/pulumi/pulumi/sdk/v3@v$version"
# Copy the upstream module's replace lines except the ones pointing at Pulumi's own source tree.
if ! go mod download -json "github.com/pulumi/pulumi/pkg/v3@v$version" > "$scratch/pkg.json"; then
  log "cannot fetch github.com/pulumi/pulumi/pkg/v3@v$version: $(sed -n 's/.*"Error": "\(.*\)".*/\1/p' "$scratch/pkg.json")"
  exit 1
fi
upstream_mod=$(sed -n 's/.*"GoMod": "\(.*\)".*/\1/p' "$scratch/pkg.json")
grep -E '^replace ' "$upstream_mod" | grep -v 'github.com/pulumi/pulumi/' | while read -r _ from _ to ver; do
  go mod edit -replace="$from=$to@$ver"
done
cat > tools.go <<'GO'
//go:build tools

package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
GO
GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1 || true
ldflags="-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$version"
rm -rf "$bin.tmp"
mkdir -p "$bin.tmp"
GOFLAGS=-mod=mod go build -trimpath -ldflags "$ldflags" -o "$bin.tmp/pulumi" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi

# The Node.js language host is its own module. Where the proxy serves it, build it too; where it
# does not, programs run as Automation API inline programs, whose language runtime lives in the
# Node process itself (see README, "Pulumi CLI").
lang="github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3"
if go mod download "$lang@v$version" >/dev/null 2>"$scratch/lang.err"; then
  go mod edit -require="$lang@v$version"
  GOFLAGS=-mod=mod go build -trimpath -ldflags "$ldflags" -o "$bin.tmp/pulumi-language-nodejs" "$lang"
else
  log "pulumi-language-nodejs cannot be built here: $(tr '\n' ' ' < "$scratch/lang.err")"
fi
rm -rf "$bin"
mv "$bin.tmp" "$bin"
log "built $("$bin/pulumi" version) in $bin"
echo "$bin"
