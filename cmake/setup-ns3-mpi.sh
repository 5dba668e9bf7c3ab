#!/usr/bin/env bash
# ./roce-lab setup --mpi: build ns-3 with its MPI module (Debian's prebuilt ns-3 has none),
# with roce-lab's modules inside the ns-3 tree, then roce-lab's programs against it.
#
#   1. Debian's ns-3 3.37 source package (apt-get source, after enabling deb-src for the
#      configured Debian mirror when it is not enabled yet) and Debian's Open MPI.
#   2. Only the ns-3 modules we need are unpacked and built: core, network, internet and mpi
#      (with stats, bridge and traffic-control, which they need); Release, no tests, examples
#      or utilities.
#   3. contrib/{config,dcb,host,rdma,multipath,dc-experiment} are linked into the tree's contrib/
#      unchanged: the in-tree build of the same CMakeLists files the standalone build uses.
#   4. ns-3 (with our modules) is installed under DIR/ns3, and the top-level CMakeLists
#      builds scratch/ and examples/ against it in DIR/roce (bin/roce-run, ...).
#
# DIR is $ROCE_LAB_MPI_DIR, default $BUILD/mpi. Re-running is incremental.
# ROCE_LAB_NS3_SOURCE=DIR takes the three source-package files from DIR instead of apt.
set -euo pipefail

ROOT="$1"
DIR="$2"
JOBS="$3"
NS3_VERSION=3.37
NS3_MODULES="core;network;internet;mpi"
# Their sources: network needs stats; internet needs bridge and traffic-control.
NS3_SOURCE_MODULES=(core stats network bridge traffic-control internet mpi)
ROCE_MODULES=(config dcb host rdma multipath dc-experiment)
SRC="$DIR/ns-$NS3_VERSION"

log() { printf 'roce-lab setup: %s\n' "$*" >&2; }
sudo=()
[ "$(id -u)" -ne 0 ] && sudo=(sudo)

need=()
for p in openmpi-bin libopenmpi-dev bzip2 xz-utils; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
    log "installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -q >&2
    "${sudo[@]}" apt-get install -y -q --no-install-recommends "${need[@]}" >&2
fi

# The Debian mirror and suite the machine already uses (deb822 .sources or sources.list).
debian_mirror() {
    local f uri suite
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -e "$f" ] || continue
        uri=$(sed -n 's/^[Uu][Rr][Ii][Ss]:[[:space:]]*//p' "$f" | head -1 | awk '{print $1}')
        suite=$(sed -n 's/^[Ss][Uu][Ii][Tt][Ee][Ss]:[[:space:]]*//p' "$f" | head -1 | awk '{print $1}')
        if [ -n "$uri" ] && [ -n "$suite" ] && grep -qiE '^types:(.*[[:space:]])?deb([[:space:]]|$)' "$f" &&
            ! grep -qi 'security' <<<"$uri $suite"; then
            echo "$uri $suite"
            return
        fi
    done
    if [ -f /etc/apt/sources.list ]; then
        awk '$1=="deb" && $0 !~ /security/ {
               i = 2; if ($2 ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
               print $i, $(i+1); exit }' /etc/apt/sources.list
    fi
}

fetch_source() {
    mkdir -p "$DIR/source-package"
    if ls "$DIR"/source-package/ns3_"$NS3_VERSION".orig.tar.* >/dev/null 2>&1; then
        return
    fi
    if [ -n "${ROCE_LAB_NS3_SOURCE:-}" ]; then
        log "taking the ns-3 source package from $ROCE_LAB_NS3_SOURCE"
        cp "$ROCE_LAB_NS3_SOURCE"/ns3_"$NS3_VERSION"* "$DIR/source-package/"
        return
    fi
    if ! apt-cache showsrc ns3 2>/dev/null | grep -q "^Version: $NS3_VERSION"; then
        local mirror
        mirror=$(debian_mirror)
        [ -n "$mirror" ] || { log "no Debian mirror found in /etc/apt; add a deb-src entry for ns3 by hand"; exit 1; }
        log "enabling deb-src for ${mirror% *} ${mirror#* } (/etc/apt/sources.list.d/roce-lab-src.sources)"
        printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
            "${mirror% *}" "${mirror#* }" | "${sudo[@]}" tee /etc/apt/sources.list.d/roce-lab-src.sources >/dev/null
        "${sudo[@]}" apt-get update -q >&2
    fi
    log "downloading Debian's ns-3 $NS3_VERSION source package"
    (cd "$DIR/source-package" && apt-get source --download-only -q ns3 >&2)
    ls "$DIR"/source-package/ns3_"$NS3_VERSION".orig.tar.* >/dev/null 2>&1 || {
        log "the mirror's ns3 source package is not version $NS3_VERSION (got: $(ls "$DIR/source-package"))"
        exit 1
    }
}

# Unpack only the build system and the modules we build (the whole tree is ~10x larger).
unpack_source() {
    local tarball top="ns-allinone-$NS3_VERSION/ns-$NS3_VERSION" m missing=()
    tarball=$(ls "$DIR"/source-package/ns3_"$NS3_VERSION".orig.tar.*)
    if [ ! -f "$SRC/CMakeLists.txt" ]; then
        log "unpacking the ns-3 $NS3_VERSION build system"
        rm -rf "$DIR/unpack" "$SRC"
        mkdir -p "$DIR/unpack"
        tar -xf "$tarball" -C "$DIR/unpack" --wildcards --no-wildcards-match-slash \
            "$top/CMakeLists.txt" "$top/VERSION" "$top/ns3" "$top/build-support" "$top/contrib/*" \
            "$top/scratch/CMakeLists.txt" "$top/utils/CMakeLists.txt" \
            "$top/examples/CMakeLists.txt" "$top/src/CMakeLists.txt"
        # ns-3's utilities (benchmarks, doxygen introspection) are not needed.
        echo "# utilities not built by roce-lab setup --mpi" >"$DIR/unpack/$top/utils/CMakeLists.txt"
        mv "$DIR/unpack/$top" "$SRC"
        rm -rf "$DIR/unpack"
    fi
    for m in "${NS3_SOURCE_MODULES[@]}"; do
        [ -d "$SRC/src/$m" ] || missing+=("$top/src/$m")
    done
    [ ${#missing[@]} -eq 0 ] && return
    log "unpacking ns-3 modules: ${missing[*]##*/}"
    rm -rf "$DIR/unpack"
    mkdir -p "$DIR/unpack"
    tar -xf "$tarball" -C "$DIR/unpack" "${missing[@]}"
    mv "$DIR/unpack/$top"/src/* "$SRC/src/"
    rm -rf "$DIR/unpack"
    # ns-3 3.37 receives MPI messages into fixed 2000-byte buffers, which a frame of a 4096-byte
    # RoCE MTU (or a jumbo frame) overflows; make room for a 9216-byte frame and its metadata.
    sed -i 's/MAX_MPI_MSG_SIZE = 2000;/MAX_MPI_MSG_SIZE = 10240;/' \
        "$SRC/src/mpi/model/granted-time-window-mpi-interface.h" \
        "$SRC/src/mpi/model/null-message-mpi-interface.cc"
    grep -q 'MAX_MPI_MSG_SIZE = 10240;' "$SRC/src/mpi/model/granted-time-window-mpi-interface.h"
}

fetch_source
unpack_source
for m in "${ROCE_MODULES[@]}"; do
    ln -sfn "$ROOT/contrib/$m" "$SRC/contrib/$m"
done

# Release, only what we need; our modules are enabled by name like any ns-3 module.
modules="$NS3_MODULES"
for m in "${ROCE_MODULES[@]}"; do modules="$modules;$m"; done
# Configured once per module list (the stamp holds it): a tree configured before a module
# was added keeps header stubs that point at the old places, in ns-3's output folder
# ($SRC/build: include/ns3, lib), which goes with the configuration.
if [ "$(cat "$DIR/ns3-build/.roce-lab-modules" 2>/dev/null)" != "$modules" ]; then
    rm -rf "$DIR/ns3-build" "$SRC/build"
fi
if [ ! -f "$DIR/ns3-build/CMakeCache.txt" ]; then
    log "configuring ns-3 $NS3_VERSION with MPI in $DIR/ns3-build"
    cmake -S "$SRC" -B "$DIR/ns3-build" -DCMAKE_BUILD_TYPE=release -DNS3_MPI=ON \
        "-DNS3_ENABLED_MODULES=$modules" -DNS3_EXAMPLES=OFF -DNS3_TESTS=OFF \
        -DNS3_PYTHON_BINDINGS=OFF -DNS3_GTK3=OFF -DNS3_SQLITE=OFF -DNS3_EMU=OFF -DNS3_TAP=OFF \
        -DNS3_VISUALIZER=OFF -DNS3_WARNINGS_AS_ERRORS=OFF -DNS3_GSL=OFF \
        "-DCMAKE_INSTALL_PREFIX=$DIR/ns3" >&2
    echo "$modules" >"$DIR/ns3-build/.roce-lab-modules"
fi
log "building ns-3 and roce-lab's modules in the ns-3 tree ($JOBS jobs)"
start=$SECONDS
cmake --build "$DIR/ns3-build" -j "$JOBS" >&2
cmake --install "$DIR/ns3-build" >/dev/null
log "ns-3 built and installed in $DIR/ns3 ($((SECONDS - start)) s)"

if [ ! -f "$DIR/roce/CMakeCache.txt" ]; then
    cmake -S "$ROOT" -B "$DIR/roce" -DCMAKE_BUILD_TYPE=Release "-Dns3_DIR=$DIR/ns3/lib/cmake/ns3" \
        -DROCE_LAB_TESTS=OFF >&2
fi
start=$SECONDS
cmake --build "$DIR/roce" -j "$JOBS" >&2
log "programs built against it in $DIR/roce/bin ($((SECONDS - start)) s); run with" \
    "mpirun -np N $DIR/roce/bin/roce-run CONFIG.json --out DIR"
