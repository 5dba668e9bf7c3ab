# Sourced by the hpcc-mix-*-test.sh scripts (ROCE_RUN SOURCE_FOLDER WORK_DIR as $1-$3): copies
# SOURCE_FOLDER/mix unedited into WORK_DIR, runs "roce-run mix/config.txt --out out" from
# there as the HPCC simulator's users run it, prints its stdout.txt and stderr.txt, defines
# fail, and checks that it exited 0 and finished both of its flows.
set -u
roce_run=$1
source_folder=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
cp -R "$source_folder/mix" "$work/mix"
cd "$work" || exit 1
"$roce_run" mix/config.txt --out out > stdout.txt 2> stderr.txt
status=$?
cat stdout.txt stderr.txt
fail() {
    echo "FAIL: $*"
    exit 1
}
test $status -eq 0 || fail "exit status $status"
grep -q '^2 of 2 flows finished' stdout.txt || fail "expected 2 of 2 flows finished"
