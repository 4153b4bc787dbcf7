#!/usr/bin/env bash
# Wall time of the todoapp live suite, tuicast against microsoft tui-test, in alternating rounds:
# each round runs `tuicast test --live` over tests/apps/todoapp/casts (release binary), then
# `npx tui-test` over scripts/bench-live/specs, and prints both times and their ratio.
#
#   scripts/bench-live/suites.sh [-n ROUNDS]    (default 5; one warm-up round is not counted)
#
# Needs: cargo build --release --bin tuicast; cargo build -p todoapp; (cd scripts/bench-live && npm ci)
# (specs/__snapshots__ holds tui-test's snapshots; `npx tui-test -u` writes them again).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
tuicast=${TUICAST:-$root/target/release/tuicast}
n=5
while getopts "n:" opt; do
    case $opt in n) n=$OPTARG ;; *) sed -n '2,9s/^# \{0,1\}//p' "$0" >&2; exit 2 ;; esac
done
now() { date +%s.%N; }
run_tuicast() { (cd "$root/tests/apps/todoapp" && "$tuicast" test --live) > /dev/null 2>&1; }
run_tuitest() { (cd "$here" && npx tui-test) > /dev/null 2>&1; }
run_tuicast || { echo "tuicast test --live failed" >&2; exit 1; }
run_tuitest || { echo "npx tui-test failed" >&2; exit 1; }
printf '%-6s %10s %10s %8s\n' round tuicast tui-test ratio
for ((r = 1; r <= n; r++)); do
    t0=$(now); run_tuicast; t1=$(now); run_tuitest; t2=$(now)
    awk -v r="$r" -v t0="$t0" -v t1="$t1" -v t2="$t2" \
        'BEGIN { a = t1 - t0; b = t2 - t1; printf "%-6s %9.3fs %9.3fs %7.2fx\n", r, a, b, b / a }'
done
