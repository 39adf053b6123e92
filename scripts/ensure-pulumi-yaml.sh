#!/usr/bin/env bash
# Makes the Pulumi YAML language host (`pulumi-language-yaml`) available and prints its bin
# directory. Built from its published Go module, cached like scripts/ensure-pulumi.sh caches the CLI:
#   1. a `pulumi-language-yaml` already on PATH;
#   2. the binary cached under ${PULUMI_DOMAINAPI_CACHE:-~/.cache/pulumi-domainapi}/pulumi-yaml-<version>/bin;
#   3. a build of github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml@v<version> (about 4.5 minutes cold).
# The version is pinned (PULUMI_YAML_VERSION overrides it): the one the Go module proxy serves that
# is closest below the pinned CLI's own release.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

version=${PULUMI_YAML_VERSION:-1.38.1}
cache_root=${PULUMI_DOMAINAPI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-domainapi}
bin="$cache_root/pulumi-yaml-$version/bin"
log() { echo "ensure-pulumi-yaml: $*" >&2; }

if [ -z "${PULUMI_DOMAINAPI_FORCE_BUILD:-}" ] && command -v pulumi-language-yaml >/dev/null 2>&1; then
  log "using pulumi-language-yaml from PATH ($(command -v pulumi-language-yaml))"
  dirname "$(command -v pulumi-language-yaml)"
  exit 0
fi

if [ -x "$bin/pulumi-language-yaml" ]; then
  log "using cached pulumi-language-yaml $version in $bin"
  echo "$bin"
  exit 0
fi

# One build at a time per version; a run that waited uses what the other built.
. "$here/scripts/lib/build-lock.sh"
build_lock "$cache_root/locks/pulumi-yaml-$version" "pulumi-language-yaml $version"
trap build_lock_release EXIT
if [ -x "$bin/pulumi-language-yaml" ]; then
  log "using pulumi-language-yaml $version built by another run in $bin"
  echo "$bin"
  exit 0
fi

command -v go >/dev/null 2>&1 || { log "go is not installed: cannot build pulumi-language-yaml $version"; exit 1; }
log "building pulumi-language-yaml $version from github.com/pulumi/pulumi-yaml (first run only; cached in $bin)"
# `go install mod@version` asks the proxy for the module's version list (refused here), so build in
# a scratch module outside the repository that requires the one pinned version.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/pulumi-yaml-build.XXXXXX")
trap 'rm -rf "$scratch"; build_lock_release' EXIT
cd "$scratch"
go mod init pulumi-domainapi-yaml-build >/dev/null 2>&1
go mod edit -require="github.com/pulumi/pulumi-yaml@v$version"
cat > tools.go <<'GO'
//go:build tools

package tools

import _ "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"
GO
GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1 || true
rm -rf "$bin.tmp"
mkdir -p "$bin.tmp"
ldflags="-s -w -X github.com/pulumi/pulumi-yaml/pkg/version.Version=v$version"
GOFLAGS=-mod=mod go build -trimpath -ldflags "$ldflags" -o "$bin.tmp/pulumi-language-yaml" \
  github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml
rm -rf "$bin"
mv "$bin.tmp" "$bin"
log "built pulumi-language-yaml $version in $bin"
echo "$bin"
