#!/usr/bin/env bash
# CI: build roce-lab's modules inside ns-3 source trees, as the README's "Using the modules
# elsewhere" tells users to, and check that a run there matches the standalone build.
#
#   .ci/ci-tree-check.sh [cmake] [waf]        (default: both)
#
#   cmake: ns-3.36.1 (CMake, the first CMake release)   waf: ns-3.35 (the last waf release)
#
# First, test/ns3_api_compat.py rejects what only ns-3 >= 3.36 accepts. Then, for each tree:
#   1. unpack ../shared/ns-3-sources/ns-<version>-min.tar.xz (checked against the sha256 in
#      its README) into $ROCE_LAB_TREE_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/roce-lab),
#      kept between runs; the trimmed tarballs lack ns-3's src/ (and contrib/) build files, so
#      the small stand-ins in .ci/ci-tree/ are added (never needed in a full release tree);
#   2. copy contrib/{config,dcb,host,rdma,multipath,dc-experiment} into the tree's contrib/ (plus
#      wscript-compat/<module>/wscript for waf) and scratch/roce-run.cc with log-notice.h
#      into the tree's scratch/roce-run/;
#   3. configure only our modules (ns-3 adds the ones they need), release profile, no tests,
#      examples or python bindings, once per tree and module list (ccache is used when installed);
#   4. build the roce-run scratch program (waf: the whole tree, i.e. the enabled modules and
#      the scratch programs), incrementally between runs;
#   5. run the default experiment (configs/leaf-spine-incast.json) with a 2 ms stop
#      time and compare flows.csv and pfc.csv byte for byte with the standalone build's
#      ($ROCE_LAB_BUILD_DIR/bin/roce-run, built by ./roce-lab build);
#   6. CMake tree only: build the rest of the tree, install it (with our modules) into
#      TREE/install, build this repository's test-host against it (find_package(ns3) with
#      ns3_DIR there) and run it with ctest -L '^host$'. The waf tree runs no tests: they
#      schedule lambdas, which ns-3.35's Simulator::Schedule does not take.
# The wall time of each step is printed at the end.
#
# The tarballs are not part of the repository (ns-3 release sources, too large to ship): CI
# keeps them in ../shared/ns-3-sources beside its clone (ROCE_LAB_NS3_SOURCES names another
# folder). Where they are missing the check says so and is skipped (exit 0), unless
# ROCE_LAB_REQUIRE_NS3_SOURCES=1 (set by .ci/run), which makes their absence a failure.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${ROCE_LAB_BUILD_DIR:-$ROOT/build}"
SOURCES="${ROCE_LAB_NS3_SOURCES:-$ROOT/../shared/ns-3-sources}"
CACHE="${ROCE_LAB_TREE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/roce-lab}"
JOBS="${ROCE_LAB_JOBS:-$(nproc)}"
MODULES=(config dcb host rdma multipath dc-experiment)
STOP_TIME=2ms
# The GoogleTest suite built and run against the CMake tree (the smallest; it links all six).
TEST_MODULE=host

log() { printf 'ci-tree-check: %s\n' "$*" >&2; }

TIMES=()
print_times() {
    [ ${#TIMES[@]} -gt 0 ] || return 0
    log "wall time per step (load average now: $(cut -d' ' -f1-3 /proc/loadavg)):"
    printf '  %s\n' "${TIMES[@]}" >&2
}
fail() {
    log "FAILED: $*"
    print_times
    exit 1
}

# timed NAME COMMAND...: run COMMAND, record its wall time under NAME.
timed() {
    local name="$1" start=$SECONDS rc=0
    shift
    "$@" || rc=$?
    TIMES+=("$(printf '%-44s %5d s' "$name" $((SECONDS - start)))")
    return $rc
}

kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(cmake waf)
for kind in "${kinds[@]}"; do
    case "$kind" in
        cmake | waf) ;;
        *) fail "unknown tree kind '$kind' (cmake, waf)" ;;
    esac
done

# The two constructs only ns-3 >= 3.36 accepts fail here, before any tree is built.
python3 "$ROOT/test/ns3_api_compat.py" >&2 || fail "ns-3 API that ns-3.35/3.36 lack (above)"

missing=()
for kind in "${kinds[@]}"; do
    case "$kind" in
        cmake) tarball="$SOURCES/ns-3.36.1-min.tar.xz" ;;
        waf) tarball="$SOURCES/ns-3.35-min.tar.xz" ;;
    esac
    [ -f "$tarball" ] && [ -f "$SOURCES/README.md" ] || missing+=("$tarball")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "${ROCE_LAB_REQUIRE_NS3_SOURCES:-}" = 1 ]; then
        fail "no ${missing[*]} (or no $SOURCES/README.md with their sha256)"
    fi
    log "skipped: the ns-3 source tarballs are not here (${missing[*]}, with $SOURCES/README.md"
    log "giving their sha256). They are ns-3 releases trimmed to their build system, too large to"
    log "ship with the repository; CI has them beside its clone. Set ROCE_LAB_NS3_SOURCES to a folder"
    log "that holds them to run this check (the API check above did run)."
    exit 0
fi

mkdir -p "$CACHE"
WORK="$CACHE/check-$(
    IFS=-
    echo "${kinds[*]}"
)"
rm -rf "$WORK"
mkdir -p "$WORK"

# The default experiment with a short stop time (same seed and everything else).
CONFIG="$WORK/leaf-spine-incast-$STOP_TIME.json"
sed 's/"stop_time": "20ms"/"stop_time": "'"$STOP_TIME"'"/' \
    "$ROOT/configs/leaf-spine-incast.json" >"$CONFIG"
grep -q "\"stop_time\": \"$STOP_TIME\"" "$CONFIG" ||
    fail "configs/leaf-spine-incast.json no longer has \"stop_time\": \"20ms\""

if command -v ccache >/dev/null; then
    log "ccache $(ccache --version | head -1 | awk '{print $NF}') is used for the trees"
else
    log "ccache is not installed: cold builds every time the cache folder is new"
fi

# The standalone build's outputs, once (the first tree's check).
reference() {
    [ -x "$BUILD/bin/roce-run" ] || fail "no $BUILD/bin/roce-run: run ./roce-lab build first"
    "$BUILD/bin/roce-run" "$CONFIG" --out "$WORK/standalone" >"$WORK/standalone.log" 2>&1 ||
        fail "standalone roce-run (log: $WORK/standalone.log)"
}

# unpack VERSION: the trimmed release tarball into $CACHE/ns-VERSION, once.
unpack() {
    local version="$1" tarball="$SOURCES/ns-$1-min.tar.xz" tree="$CACHE/ns-$1" want got
    [ -f "$tree/.roce-lab-unpacked" ] && return 0
    [ -f "$tarball" ] || fail "no $tarball"
    want=$(grep -F "ns-$version-min.tar.xz" "$SOURCES/README.md" | grep -oE '[0-9a-f]{64}' || true)
    got=$(sha256sum "$tarball" | awk '{print $1}')
    if [ -z "$want" ] || [ "$want" != "$got" ]; then
        fail "$tarball: sha256 $got, README says '${want}'"
    fi
    log "unpacking $tarball into $tree"
    rm -rf "$tree" "$tree.tmp"
    mkdir -p "$tree.tmp"
    tar -xf "$tarball" -C "$tree.tmp"
    mv "$tree.tmp/ns-$version" "$tree"
    rmdir "$tree.tmp"
    touch "$tree/.roce-lab-unpacked"
}

# stand_ins VERSION: the build files the trimmed tarball lacks (.ci/ci-tree/README.md).
stand_ins() {
    local version="$1" tree="$CACHE/ns-$1"
    cp -rp "$ROOT/.ci/ci-tree/ns-$version/." "$tree/"
    if [ -f "$ROOT/.ci/ci-tree/ns-$version/src/wscript" ]; then
        cp -p "$ROOT/.ci/ci-tree/ns3_waf_modules.py" "$tree/src/"
    fi
}

# install_modules TREE KIND: what the README's "Using the modules elsewhere" says to copy.
# cp -p keeps the sources' times, so that an unchanged file is not rebuilt.
install_modules() {
    local tree="$1" kind="$2" m
    mkdir -p "$tree/contrib"
    for m in "${MODULES[@]}"; do
        rm -rf "${tree:?}/contrib/$m"
        cp -rp "$ROOT/contrib/$m" "$tree/contrib/$m"
        if [ "$kind" = waf ]; then
            cp -p "$ROOT/wscript-compat/$m/wscript" "$tree/contrib/$m/wscript"
        fi
    done
    rm -rf "$tree/scratch/roce-run"
    mkdir -p "$tree/scratch/roce-run"
    cp -p "$ROOT/scratch/roce-run.cc" "$ROOT/scratch/log-notice.h" "$tree/scratch/roce-run/"
}

# compare KIND DIR: the tree's outputs must equal the standalone build's, byte for byte.
compare() {
    local kind="$1" dir="$2" f
    [ -d "$WORK/standalone" ] || timed "standalone roce-run (reference)" reference
    for f in flows.csv pfc.csv; do
        [ -f "$WORK/standalone/$f" ] || continue
        cmp "$WORK/standalone/$f" "$dir/$f" ||
            fail "$kind tree: $f differs from the standalone build's ($WORK/standalone/$f, $dir/$f)"
    done
    log "$kind tree: flows.csv ($(($(wc -l <"$dir/flows.csv") - 1)) flows) and pfc.csv match the standalone build"
}

check_cmake() {
    local version=3.36.1 tree="$CACHE/ns-3.36.1" modules program
    timed "ns-$version: unpack" unpack "$version"
    stand_ins "$version"
    timed "ns-$version: copy modules" install_modules "$tree" cmake
    modules=$(
        IFS=';'
        echo "${MODULES[*]}"
    )
    # Configured once per module list: the stamp holds the list it was configured with.
    if [ "$(cat "$tree/build/.roce-lab-configured" 2>/dev/null)" != "$modules" ]; then
        # ns-3's CMake uses ccache by itself when it is installed.
        rm -rf "$tree/build"
        timed "ns-$version: configure" cmake -S "$tree" -B "$tree/build" -DCMAKE_BUILD_TYPE=release \
            "-DNS3_ENABLED_MODULES=$modules" -DNS3_EXAMPLES=OFF -DNS3_TESTS=OFF \
            -DNS3_PYTHON_BINDINGS=OFF -DNS3_WARNINGS_AS_ERRORS=OFF >"$WORK/cmake-configure.log" 2>&1 ||
            fail "configure (log: $WORK/cmake-configure.log)"
        echo "$modules" >"$tree/build/.roce-lab-configured"
    fi
    timed "ns-$version: build roce-run" cmake --build "$tree/build" -j "$JOBS" \
        --target scratch_roce-run_roce-run >"$WORK/cmake-build.log" 2>&1 ||
        {
            tail -40 "$WORK/cmake-build.log" >&2
            fail "build (log: $WORK/cmake-build.log)"
        }
    program="$tree/build/scratch/roce-run/ns$version-roce-run"
    [ -x "$program" ] || fail "no $program"
    timed "ns-$version: roce-run" "$program" "$CONFIG" --out "$WORK/cmake" \
        >"$WORK/cmake-run.log" 2>&1 || fail "roce-run in the tree (log: $WORK/cmake-run.log)"
    compare cmake "$WORK/cmake"
    cmake_tests "$tree"
}

# cmake_tests TREE: our GoogleTest suite of TEST_MODULE, built by this repository's CMake
# project against the tree (installed into TREE/install with our modules in it) and run by
# ctest, as the README's "Using the modules elsewhere" shows.
cmake_tests() {
    local tree="$1" tests="$1/roce-lab-tests"
    # The test build is kept between runs, but CMake refuses a cache made from another
    # checkout (CI clones into a new folder): start that one afresh.
    if [ -f "$tests/CMakeCache.txt" ] &&
        ! grep -qxF "CMAKE_HOME_DIRECTORY:INTERNAL=$ROOT" "$tests/CMakeCache.txt"; then
        rm -rf "$tests"
    fi
    # The install takes every enabled module and program: build all of them (the few left).
    timed "ns-3.36.1: build the rest of the tree" cmake --build "$tree/build" -j "$JOBS" \
        >"$WORK/cmake-build-all.log" 2>&1 ||
        {
            tail -40 "$WORK/cmake-build-all.log" >&2
            fail "build (log: $WORK/cmake-build-all.log)"
        }
    rm -rf "$tree/install"
    timed "ns-3.36.1: install (with our modules)" cmake --install "$tree/build" \
        --prefix "$tree/install" >"$WORK/cmake-install.log" 2>&1 ||
        fail "install (log: $WORK/cmake-install.log)"
    timed "ns-3.36.1: configure roce-lab tests" cmake -S "$ROOT" -B "$tests" \
        -DCMAKE_BUILD_TYPE=Release "-Dns3_DIR=$tree/install/lib/cmake/ns3" \
        >"$WORK/tests-configure.log" 2>&1 || fail "configure the tests (log: $WORK/tests-configure.log)"
    timed "ns-3.36.1: build test-$TEST_MODULE" cmake --build "$tests" -j "$JOBS" \
        --target "test-$TEST_MODULE" >"$WORK/tests-build.log" 2>&1 ||
        {
            tail -40 "$WORK/tests-build.log" >&2
            fail "build test-$TEST_MODULE (log: $WORK/tests-build.log)"
        }
    timed "ns-3.36.1: ctest -L '^$TEST_MODULE\$'" bash -c 'cd "$1" && ctest -L "^$2\$" -j "$3" \
        --output-on-failure' sh "$tests" "$TEST_MODULE" "$JOBS" >"$WORK/tests-run.log" 2>&1 ||
        {
            tail -40 "$WORK/tests-run.log" >&2
            fail "test-$TEST_MODULE in the tree (log: $WORK/tests-run.log)"
        }
    log "cmake tree: $(grep -E 'tests passed' "$WORK/tests-run.log") (test-$TEST_MODULE)"
}

check_waf() {
    local version=3.35 tree="$CACHE/ns-3.35" cxx=g++ modules
    timed "ns-$version: unpack" unpack "$version"
    stand_ins "$version"
    timed "ns-$version: copy modules" install_modules "$tree" waf
    command -v ccache >/dev/null && cxx="ccache g++"
    modules=$(
        IFS=,
        echo "${MODULES[*]}"
    )
    # Configured once per module list: the stamp holds the list it was configured with.
    if [ "$(cat "$tree/build/.roce-lab-configured" 2>/dev/null)" != "$modules" ]; then
        rm -rf "$tree/build"
        timed "ns-$version: configure" \
            bash -c 'cd "$1" && CXX="$2" ./waf configure -d release --enable-modules="$3" \
                --disable-examples --disable-tests --disable-python --disable-werror' sh "$tree" "$cxx" \
            "$modules" >"$WORK/waf-configure.log" 2>&1 ||
            fail "configure (log: $WORK/waf-configure.log)"
        echo "$modules" >"$tree/build/.roce-lab-configured"
    fi
    timed "ns-$version: build" bash -c 'cd "$1" && ./waf build -j "$2"' \
        sh "$tree" "$JOBS" >"$WORK/waf-build.log" 2>&1 ||
        {
            tail -40 "$WORK/waf-build.log" >&2
            fail "build (log: $WORK/waf-build.log)"
        }
    timed "ns-$version: roce-run" bash -c 'cd "$1" && ./waf --run-no-build "roce-run $2 --out=$3"' \
        sh "$tree" "$CONFIG" "$WORK/waf" >"$WORK/waf-run.log" 2>&1 ||
        fail "roce-run in the tree (log: $WORK/waf-run.log)"
    compare waf "$WORK/waf"
}

for kind in "${kinds[@]}"; do
    "check_$kind"
done

print_times
