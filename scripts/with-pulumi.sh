#!/usr/bin/env bash
# Runs a command with the project's toolchain on PATH: Node 24 from node_modules/.bin, the pinned
# Pulumi CLI (scripts/ensure-pulumi.sh), the dynamic-provider plugin shipped in @pulumi/pulumi, and
# the YAML language host when it is built (scripts/ensure-pulumi-yaml.sh).
# Everything runs offline: no update checks, no plugin downloads.
#   bash scripts/with-pulumi.sh pulumi version
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$here/node_modules/.bin:$PATH"
pulumi_bin=$(bash "$here/scripts/ensure-pulumi.sh")
plugin="$here/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
case "$pulumi_bin" in
  "${PULUMI_DOMAINAPI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-domainapi}"/*)
    # The engine looks for its bundled dynamic-provider plugin beside the pulumi binary first (and
    # warns about one found elsewhere on PATH). The script resolves @pulumi/pulumi from the program's
    # directory at run time, so a copy in our own cache works for every checkout.
    cmp -s "$plugin" "$pulumi_bin/pulumi-resource-pulumi-nodejs" 2>/dev/null || install -m 755 "$plugin" "$pulumi_bin/"
    export PATH="$pulumi_bin:$PATH"
    ;;
  *)
    # A pulumi of the user's own: its distribution ships the plugin beside it; ours is a fallback.
    export PATH="$pulumi_bin:$here/node_modules/@pulumi/pulumi:$PATH"
    ;;
esac
# The YAML language host, once scripts/ensure-pulumi-yaml.sh has built it (the YAML tests build it
# on first use; nothing else needs it, so nothing else waits for its build).
yaml_bin="${PULUMI_DOMAINAPI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-domainapi}/pulumi-yaml-${PULUMI_YAML_VERSION:-1.38.1}/bin"
if [ -x "$yaml_bin/pulumi-language-yaml" ]; then export PATH="$yaml_bin:$PATH"; fi
export PULUMI_SKIP_UPDATE_CHECK=true
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
export PULUMI_SKIP_CONFIRMATIONS=true
exec "$@"
