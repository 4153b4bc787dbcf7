#!/usr/bin/env bash
# Latency of one `press` + `wait` round trip through the session daemon, as an agent sees it:
# two `tuicast session` processes (each a fresh client: start, connect, one JSON line each
# way), the key reaching `cat` through the PTY, its echo through the live engine.
# Usage: scripts/bench-session.sh [ROUNDS] [TUICAST]   (default 200, target/release/tuicast)
set -euo pipefail
rounds=${1:-200}
bin=${2:-target/release/tuicast}
runtime=$(mktemp -d)
export XDG_RUNTIME_DIR=$runtime
trap 'kill "$(cat "$runtime/tuicast/daemon.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$runtime"' EXIT
"$bin" session start --name b -- cat >/dev/null
times=()
for i in $(seq 1 "$rounds"); do
  t0=$(date +%s%N)
  # Keys that spell a token no earlier round left on the screen: x, then the digits of i.
  # shellcheck disable=SC2046
  "$bin" session press b x $(echo "$i" | sed 's/./& /g') >/dev/null
  "$bin" session wait b --text "x$i" >/dev/null
  t1=$(date +%s%N)
  times+=($(( (t1 - t0) / 1000 )))
  # A new line for the next round, so the wait sees the new key only.
  "$bin" session press b Enter >/dev/null
done
printf '%s\n' "${times[@]}" | sort -n | awk -v n="$rounds" '
  { a[NR] = $1 }
  END {
    printf "rounds %d  median %.2f ms  p95 %.2f ms  min %.2f ms  max %.2f ms\n",
      n, a[int((n + 1) / 2)] / 1000, a[int(n * 0.95 + 0.5)] / 1000, a[1] / 1000, a[n] / 1000
  }'
