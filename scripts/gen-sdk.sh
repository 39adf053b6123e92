#!/usr/bin/env bash
# Generates the provider plugin's SDKs (Go and Python) from provider/plugin/schema.json into sdk/,
# with Pulumi's code generators (github.com/pulumi/pulumi/pkg/v3/codegen, the CLI's version: see
# scripts/sdkgen/go.mod). The generator is built once per source and cached like the CLI:
#   ${PULUMI_DOMAINAPI_CACHE:-~/.cache/pulumi-domainapi}/sdkgen-<hash>/sdkgen
#   bash scripts/gen-sdk.sh [go|python...]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cache_root=${PULUMI_DOMAINAPI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-domainapi}
src="$here/scripts/sdkgen"
hash=$(cat "$src/go.mod" "$src/go.sum" "$src/main.go" | sha256sum | cut -c1-16)
bin="$cache_root/sdkgen-$hash/sdkgen"
log() { echo "gen-sdk: $*" >&2; }
if [ ! -x "$bin" ]; then
  # One build at a time; a run that waited finds the generator built.
  . "$here/scripts/lib/build-lock.sh"
  build_lock "$cache_root/locks/sdkgen-$hash" "the SDK generator"
  trap build_lock_release EXIT
fi
if [ ! -x "$bin" ]; then
  command -v go >/dev/null 2>&1 || { log "go is not installed: cannot build the SDK generator"; exit 1; }
  log "building the SDK generator (first run only; cached in $(dirname "$bin"))"
  mkdir -p "$(dirname "$bin")"
  rm -f "$bin.tmp"
  (cd "$src" && GOFLAGS=-mod=mod go build -trimpath -o "$bin.tmp" .)
  mv "$bin.tmp" "$bin"
fi
version=$(node -p "require('$here/package.json').version")
# DOMAINAPI_SDK_OUT writes elsewhere (the tests compare a fresh generation with sdk/).
"$bin" "$here/provider/plugin/schema.json" "$version" "${DOMAINAPI_SDK_OUT:-$here/sdk}" "$@"
