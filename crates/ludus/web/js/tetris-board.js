// What the Tetris page's three modules (solo tetris.js, versus against the bot
// tetris-versus.js, rooms tetris-room.js) share: the piece colours and shapes, the
// block and the small piece drawn in the hold and next boxes, one versus side drawn
// on a canvas, key names and the player's keymap, held keys, and time as text.

import { scaledContext } from './canvas.js';

export const ROWS = 22; // the board's rows: 20 visible and 2 above where pieces spawn
export const GAME_ACTIONS = ['left', 'right', 'soft_drop', 'hard_drop', 'rotate_cw', 'rotate_ccw', 'rotate_180', 'hold'];
const NAMED = {
  ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down', ' ': 'space',
  Enter: 'enter', Tab: 'tab', Backspace: 'backspace', Escape: 'esc', Shift: 'shift', Control: 'ctrl', Alt: 'alt',
};
export const COLOURS = { I: '#2ad4e8', O: '#f0d030', T: '#a848e8', S: '#48d048', Z: '#e84848', J: '#4870f0', L: '#f09030', X: '#8a8f9a' };
// Spawn shapes for the hold and next boxes, y down.
const SHAPES = {
  I: [[0, 0], [1, 0], [2, 0], [3, 0]], O: [[0, 0], [1, 0], [0, 1], [1, 1]],
  T: [[1, 0], [0, 1], [1, 1], [2, 1]], S: [[1, 0], [2, 0], [0, 1], [1, 1]],
  Z: [[0, 0], [1, 0], [1, 1], [2, 1]], J: [[0, 0], [0, 1], [1, 1], [2, 1]],
  L: [[2, 0], [0, 1], [1, 1], [2, 1]],
};

// One cell of a piece or the stack, lit on top and shaded below.
export function block(g, x, y, size, colour, alpha = 1) {
  g.globalAlpha = alpha;
  g.fillStyle = colour;
  g.fillRect(x + 1, y + 1, size - 2, size - 2);
  g.fillStyle = '#ffffff55';
  g.fillRect(x + 1, y + 1, size - 2, Math.max(2, size * 0.14));
  g.fillStyle = '#00000040';
  g.fillRect(x + 1, y + size - 1 - Math.max(2, size * 0.14), size - 2, Math.max(2, size * 0.14));
  g.globalAlpha = 1;
}

// A piece in a box (hold, next), centred.
export function mini(g, kind, x, y, w, h, size, dim) {
  const shape = SHAPES[kind];
  if (!shape) return;
  const cols = Math.max(...shape.map((c) => c[0])) + 1, rows = Math.max(...shape.map((c) => c[1])) + 1;
  const x0 = x + (w - cols * size) / 2, y0 = y + (h - rows * size) / 2;
  for (const [cx, cy] of shape) block(g, x0 + cx * size, y0 + cy * size, size, dim ? '#555b66' : COLOURS[kind]);
}

// Widths in cells of a versus side: a full one (hold 5, meter 1, matrix 10, next 5,
// gaps) and a compact one (meter, matrix, next 4).
export const FULL_W = 22;
export const COMPACT_W = 16;
const COMPACT_SMALL = 0.65; // the compact board when both do not fit at full size
const MIN_CELL = 9;         // below this the boards are unreadable: the window is too narrow

// Cell sizes of a full board beside a compact one in `wrap`, or null when too narrow.
export function sideBySide(wrap) {
  const availW = wrap.clientWidth - 30, availH = Math.max(200, wrap.clientHeight - 70);
  let cell = Math.min(30, Math.floor(availH / ROWS));
  let compact = 1;
  if (cell * (FULL_W + COMPACT_W) > availW) {
    compact = COMPACT_SMALL;
    cell = Math.min(cell, Math.floor(availW / (FULL_W + COMPACT_W * COMPACT_SMALL)));
  }
  if (cell < MIN_CELL) return null;
  return { full: cell, compact: Math.max(6, Math.floor(cell * compact)) };
}

function stat(label, value) {
  const span = document.createElement('span');
  span.append(`${label} `);
  const b = document.createElement('b');
  b.textContent = value;
  span.append(b, ' ');
  return span;
}

// A versus side's live figures under its board, in `el`.
export function showStats(el, side) {
  const st = side.stats;
  el.innerHTML = '';
  el.append(stat('pieces', st.pieces), stat('PPS', st.pps.toFixed(2)), stat('lines', st.lines), document.createElement('br'),
    stat('attack', st.attack), stat('APP', st.app.toFixed(2)), stat('sent', st.sent), stat('APM', st.apm.toFixed(1)));
  el.dataset.pieces = st.pieces;
}

// One versus side (a `sides` entry of the `versus` or `room_state` message):
// [hold] meter matrix next. A full side has the hold box and a longer queue;
// `ghost` draws the ghost piece the state carries; `hidden` draws the frame only.
export function drawSide(canvas, side, cell, { full = true, ghost = true, hidden = false } = {}) {
  const holdW = full ? 5.5 : 0, nextW = full ? 5.5 : 4.5;
  const w = Math.ceil(cell * (holdW + 1.2 + 10 + nextW)), h = cell * ROWS;
  const g = scaledContext(canvas, [w, h]);
  g.clearRect(0, 0, w, h);
  const meterX = holdW * cell, mx = meterX + 1.2 * cell;
  const rowY = (y) => (ROWS - 1 - y) * cell;
  g.fillStyle = '#0b0f17';
  g.fillRect(mx, 2 * cell, 10 * cell, 20 * cell);
  if (!hidden) {
    for (let i = 20; i < side.board.length; i++) {
      const ch = side.board[i];
      if (ch !== '.') block(g, mx + (i % 10) * cell, Math.floor(i / 10) * cell, cell, COLOURS[ch] || COLOURS.X);
    }
    if (ghost && side.ghost && side.active) {
      g.strokeStyle = COLOURS[side.active.kind];
      g.globalAlpha = 0.6;
      g.lineWidth = Math.max(1, cell / 10);
      for (const [x, y] of side.ghost) if (y < ROWS) g.strokeRect(mx + x * cell + 2, rowY(y) + 2, cell - 4, cell - 4);
      g.globalAlpha = 1;
    }
    if (side.active) for (const [x, y] of side.active.cells) if (y < ROWS) block(g, mx + x * cell, rowY(y), cell, COLOURS[side.active.kind]);
  }
  g.strokeStyle = '#9aa3b5';
  g.lineWidth = 2;
  g.beginPath();
  g.moveTo(mx - 1, 2 * cell); g.lineTo(mx - 1, h - 1); g.lineTo(mx + 10 * cell + 1, h - 1); g.lineTo(mx + 10 * cell + 1, 2 * cell);
  g.stroke();
  // The garbage meter: ready lines (they rise at the next lock) red, delayed ones orange.
  const ready = Math.min(20, side.meter.ready), pending = Math.min(20 - ready, side.meter.pending);
  g.fillStyle = '#1f2636';
  g.fillRect(meterX, 2 * cell, cell * 0.8, 20 * cell);
  g.fillStyle = '#e84848';
  g.fillRect(meterX, h - ready * cell, cell * 0.8, ready * cell);
  g.fillStyle = '#f09030';
  g.fillRect(meterX, h - (ready + pending) * cell, cell * 0.8, pending * cell);
  const label = (text, x, y) => {
    g.fillStyle = '#9aa3b5';
    g.font = `600 ${Math.max(9, Math.floor(cell * 0.6))}px system-ui, sans-serif`;
    g.textBaseline = 'top';
    g.fillText(text, x, y);
  };
  if (full) {
    label('HOLD', 0, 2 * cell);
    g.fillStyle = '#1f2636';
    g.fillRect(0, 3 * cell, 5 * cell, 3 * cell);
    if (side.hold && !hidden) mini(g, side.hold, 0, 3 * cell, 5 * cell, 3 * cell, Math.floor(cell * 0.8), !side.can_hold);
  }
  const nx = mx + 10 * cell + 0.5 * cell, nw = (nextW - 0.5) * cell;
  const next = hidden ? '' : side.next.slice(0, full ? 5 : 3);
  label('NEXT', nx, 2 * cell);
  g.fillStyle = '#1f2636';
  g.fillRect(nx, 3 * cell, nw, Math.max(1, next.length) * 3 * cell);
  for (let i = 0; i < next.length; i++) mini(g, next[i], nx, 3 * cell + i * 3 * cell, nw, 3 * cell, Math.floor(cell * (i === 0 ? 0.8 : 0.65)), false);
}

// The key's name as the settings spell it ("left", "space", "x"), or null.
export function keyName(e) {
  if (NAMED[e.key]) return NAMED[e.key];
  return e.key.length === 1 ? e.key : null;
}

// Key name → binding for `binds`, from the player's keys; the first binding keeps a
// key bound twice, as in the terminal.
export function keymapOf(keys, binds) {
  const map = new Map();
  for (const bind of binds) {
    for (const name of keys[bind] || []) if (!map.has(name)) map.set(name, bind);
  }
  return map;
}

export function lookup(keymap, name) {
  return keymap.get(name) || keymap.get(name.toLowerCase());
}

// The physical keys held down (key code → action): two keys for one action send one
// press and one release.
export class HeldKeys {
  constructor() { this.held = new Map(); }
  has(code) { return this.held.has(code); }
  clear() { this.held.clear(); }
  codes() { return [...this.held.keys()]; }
  // Holds `code`; true when the action's press is to be sent.
  press(code, action) {
    if (this.held.has(code)) return false;
    const already = [...this.held.values()].includes(action);
    this.held.set(code, action);
    return !already;
  }
  // Lets go of `code`; the action whose release is to be sent, or null.
  release(code) {
    const action = this.held.get(code);
    if (!action) return null;
    this.held.delete(code);
    return [...this.held.values()].includes(action) ? null : action;
  }
}

// "m:ss.d".
export function timeText(ms) {
  const m = Math.floor(ms / 60000), s = Math.floor(ms / 1000) % 60, d = Math.floor(ms / 100) % 10;
  return `${m}:${String(s).padStart(2, '0')}.${d}`;
}
