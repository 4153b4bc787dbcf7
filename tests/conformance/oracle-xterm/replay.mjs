// The second conformance oracle: replays an asciicast v3 file through @xterm/headless and
// prints, as JSON on stdout, the screen at every labelled marker and at the end.
//
//   node replay.mjs [--deccolm] CAST
//
// Each screen is written the way `tmux capture-pane -p -e -N` writes one: a line per row, SGR
// sequences where the style changes, each character once (the cell after a wide character is
// skipped). Unlike tmux, every cell of every row is written, so the style of every cell is
// known. Made by scripts/conformance.py (`npm install` in this folder first); never edit the
// output by hand.
//
// DECCOLM (CSI ? 3 h / l) is ignored, as xterm.js does by default and xterm does with its
// default resources (c132 false). With --deccolm it switches between 132 and 80 columns, as a
// VT100 does and xterm does with c132 true: `windowOptions.setWinLines` enables it in xterm.js.

import { readFileSync } from 'node:fs';
import xterm from '@xterm/headless';

const { Terminal } = xterm;

const args = process.argv.slice(2);
const deccolm = args[0] === '--deccolm';
const path = deccolm ? args[1] : args[0];
if (!path) {
  console.error('usage: node replay.mjs [--deccolm] CAST');
  process.exit(2);
}

const lines = readFileSync(path, 'utf8').split('\n');
const header = JSON.parse(lines[0]);
if (header.version !== 3) {
  console.error(`${path}: only asciicast v3 is supported`);
  process.exit(2);
}

const term = new Terminal({
  cols: header.term.cols,
  rows: header.term.rows,
  scrollback: 0,
  allowProposedApi: true,
  windowOptions: deccolm ? { setWinLines: true } : {},
});

const write = (data) => new Promise((resolve) => term.write(data, resolve));

function sgr(cell) {
  const p = ['0'];
  if (cell.isBold()) p.push('1');
  if (cell.isDim()) p.push('2');
  if (cell.isItalic()) p.push('3');
  if (cell.isUnderline()) p.push('4');
  if (cell.isBlink()) p.push('5');
  if (cell.isInverse()) p.push('7');
  if (cell.isInvisible()) p.push('8');
  if (cell.isStrikethrough()) p.push('9');
  const colour = (base, palette, rgb, isDefault, value) => {
    if (isDefault) return;
    if (rgb) {
      p.push(`${base + 8};2;${(value >> 16) & 255};${(value >> 8) & 255};${value & 255}`);
    } else if (palette) {
      if (value < 8) p.push(`${base + value}`);
      else if (value < 16) p.push(`${base + 60 + value - 8}`);
      else p.push(`${base + 8};5;${value}`);
    }
  };
  colour(30, cell.isFgPalette(), cell.isFgRGB(), cell.isFgDefault(), cell.getFgColor());
  colour(40, cell.isBgPalette(), cell.isBgRGB(), cell.isBgDefault(), cell.getBgColor());
  return `\x1b[${p.join(';')}m`;
}

function capture() {
  const buf = term.buffer.active;
  const out = [];
  let last = '';
  for (let y = 0; y < term.rows; y++) {
    const line = buf.getLine(buf.viewportY + y);
    let row = '';
    for (let x = 0; x < term.cols; x++) {
      const cell = line.getCell(x);
      if (cell.getWidth() === 0) continue;
      const style = sgr(cell);
      if (style !== last) {
        row += style;
        last = style;
      }
      row += cell.getChars() || ' ';
    }
    out.push(row);
  }
  return {
    screen: out.join('\n') + '\n',
    cursor: [buf.cursorY, buf.cursorX],
    alternate: buf.type === 'alternate',
    size: [term.cols, term.rows],
  };
}

const checkpoints = [];
const seen = new Map();
const unique = (label) => {
  const n = (seen.get(label) || 0) + 1;
  seen.set(label, n);
  return n === 1 ? label : `${label}-${n}`;
};

for (const text of lines.slice(1)) {
  if (!text.trim() || text.startsWith('#')) continue;
  const [, code, data] = JSON.parse(text);
  if (code === 'o') {
    await write(data);
  } else if (code === 'r') {
    const [cols, rows] = data.split('x').map(Number);
    term.resize(cols, rows);
  } else if (code === 'm' && data) {
    checkpoints.push({ name: unique(data), ...capture() });
  }
}
checkpoints.push({ name: unique('end'), ...capture() });
process.stdout.write(JSON.stringify({ checkpoints }, null, 1) + '\n');
