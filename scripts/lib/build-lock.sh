# Sourced by the scripts that build a tool into the shared cache on first use (ensure-*.sh,
# gen-sdk.sh). Two test files, two CI jobs or two terminals may ask for the same tool at once on a
# cold cache: one builds, the others wait for it and use what it built.
#
# The lock is a directory (mkdir is atomic on every file system and needs no flock(1), which macOS
# lacks) holding the owner's pid. A lock whose owner is gone is taken over; a lock with no pid yet
# is young (its owner is between mkdir and writing the pid) unless it is older than a minute.
#
#   . "$here/scripts/lib/build-lock.sh"
#   build_lock "$cache_root/locks/pulumi-$version"   # returns holding the lock; released on exit
#   [ -x "$bin/pulumi" ] && { echo "$bin"; exit 0; } # built by the one we waited for

build_lock_path=""

# Releases the lock this process holds (safe to call twice, and when it holds none).
build_lock_release() {
  if [ -n "$build_lock_path" ] && [ "$(cat "$build_lock_path/pid" 2>/dev/null)" = "$$" ]; then
    rm -rf "$build_lock_path"
  fi
  build_lock_path=""
}

# build_lock DIR [WHAT]: waits until this process holds the lock DIR (at most
# BUILD_LOCK_TIMEOUT seconds, default 3600: a cold Pulumi build takes minutes).
build_lock() {
  local lock=$1 what=${2:-$(basename "$1")} waited=0 owner age
  local limit=${BUILD_LOCK_TIMEOUT:-3600}
  mkdir -p "$(dirname "$lock")"
  while ! mkdir "$lock" 2>/dev/null; do
    owner=$(cat "$lock/pid" 2>/dev/null || true)
    if [ -n "$owner" ] && ! kill -0 "$owner" 2>/dev/null; then
      # Its owner died: move it aside first, so that two waiters never both remove a fresh lock.
      mv "$lock" "$lock.stale.$$" 2>/dev/null && rm -rf "$lock.stale.$$"
      continue
    fi
    if [ -z "$owner" ]; then
      age=$(( $(date +%s) - $(stat -c %Y "$lock" 2>/dev/null || stat -f %m "$lock" 2>/dev/null || date +%s) ))
      if [ "$age" -gt 60 ]; then
        mv "$lock" "$lock.stale.$$" 2>/dev/null && rm -rf "$lock.stale.$$"
        continue
      fi
    fi
    if [ "$waited" -ge "$limit" ]; then
      echo "build-lock: another build of $what (pid ${owner:-unknown}) has held $lock for ${limit} s; if no build is running, remove that directory" >&2
      return 1
    fi
    if [ $((waited % 30)) -eq 0 ]; then
      echo "build-lock: waiting for another build of $what (pid ${owner:-starting}) to finish" >&2
    fi
    sleep 1
    waited=$((waited + 1))
  done
  echo "$$" >"$lock/pid"
  build_lock_path=$lock
}
