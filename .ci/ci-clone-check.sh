#!/usr/bin/env bash
# CI: the repository alone is enough. What a test, a shipped configuration or a documented
# command reads must be in the repository (test/data/, bench/, traces/, topologies/), not in
# a folder beside the checkout, nor in a file left untracked.
#
#   .ci/ci-clone-check.sh [--configs-only] [CTEST ARGS ...]
#
# Clones the committed tree (HEAD) into a temporary folder that has no sibling folder, gives
# its files the checkout's modification times (so that nothing there looks newer than the
# build), and with the programs and test binaries already built in $ROCE_LAB_BUILD_DIR
# (default ./build; run ./roce-lab build first):
#   1. starts every configuration that `./roce-lab list` shows (configs/*.json and
#      the HPCC-simulator configuration files configs/*.txt), as it is in the clone,
#      with roce-run, and lets it run until it ends or prints its first progress line (its
#      files read, its network built, its event loop running; then it is stopped). A
#      configuration error fails the check, except for host-bad-resource.json, which exists
#      to show one.
#   2. runs ctest (all tests, or those CTEST ARGS select) in a private mount namespace where
#      the clone is mounted over the checkout (the build folder kept in place) and an empty
#      folder over each folder beside the checkout (but those holding the build folder or
#      the clone): the test binaries' compiled-in source paths then lead into the clone, so
#      a test that reads a file the clone lacks, or one beside it, fails. Needs
#      `unshare --mount` (root, or unprivileged user namespaces); where it is refused, the
#      tests run in the checkout as they are and the check says that step 2 proved nothing.
# Uncommitted changes are not in the clone: commit first (the check warns of a dirty tree).
# Cost, measured on the 2-core machine while other builds ran (load average 9-13),
# 2026-12-06: the clone 3-4 s, step 1 (44 configurations) 51-54 s; step 2 is the test
# suite itself (706 tests, 879 s there), which .ci/run runs here instead of in the checkout.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${ROCE_LAB_BUILD_DIR:-$ROOT/build}"
BUILD="$(cd "$BUILD" 2>/dev/null && pwd)" || {
    echo "ci-clone-check: no build folder ${ROCE_LAB_BUILD_DIR:-$ROOT/build}: run ./roce-lab build first" >&2
    exit 2
}
JOBS="${ROCE_LAB_JOBS:-$(nproc)}"
LIMIT=120 # seconds a configuration may take to load and start
# Configurations that exist to show a configuration error (exit status 2).
EXPECTED_ERRORS=(host-bad-resource.json)

log() { printf 'ci-clone-check: %s\n' "$*" >&2; }

configs_only=""
if [ "${1:-}" = --configs-only ]; then
    configs_only=1
    shift
fi
[ -x "$BUILD/bin/roce-run" ] || { log "no $BUILD/bin/roce-run: run ./roce-lab build first"; exit 2; }

start=$SECONDS
TMP="$(mktemp -d "${TMPDIR:-/tmp}/roce-lab-clone-check.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
CLONE="$TMP/clone/$(basename "$ROOT")" # alone in its folder
mkdir -p "$TMP/clone"
if [ -n "$(git -C "$ROOT" status --porcelain --untracked-files=no)" ]; then
    log "warning: the checkout has uncommitted changes; the clone holds HEAD without them"
fi
git clone -q --no-hardlinks "$ROOT" "$CLONE"
# The checkout's modification times, so that the build sees nothing new in the clone.
git -C "$CLONE" ls-files -z | python3 -c '
import os, sys
root, clone = sys.argv[1:3]
for f in sys.stdin.buffer.read().decode().split("\0"):
    src = os.path.join(root, f)
    if f and os.path.isfile(src) and not os.path.islink(src):
        st = os.stat(src)
        os.utime(os.path.join(clone, f), ns=(st.st_atime_ns, st.st_mtime_ns))
' "$ROOT" "$CLONE"
log "cloned HEAD ($(git -C "$CLONE" rev-parse --short HEAD)) into $CLONE ($((SECONDS - start)) s)"

# 1. Every configuration ./roce-lab list shows, from the clone, until its simulation runs.
configs_start=$SECONDS
OUT="$TMP/out"
mkdir -p "$OUT"
failed=()
ran=0
is_hpcc_config() { # as ./roce-lab: the first line that is no comment is KEY value
    awk 'NF && $1 !~ /^#/ { found = ($1 ~ /^[A-Z][A-Z0-9_]*$/ && NF >= 2); exit }
         END { exit !found }' "$1"
}
# start CONFIG LOG: run roce-run on CONFIG until it exits or prints its first progress line
# (the configuration is loaded, its files read, the network built and the event loop
# running); prints its exit status, or "running" when it was stopped there.
start() {
    local pid i rc
    (cd "$TMP" && exec "$BUILD/bin/roce-run" "$1" --out "$OUT/$(basename "$1")" \
        --progress-period=0.5) >"$2" 2>&1 &
    pid=$!
    for ((i = 0; i < LIMIT * 10; i++)); do
        if ! kill -0 "$pid" 2>/dev/null; then
            wait "$pid" && rc=0 || rc=$?
            echo "$rc"
            return
        fi
        if grep -q '^progress: ' "$2"; then
            kill "$pid" 2>/dev/null || true
            wait "$pid" || true
            echo running
            return
        fi
        sleep 0.1
    done
    kill "$pid" 2>/dev/null || true
    wait "$pid" || true
    echo "timeout (no progress line in $LIMIT s)"
}
for config in "$CLONE"/configs/*.json "$CLONE"/configs/*.txt; do
    name="$(basename "$config")"
    case "$name" in
        *.txt) is_hpcc_config "$config" || continue ;;
    esac
    expected=0
    for e in "${EXPECTED_ERRORS[@]}"; do
        [ "$name" = "$e" ] && expected=2
    done
    result="$(start "$config" "$OUT/$name.log")"
    ran=$((ran + 1))
    case "$result" in
        running) [ "$expected" -eq 0 ] && continue ;;
        "$expected") continue ;;
    esac
    failed+=("$name")
    log "FAILED: configs/$name: $result (expected exit $expected):"
    tail -5 "$OUT/$name.log" | sed 's/^/    /' >&2
done
log "$ran configurations started from the clone in $((SECONDS - configs_start)) s"
if [ ${#failed[@]} -gt 0 ]; then
    log "FAILED: ${#failed[@]} configuration(s): ${failed[*]}"
    exit 1
fi
[ -n "$configs_only" ] && { log "passed ($((SECONDS - start)) s)"; exit 0; }

# 2. ctest with the clone in place of the checkout and the folders beside it hidden.
ctest_args=(--output-on-failure -j "$JOBS" "$@")
touch "$CLONE/.clone-check-view"
view() { # the commands of step 2, run inside the private mount namespace
    set -e
    mount --make-rprivate / 2>/dev/null || true
    case "$BUILD/" in
        "$ROOT"/*)
            # The build folder lives inside the checkout: keep it visible over the clone.
            local rel="${BUILD#"$ROOT"/}"
            mkdir -p "$TMP/build" "$CLONE/$rel"
            mount --bind "$BUILD" "$TMP/build"
            mount --bind "$CLONE" "$ROOT"
            mount --bind "$TMP/build" "$ROOT/$rel"
            ;;
        *) mount --bind "$CLONE" "$ROOT" ;;
    esac
    # The folders beside the checkout, emptied (not / and its system folders, and not a
    # folder that holds the build folder or the clone).
    local parent sibling hidden=0
    parent="$(dirname "$ROOT")"
    if [ "$parent" != / ]; then
        for sibling in "$parent"/*; do
            [ -d "$sibling" ] && [ ! -L "$sibling" ] && [ "$sibling" != "$ROOT" ] || continue
            case "$BUILD/" in "$sibling"/*) continue ;; esac
            case "$TMP/" in "$sibling"/*) continue ;; esac
            mount -t tmpfs -o size=1m,mode=0555 none "$sibling"
            hidden=$((hidden + 1))
        done
    fi
    echo "ci-clone-check: $hidden folder(s) beside $ROOT hidden" >&2
    # What the tests will see: the clone (its marker).
    [ -f "$ROOT/.clone-check-view" ] || { echo "the clone is not mounted over $ROOT" >&2; exit 1; }
    [ -x "$BUILD/bin/roce-run" ] || { echo "$BUILD is not visible in the view" >&2; exit 1; }
    cd "$BUILD"
    exec ctest "${ctest_args[@]}"
}
export -f view
export ROOT BUILD TMP CLONE
unshare_cmd=(unshare --mount)
[ "$(id -u)" -eq 0 ] || unshare_cmd=(unshare --mount --map-root-user)
if "${unshare_cmd[@]}" sh -c 'mount -t tmpfs none "$1"' sh "$TMP/out" 2>/dev/null; then
    log "ctest ${*:-(all tests)} with the clone mounted over $ROOT"
    # shellcheck disable=SC2016
    "${unshare_cmd[@]}" bash -c "$(declare -p ctest_args); view"
else
    log "warning: no private mount namespace here (unshare --mount refused): the tests run in"
    log "the checkout, with the folders beside it as they are; only step 1 checked the clone"
    cd "$BUILD"
    ctest "${ctest_args[@]}"
fi
