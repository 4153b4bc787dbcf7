#!/usr/bin/env bash
# Regenerates the bundled example suite in casts/ by recording real programs in tmux
# (see scripts/record_tmux.py), and tmux's own screen at every checkpoint in
# tests/fixtures/examples-oracle/NAME/CHECKPOINT.txt.
#
# Usage: scripts/record-examples.sh [--check] [NAME...]
#   NAME     record only these casts (shell vim less dialog progress); default: all
#   --check  afterwards, replay every checkpoint with target/release/tuicast and compare it
#            with tmux's screen, and convert every cast with asciinema (if installed)
#
# Needs: python3 (3.11), tmux, util-linux script, bash, vim, less, dialog.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
rec=(python3 scripts/record_tmux.py record)
oracle=tests/fixtures/examples-oracle
check=0
names=()
for arg in "$@"; do
  case $arg in
    --check) check=1 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    -*) echo "unknown option $arg" >&2; exit 2 ;;
    *) names+=("$arg") ;;
  esac
done
[ ${#names[@]} -gt 0 ] || names=(shell vim less dialog progress)

for tool in tmux script bash vim less dialog; do
  command -v "$tool" >/dev/null || { echo "record-examples: $tool is not installed" >&2; exit 2; }
done

work=$(mktemp -d /tmp/tuicast-examples.XXXXXX)
trap 'rm -rf "$work"' EXIT
bash_cmd='bash --norc --noprofile'

record_shell() {
  # a small folder with something for every colour ls knows
  local d=$work/shell
  mkdir -p "$d/src" "$d/docs"
  printf 'Demo project\n' >"$d/README.md"
  printf 'notes\n' >"$d/notes.txt"
  printf '#!/bin/sh\necho hi\n' >"$d/run.sh"
  chmod +x "$d/run.sh"
  printf 'fn main() {}\n' >"$d/src/main.rs"
  : >"$d/archive.tar.gz"
  ln -s README.md "$d/link"
  "${rec[@]}" -o casts/shell.cast --cmd "$bash_cmd" --cwd "$d" --oracle-dir "$oracle" \
    --wait '$ ' \
    --type 'ls --color=always' --press Enter --wait 'run.sh' --wait $'\n$ ' \
    --snapshot listing \
    --type "printf '\\e[1mbold\\e[0m \\e[31mred\\e[0m \\e[1;4;32mbold green underlined\\e[0m \\e[7minverse\\e[0m\\n'" \
    --press Enter --wait $'inverse\n$ ' \
    --snapshot styled \
    --type 'echo "café, naïve, 日本語, ✓"' --press Enter --wait $'✓\n$ ' \
    --snapshot unicode \
    --type exit --press Enter --exit 0
}

record_vim() {
  local d=$work/vim
  mkdir -p "$d"
  "${rec[@]}" -o casts/vim.cast --cmd "$bash_cmd" --cwd "$d" --oracle-dir "$oracle" \
    --wait '$ ' \
    --type "vim -u NONE -N -i NONE -c 'syntax on' hello.py" --press Enter \
    --wait '"hello.py" [New]' \
    --press i --wait '-- INSERT --' \
    --type '#!/usr/bin/env python3' --press Enter \
    --type 'def greet(name):' --press Enter \
    --type '    """Say hello."""' --press Enter \
    --type '    return f"Hello, {name}!"  # a comment' --press Enter \
    --press Enter \
    --type 'print(greet("world"), 42)' \
    --wait 'print(greet("world"), 42)' \
    --snapshot insert \
    --press Escape --wait-gone '-- INSERT --' \
    --type ':set number' --press Enter --wait '  1 #!/usr/bin/env python3' \
    --snapshot number \
    --type ':wq' --press Enter --wait-regex '^\$ vim .*hello\.py\n\$$' \
    --type exit --press Enter --exit 0
}

record_less() {
  local d=$work/less
  mkdir -p "$d"
  local words=(alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima)
  for i in $(seq 1 200); do
    if (( i % 37 == 0 )); then
      printf 'Line %03d: the needle is here, in line %d of 200\n' "$i" "$i"
    else
      printf 'Line %03d: %s %s %s\n' "$i" "${words[i % 12]}" "${words[(i * 5) % 12]}" \
        "${words[(i * 7) % 12]}"
    fi
  done >"$d/lines.txt"
  "${rec[@]}" -o casts/less.cast --cmd "$bash_cmd" --cwd "$d" --oracle-dir "$oracle" \
    --wait '$ ' \
    --type 'less lines.txt' --press Enter --wait 'Line 023:' --wait-regex '^lines\.txt$' \
    --snapshot first-page \
    --type '/needle' --press Enter --wait-regex '^Line 037:' \
    --snapshot search \
    --press q --wait-regex '^\$ less lines\.txt\n\$$' \
    --type exit --press Enter --exit 0
}

record_dialog() {
  local d=$work/dialog
  mkdir -p "$d"
  "${rec[@]}" -o casts/dialog.cast --cmd "$bash_cmd" --cwd "$d" --oracle-dir "$oracle" \
    --wait '$ ' \
    --type "dialog --backtitle 'tuicast examples' --title 'Fruit' --menu 'Pick a fruit:' 12 40 4 apple 'Crisp and red' banana 'Long and yellow' cherry 'Small and dark' durian 'Spiky' 2>choice.txt; echo \"picked: \$(cat choice.txt)\"" \
    --press Enter --wait 'Pick a fruit:' --wait '<Cancel>' \
    --snapshot menu \
    --press Down \
    --snapshot down \
    --press Enter --wait $'picked: banana\n$ ' \
    --type exit --press Enter --exit 0
}

record_progress() {
  local d=$work/progress
  mkdir -p "$d"
  # a carriage-return progress bar that pauses at 50% until Enter (read -s: not echoed)
  local loop="for i in \$(seq 0 10 100); do printf '\\r[%-10s] %3d%%' \"\$(printf '%*s' \$((i/10)) '' | tr ' ' '#')\" \"\$i\"; [ \$i = 50 ] && read -rs; sleep 0.05; done; echo"
  "${rec[@]}" -o casts/progress.cast --size 100x10 --cmd "$bash_cmd" --cwd "$d" \
    --oracle-dir "$oracle" \
    --wait '$ ' \
    --type "$loop" --press Enter --wait '[#####     ]  50%' \
    --snapshot half \
    --press Enter --wait $'[##########] 100%\n$ ' \
    --snapshot done \
    --type exit --press Enter --exit 0
}

mkdir -p casts "$oracle"
start=$SECONDS
for name in "${names[@]}"; do
  t0=$SECONDS
  "record_$name"
  printf 'recorded casts/%s.cast (%s bytes, %ss)\n' "$name" "$(wc -c <"casts/$name.cast")" \
    $((SECONDS - t0))
done
echo "recorded ${#names[@]} cast(s) in $((SECONDS - start))s"

if (( check )); then
  status=0
  tuicast=target/release/tuicast
  [ -x "$tuicast" ] || cargo build --release --quiet
  for name in "${names[@]}"; do
    if python3 scripts/record_tmux.py check "casts/$name.cast" "$oracle/$name" --tuicast "$tuicast"; then
      echo "check casts/$name.cast: every checkpoint matches tmux"
    else
      status=1
    fi
    asciinema=$(command -v asciinema || echo "$HOME/.cargo/bin/asciinema")
    if [ -x "$asciinema" ]; then
      rm -f "$work/$name.txt"
      if "$asciinema" convert -f txt "casts/$name.cast" "$work/$name.txt"; then
        echo "check casts/$name.cast: asciinema converts it"
      else
        status=1
      fi
    fi
  done
  exit $status
fi
