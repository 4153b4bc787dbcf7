#!/usr/bin/env bash
# Settle cost per checkpoint: records every todoapp scenario N times with the release CLI and
# collects the "settled after N ms" progress lines `tuicast record` prints on a terminal's stderr
# (script(1) gives it one). Prints median, p95 and max per checkpoint and over all checkpoints.
#
#   scripts/bench-live/settle.sh [-n N] [SCENARIO...]     (default: 20, every casts/*.toml)
#
# TUICAST=path picks the binary (default target/release/tuicast). Needs target/debug/todoapp.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
tuicast=${TUICAST:-$root/target/release/tuicast}
n=20
while getopts "n:" opt; do
    case $opt in n) n=$OPTARG ;; *) sed -n '2,8s/^# \{0,1\}//p' "$0" >&2; exit 2 ;; esac
done
shift $((OPTIND - 1))
casts=$root/tests/apps/todoapp/casts
if (($# == 0)); then set -- "$casts"/*.toml; fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for scenario in "$@"; do
    [[ $scenario == */* ]] || scenario=$casts/$scenario.toml
    name=$(basename "$scenario" .toml)
    for ((i = 1; i <= n; i++)); do
        # script -e: tuicast's exit status; the typescript goes to /dev/null, the tty output to the log
        script -qec "$(printf '%q ' "$tuicast" record "$scenario" -o "$out/$name-$i.cast")" /dev/null \
            < /dev/null > "$out/$name-$i.log" 2>&1 || { echo "$name run $i failed:" >&2; cat "$out/$name-$i.log" >&2; exit 1; }
        # progress lines: a step line ("FILE:LINE:COL: snapshot NAME") then "  settled after N ms"
        tr '\r' '\n' < "$out/$name-$i.log" | sed 's/\x1b\[[0-9;]*[A-Za-z]//g' |
            awk -v s="$name" '/: snapshot / { cp = $0; sub(/.*: snapshot /, "", cp); sub(/[ \t].*/, "", cp) }
                /settled after/ { ms = $0; sub(/.*settled after /, "", ms); sub(/ ms.*/, "", ms); print s "/" cp, ms }' >> "$out/all"
    done
done
awk '
function report(key, arr, k,   i, j, t, m, p) {
    for (i = 2; i <= k; i++) { t = arr[i]; for (j = i - 1; j >= 1 && arr[j] > t; j--) arr[j + 1] = arr[j]; arr[j + 1] = t }
    m = (k % 2) ? arr[(k + 1) / 2] : (arr[k / 2] + arr[k / 2 + 1]) / 2
    p = arr[int(0.95 * k + 0.999999)]
    printf "%-22s %4d %8.1f %8.1f %8.1f %8.1f\n", key, k, arr[1], m, p, arr[k]
}
{ v[$1, ++c[$1]] = $2; all[++na] = $2; if (!($1 in seen)) { seen[$1] = 1; order[++no] = $1 } }
END {
    printf "%-22s %4s %8s %8s %8s %8s\n", "checkpoint", "n", "min ms", "median", "p95", "max"
    for (o = 1; o <= no; o++) { key = order[o]; delete a; for (i = 1; i <= c[key]; i++) a[i] = v[key, i]; report(key, a, c[key]) }
    report("all", all, na)
}' "$out/all"
