#!/usr/bin/env bash
# Issue 27, point 3: no new flakes. Every bundled live scenario (the example suite's casts/ and
# the test apps' suites) is recorded N times with `tuicast test --live --repeat N` while busy
# loops load every CPU (LOAD per core, 4 by default: "4x CPU load"); the flake guard compares the
# N recordings' checkpoints and the first is checked against the committed goldens. Then
# todoapp's flake test with the deliberately slow renderer (frames in four writes, 20 ms apart)
# at the same N (its own load: two busy threads per core, on top of ours).
#
#   scripts/bench-live/flake.sh [N=200]
#
# Prints, per suite: scenarios, recordings, wall seconds, the load average seen, and the
# result line. Exit 1 when any suite fails. TUICAST=path picks the binary (default
# target/release/tuicast, built here).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
n=${1:-200}
per_core=${LOAD:-4}
(cd "$root" && cargo build -q --release -p tuicast -p todoapp -p dashapp -p eventsapp &&
    cargo test -q --release -p todoapp --test flake --no-run 2>/dev/null)
tuicast=${TUICAST:-$root/target/release/tuicast}
for app in todoapp dashapp eventsapp; do export "CARGO_BIN_EXE_$app=$root/target/release/$app"; done
busy=()
stop_load() { for p in "${busy[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap stop_load EXIT
for _ in $(seq 1 $(( $(nproc) * per_core ))); do
    (while :; do :; done) &
    busy+=($!)
done
status=0
for suite in . tests/apps/todoapp tests/apps/dashapp tests/apps/eventsapp; do
    out=$(mktemp)
    start=$(date +%s.%N)
    if (cd "$root/$suite" && "$tuicast" test --live --repeat "$n" > "$out" 2>&1); then ok=passed; else ok=FAILED; status=1; fi
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    scenarios=$(ls "$root/$suite"/casts/*.toml | wc -l)
    printf '%-20s %d scenarios x %d recordings  %7.1f s  load %s  %s: %s\n' "$suite" "$scenarios" "$n" \
        "$secs" "$(cut -d' ' -f1 /proc/loadavg)" "$ok" "$(grep -E '^[0-9]+ passed' "$out" | tail -1)"
    if [ "$ok" = FAILED ]; then tail -40 "$out"; fi
    rm -f "$out"
done
start=$(date +%s.%N)
if (cd "$root" && TODOAPP_FLAKE_N=$n cargo test -q --release -p todoapp --test flake > /tmp/flake-slow.$$ 2>&1); then ok=passed; else ok=FAILED; status=1; fi
secs=$(echo "$(date +%s.%N) - $start" | bc)
printf '%-20s 4 scenarios x %d recordings x 2 (plain, slow renderer)  %7.1f s  load %s  %s\n' \
    "todoapp flake test" "$n" "$secs" "$(cut -d' ' -f1 /proc/loadavg)" "$ok"
if [ "$ok" = FAILED ]; then tail -40 /tmp/flake-slow.$$; fi
rm -f /tmp/flake-slow.$$
exit $status
