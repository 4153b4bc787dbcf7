#!/usr/bin/env bash
# settle = "auto" against the fixed quiet period: the test apps' live suites (todoapp, dashapp,
# eventsapp: ratatui + crossterm) run with every scenario set to each rule, alternating.
#
#   scripts/bench-live/auto.sh [-n ROUNDS] [RULE...]    (default: 5 rounds; auto quiet:50ms)
#
# Per round and rule: `tuicast test --live` of each app, timed (whole process, the wall time of
# the three summed), and every scenario recorded once more with `tuicast record` to read each
# checkpoint's overhead (fired − the program's last output) from `tuicast info --json`. Prints
# the suite times, their medians and the ratio to the first rule's, and the median and p95 of
# the overheads. Both rules check against the same committed goldens, so a pass is "identical
# goldens". TUICAST=path picks the binary (default target/release/tuicast).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
tuicast=${TUICAST:-$root/target/release/tuicast}
rounds=5
while getopts "n:" opt; do
    case $opt in n) rounds=$OPTARG ;; *) sed -n '2,11s/^# \{0,1\}//p' "$0" >&2; exit 2 ;; esac
done
shift $((OPTIND - 1))
(($# > 0)) || set -- auto quiet:50ms
apps=(todoapp dashapp eventsapp)
# The apps built once and found through cargo's variable, as under `cargo test`: the suite
# times are then tuicast's and the programs', not a `cargo build` per app and run.
(cd "$root" && cargo build -q --release -p todoapp -p dashapp -p eventsapp)
for app in "${apps[@]}"; do export "CARGO_BIN_EXE_$app=$root/target/release/$app"; done
out=$(mktemp -d)
made=()
cleanup() {
    rm -rf "$out"
    for d in "${made[@]}"; do rm -rf "$d"; done
}
trap cleanup EXIT
# A copy of each app's suite per rule, inside the app's folder (so that `bin =` finds the
# package), every scenario with the rule on top.
for rule in "$@"; do
    tag=${rule//[^a-z0-9]/-}
    for app in "${apps[@]}"; do
        dir=$root/tests/apps/$app/.bench-settle-$tag
        made+=("$dir")
        rm -rf "$dir" && mkdir -p "$dir/casts"
        cp "$root/tests/apps/$app/tuicast.toml" "$dir/"
        cp -r "$root/tests/apps/$app/snapshots" "$dir/"
        for toml in "$root/tests/apps/$app/casts"/*.toml; do
            { echo "settle = \"$rule\""; cat "$toml"; } > "$dir/casts/$(basename "$toml")"
        done
    done
done
now() { date +%s.%N; }
for ((r = 1; r <= rounds; r++)); do
    for rule in "$@"; do
        tag=${rule//[^a-z0-9]/-}
        total=0
        for app in "${apps[@]}"; do
            dir=$root/tests/apps/$app/.bench-settle-$tag
            t0=$(now)
            (cd "$dir" && TUICAST_UPDATE=no "$tuicast" test --live > "$out/test.log" 2>&1) ||
                { echo "round $r $rule $app: tuicast test --live failed" >&2; cat "$out/test.log" >&2; exit 1; }
            t1=$(now)
            total=$(echo "$total + $t1 - $t0" | bc -l)
            printf '  %s %s %.3f s\n' "$rule" "$app" "$(echo "$t1 - $t0" | bc -l)" >&2
            for toml in "$dir"/casts/*.toml; do
                name=$(basename "$toml" .toml)
                (cd "$dir" && "$tuicast" record "casts/$name.toml" -o "$out/$name.cast") > "$out/record.log" 2>&1 ||
                    { echo "round $r $rule: tuicast record $toml failed" >&2; cat "$out/record.log" >&2; exit 1; }
                "$tuicast" info --json "$out/$name.cast" |
                    python3 -c 'import json,sys
d=json.load(sys.stdin)
for c in d["checkpoints"][:-1]:
    if c["overhead_ms"] is not None: print(c["overhead_ms"])' >> "$out/overhead-$tag"
            done
        done
        printf '%s %s\n' "$rule" "$total" >> "$out/suite"
        printf 'round %d  %-12s suite %.3f s\n' "$r" "$rule" "$total"
    done
done
python3 - "$out" "$@" <<'EOF'
import sys, statistics, re
out, rules = sys.argv[1], sys.argv[2:]
suite = {}
for line in open(f"{out}/suite"):
    rule, t = line.split()
    suite.setdefault(rule, []).append(float(t))
base = rules[0]
for rule in rules:
    tag = re.sub("[^a-z0-9]", "-", rule)
    o = sorted(float(x) for x in open(f"{out}/overhead-{tag}"))
    p95 = o[min(len(o) - 1, int(0.95 * len(o) + 0.999999) - 1)]
    med = statistics.median(suite[rule])
    ratio = [b / a for a, b in zip(suite[base], suite[rule])]
    print(f"{rule:12} suite median {med:.3f} s (min {min(suite[rule]):.3f}, max {max(suite[rule]):.3f}); "
          f"vs {base}: {statistics.median(ratio):.2f}x per round; "
          f"overhead median {statistics.median(o):.1f} ms, p95 {p95:.1f} ms, max {o[-1]:.1f} ms over {len(o)} checkpoints")
EOF
