#!/usr/bin/env bash
# Runs a command with the project's toolchain on PATH: Node 24 from node_modules/.bin, the pinned
# Pulumi CLI (scripts/ensure-pulumi.sh), and the dynamic-provider plugin shipped in @pulumi/pulumi.
# Everything runs offline: no update checks, no plugin downloads.
#   bash scripts/with-pulumi.sh pulumi version
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$here/node_modules/.bin:$PATH"
pulumi_bin=$(bash "$here/scripts/ensure-pulumi.sh")
export PATH="$pulumi_bin:$here/node_modules/@pulumi/pulumi:$PATH"
export PULUMI_SKIP_UPDATE_CHECK=true
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
export PULUMI_SKIP_CONFIRMATIONS=true
exec "$@"
