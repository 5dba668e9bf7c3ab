#!/usr/bin/env bash
# Fuzz every file reader with libFuzzer (test/fuzz): build each target with clang
# -fsanitize=fuzzer,address,undefined against the installed ns-3 and our libraries in
# ROCE_LAB_BUILD_DIR (default ./build, built first), then run each for SECONDS (default 20)
# on a copy of its seed corpus test/fuzz/corpus/<target>. A crash (an abort, a sanitizer
# report, an exception other than the reader's ExperimentConfigError) stops with status 1
# and leaves the input in build-fuzz/crashes/<target>/. Prints executions per target.
#
#   .ci/ci-fuzz.sh [SECONDS] [TARGET ...]      (./roce-lab fuzz takes the same)
#   .ci/ci-fuzz.sh --list
#
# The readers' own sources are compiled into each target with coverage instrumentation
# (so that libFuzzer sees their branches); everything else links from the g++-built
# libraries (clang and g++ share libstdc++). New inputs libFuzzer finds go to the copy,
# not to test/fuzz/corpus: merge them with -merge=1 by hand when they are worth keeping.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${ROCE_LAB_BUILD_DIR:-$ROOT/build}"
FUZZ="${ROCE_LAB_FUZZ_DIR:-$ROOT/build-fuzz}"
TARGETS=(cdf trace-csv trace-hpcc topology-hpcc hpcc-config config-db host-model topology-json
         experiment-json nic-profile)
# Each target's readers, compiled into it with coverage instrumentation (TypeId-free
# sources; what they call beyond these comes from the libraries).
D=contrib/dc-experiment/model
C=contrib/config/model
declare -A READERS=(
    [experiment-json]="$D/experiment-config.cc $C/json-schema-reader.cc $C/json-attribute-converter.cc $D/topology/experiment-topology.cc $D/topology/fat-tree-topology.cc $D/topology/regional-topology.cc $D/readers/pfc-safety-config-reader.cc"
    [topology-json]="$D/topology/experiment-topology.cc $C/json-schema-reader.cc $D/topology/fat-tree-topology.cc $D/topology/regional-topology.cc"
    [topology-hpcc]="$D/topology/hpcc-topology-reader.cc $C/text-field.cc"
    [trace-csv]="$D/workload/flow-trace.cc $C/text-field.cc"
    [trace-hpcc]="$D/workload/flow-trace.cc $C/text-field.cc"
    [cdf]="$D/workload/flow-size-cdf.cc $C/text-field.cc"
    [config-db]="contrib/dcb/model/sonic-config-loader.cc contrib/dcb/model/sonic-config-tables.cc $C/json-schema-reader.cc"
    [host-model]="$D/readers/host-model-reader.cc $C/json-schema-reader.cc $C/json-attribute-converter.cc"
    [hpcc-config]="$D/readers/hpcc-config-translator.cc $C/text-field.cc"
    [nic-profile]="contrib/dc-experiment/helper/nic-profile.cc $C/json-schema-reader.cc $C/json-attribute-converter.cc $D/experiment-config.cc"
)

if [ "${1:-}" = --list ]; then
    printf '%s\n' "${TARGETS[@]}"
    exit 0
fi
SECONDS_PER_TARGET=20
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then
    SECONDS_PER_TARGET=$1
    shift
fi
[ $# -gt 0 ] && TARGETS=("$@")

command -v clang++ >/dev/null || { echo "ci-fuzz: clang++ not found (apt-get install clang)" >&2; exit 2; }
if ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
    echo "ci-fuzz: libFuzzer runtime missing (apt-get install libclang-rt-14-dev)" >&2
    exit 2
fi
if [ -z "${ROCE_LAB_NO_BUILD:-}" ]; then
    ROCE_LAB_BUILD_DIR="$BUILD" "$ROOT/roce-lab" build
fi

SAN=(-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-sanitize=vptr)
CXXFLAGS=(-std=c++17 -O1 -g -fno-omit-frame-pointer -I "$BUILD/include" -I /usr/include)
LIBS=()
for m in dc-experiment multipath rdma host dcb config; do
    LIBS+=("$BUILD/contrib/$m/libns3-roce-$m.so")
done
for m in core network internet; do
    LIBS+=("-lns3-$m")
done
RPATH="-Wl,-rpath,$(printf '%s:' "$BUILD"/contrib/*/)"

mkdir -p "$FUZZ/obj"
# compile SOURCE...: instrumented objects in $FUZZ/obj (kept between runs); prints their paths.
compile() {
    local src obj
    for src in "$@"; do
        obj="$FUZZ/obj/$(basename "${src%.cc}").o"
        if [ ! -f "$obj" ] || [ "$ROOT/$src" -nt "$obj" ]; then
            clang++ "${CXXFLAGS[@]}" -fsanitize=fuzzer-no-link,address,undefined \
                -fno-sanitize=vptr -fPIC -c "$ROOT/$src" -o "$obj" >&2
        fi
        echo "$obj"
    done
}

status=0
total=0
for t in "${TARGETS[@]}"; do
    exe="$FUZZ/fuzz-$t"
    src="$ROOT/test/fuzz/fuzz-$t.cc"
    [ -f "$src" ] || { echo "ci-fuzz: no target $t ($src)" >&2; exit 2; }
    # shellcheck disable=SC2086 # the list is words
    mapfile -t objects < <(compile ${READERS[$t]})
    if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ] || [ "$ROOT/test/fuzz/fuzz-reader.h" -nt "$exe" ] ||
        [ -n "$(find "${objects[@]}" -newer "$exe" | head -1)" ]; then
        clang++ "${CXXFLAGS[@]}" "${SAN[@]}" "$src" "${objects[@]}" "${LIBS[@]}" "$RPATH" -o "$exe"
    fi
    work="$FUZZ/corpus/$t"
    crashes="$FUZZ/crashes/$t"
    rm -rf "$work"
    mkdir -p "$work" "$crashes"
    cp -r "$ROOT/test/fuzz/corpus/$t/." "$work/" 2>/dev/null || true
    log="$FUZZ/fuzz-$t.log"
    # The readers resolve relative paths against the working directory: run in the
    # corpus copy so that a file name in an input cannot reach the checkout.
    if (cd "$work" && ASAN_OPTIONS=detect_leaks=0 "$exe" -max_total_time="$SECONDS_PER_TARGET" \
        -max_len=16384 -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$crashes/" \
        -print_final_stats=1 . >"$log" 2>&1); then
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
        total=$((total + ${execs:-0}))
        printf 'ci-fuzz: %-16s %10s executions in %s s, no crash\n' "$t" "${execs:-?}" \
            "$SECONDS_PER_TARGET"
    else
        status=1
        echo "ci-fuzz: $t CRASHED (input in $crashes/, log $log):" >&2
        grep -m 20 -E 'ERROR|SUMMARY|runtime error|terminate|#[0-9] ' "$log" >&2 || tail -20 "$log" >&2
    fi
done
echo "ci-fuzz: ${#TARGETS[@]} targets, $total executions in all" >&2
exit $status
