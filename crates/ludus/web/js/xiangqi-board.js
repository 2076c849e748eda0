// The Xiangqi board on a canvas: the grid with its river, palaces and point
// marks, coordinates for both sides (and ICCS letters), pieces as discs
// bearing their characters, and the marks of play (last move, selection,
// targets, check, hint). Squares are ICCS names: file a–i, rank 0–9 from
// Red's side.

import { scaledContext } from './canvas.js';

const TRADITIONAL = {
  K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵',
  k: '將', a: '士', b: '象', n: '馬', r: '車', c: '砲', p: '卒',
};
const SIMPLIFIED = {
  K: '帅', A: '仕', B: '相', N: '马', R: '车', C: '炮', P: '兵',
  k: '将', a: '士', b: '象', n: '马', r: '车', c: '炮', p: '卒',
};
// The pieces' characters: the player's choice, as the move list writes them.
export const CHARS = { ...TRADITIONAL };
export function setCharacters(name) {
  Object.assign(CHARS, name === 'simplified' ? SIMPLIFIED : TRADITIONAL);
}
const FILES = 'abcdefghi';
const CHINESE_DIGITS = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
// A brush (Kaiti) face where the system has one, else the subset of Noto
// Serif CJK that the page ships (fonts/, see ludus.css), so the pieces carry
// their characters on a machine with no Chinese fonts at all.
export const FONT = '"Kaiti SC", KaiTi, STKaiti, "AR PL UKai CN", "Ludus Xiangqi Pieces", serif';
const TEXT_FONT = 'system-ui, "Ludus Xiangqi Text", sans-serif';

// Resolves once the shipped faces are loaded: a canvas keeps what it drew
// with a fallback face, so callers draw again then.
export const fontsReady = document.fonts
  ? Promise.all([
    document.fonts.load('bold 20px "Ludus Xiangqi Pieces"', '帥'),
    document.fonts.load('20px "Ludus Xiangqi Text"', '帥'),
  ]).catch(() => [])
  : Promise.resolve([]);

// The board of a FEN: { cells: Map square → letter, turn: 'w' | 'b' }.
export function parseFen(fen) {
  const [board = '', turn = 'w'] = fen.trim().split(/\s+/);
  const cells = new Map();
  board.split('/').forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (ch >= '1' && ch <= '9') file += Number(ch);
      else { if (file < 9) cells.set(`${FILES[file]}${9 - i}`, ch); file += 1; }
    }
  });
  return { cells, turn: turn === 'b' ? 'b' : 'w' };
}

// The board field of a FEN from cells.
export function boardFen(cells) {
  const rows = [];
  for (let rank = 9; rank >= 0; rank--) {
    let row = '', empty = 0;
    for (let f = 0; f < 9; f++) {
      const p = cells.get(`${FILES[f]}${rank}`);
      if (p) { if (empty) row += empty; empty = 0; row += p; } else empty += 1;
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return rows.join('/');
}

export const isRed = (letter) => letter === letter.toUpperCase();

// Size and placement of the board in a canvas of css size w × h.
export function geometry(w, h, flipped) {
  const s = Math.max(16, Math.floor(Math.min(w / 9.6, h / 11.3)));
  const width = Math.round(s * 9.6), height = Math.round(s * 11.3);
  const ox = Math.round(s * 0.8), oy = Math.round(s * 0.95);
  return {
    s, width, height, ox, oy, flipped,
    point(sq) {
      const f = FILES.indexOf(sq[0]), r = Number(sq[1]);
      const col = flipped ? 8 - f : f, row = flipped ? r : 9 - r;
      return [ox + col * s, oy + row * s];
    },
    square(x, y) {
      const col = Math.round((x - ox) / s), row = Math.round((y - oy) / s);
      if (col < 0 || col > 8 || row < 0 || row > 9) return null;
      const f = flipped ? 8 - col : col, r = flipped ? row : 9 - row;
      return `${FILES[f]}${r}`;
    },
  };
}

function line(g, x1, y1, x2, y2) { g.beginPath(); g.moveTo(x1, y1); g.lineTo(x2, y2); g.stroke(); }

// Small corner marks of the cannon and soldier points.
function pointMark(g, x, y, s, left, right) {
  const d = s * 0.08, l = s * 0.18;
  for (const sx of [-1, 1]) {
    if ((sx < 0 && !left) || (sx > 0 && !right)) continue;
    for (const sy of [-1, 1]) {
      g.beginPath();
      g.moveTo(x + sx * (d + l), y + sy * d);
      g.lineTo(x + sx * d, y + sy * d);
      g.lineTo(x + sx * d, y + sy * (d + l));
      g.stroke();
    }
  }
}

export function drawGrid(g, geo) {
  const { s, width, height, ox, oy } = geo;
  g.fillStyle = '#e4bf7a';
  g.fillRect(0, 0, width, height);
  g.strokeStyle = '#6b4521';
  g.lineWidth = Math.max(2, s / 14);
  g.strokeRect(ox - s * 0.12, oy - s * 0.12, 8 * s + s * 0.24, 9 * s + s * 0.24);
  g.lineWidth = Math.max(1, s / 32);
  for (let row = 0; row < 10; row++) line(g, ox, oy + row * s, ox + 8 * s, oy + row * s);
  for (let col = 0; col < 9; col++) {
    if (col === 0 || col === 8) line(g, ox + col * s, oy, ox + col * s, oy + 9 * s);
    else { line(g, ox + col * s, oy, ox + col * s, oy + 4 * s); line(g, ox + col * s, oy + 5 * s, ox + col * s, oy + 9 * s); }
  }
  for (const top of [0, 7]) {
    line(g, ox + 3 * s, oy + top * s, ox + 5 * s, oy + (top + 2) * s);
    line(g, ox + 5 * s, oy + top * s, ox + 3 * s, oy + (top + 2) * s);
  }
  for (const row of [2, 7]) for (const col of [1, 7]) pointMark(g, ox + col * s, oy + row * s, s, true, true);
  for (const row of [3, 6]) for (let col = 0; col <= 8; col += 2) pointMark(g, ox + col * s, oy + row * s, s, col > 0, col < 8);
  // The river.
  g.fillStyle = '#6b4521';
  g.font = `${Math.round(s * 0.5)}px ${FONT}`;
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  const ry = oy + 4.5 * s;
  const [left, right] = geo.flipped ? ['漢 界', '楚 河'] : ['楚 河', '漢 界'];
  g.fillText(left, ox + 2 * s, ry);
  g.fillText(right, ox + 6 * s, ry);
  // Coordinates: each side's file numbers on its own edge (Red in Chinese
  // numerals, right to left as Red sees it; Black in digits), ICCS letters
  // under the bottom edge and rank digits on the left.
  g.fillStyle = '#5a3a1a';
  g.font = `${Math.round(s * 0.3)}px ${TEXT_FONT}`;
  for (let col = 0; col < 9; col++) {
    const x = ox + col * s;
    const f = geo.flipped ? 8 - col : col;
    const red = CHINESE_DIGITS[8 - f], black = String(f + 1);
    g.fillText(geo.flipped ? red : black, x, oy - s * 0.66);
    g.fillText(geo.flipped ? black : red, x, oy + 9 * s + s * 0.68);
    g.fillStyle = '#8a6a40';
    g.font = `${Math.round(s * 0.24)}px ui-monospace, monospace`;
    g.fillText(FILES[f], x, oy + 9 * s + s * 1.05);
    g.fillStyle = '#5a3a1a';
    g.font = `${Math.round(s * 0.3)}px ${TEXT_FONT}`;
  }
  g.fillStyle = '#8a6a40';
  g.font = `${Math.round(s * 0.24)}px ui-monospace, monospace`;
  for (let row = 0; row < 10; row++) {
    const r = geo.flipped ? row : 9 - row;
    g.fillText(String(r), ox - s * 0.64, oy + row * s);
  }
}

export function drawPiece(g, x, y, s, letter, lifted = false, alpha = 1) {
  const r = s * 0.44;
  const red = isRed(letter);
  g.save();
  g.globalAlpha = alpha;
  g.shadowColor = '#00000070';
  g.shadowBlur = lifted ? s * 0.3 : s * 0.08;
  g.shadowOffsetY = lifted ? s * 0.12 : s * 0.04;
  const grad = g.createRadialGradient(x - r * 0.3, y - r * 0.35, r * 0.1, x, y, r);
  grad.addColorStop(0, '#fff6df');
  grad.addColorStop(1, '#e9cf97');
  g.fillStyle = grad;
  g.beginPath(); g.arc(x, y, r, 0, Math.PI * 2); g.fill();
  g.restore();
  g.save();
  g.globalAlpha = alpha;
  const ink = red ? '#b5222a' : '#1f1f1f';
  g.strokeStyle = ink;
  g.lineWidth = Math.max(1, s * 0.035);
  g.beginPath(); g.arc(x, y, r * 0.84, 0, Math.PI * 2); g.stroke();
  g.strokeStyle = '#8a6a3a';
  g.beginPath(); g.arc(x, y, r, 0, Math.PI * 2); g.stroke();
  g.fillStyle = ink;
  g.font = `bold ${Math.round(s * 0.5)}px ${FONT}`;
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText(CHARS[letter] || '?', x, y + s * 0.03);
  g.restore();
}

// Corner brackets around a point (last move, hint).
function brackets(g, x, y, s, colour) {
  const d = s * 0.48, l = s * 0.16;
  g.strokeStyle = colour;
  g.lineWidth = Math.max(2, s * 0.06);
  for (const sx of [-1, 1]) for (const sy of [-1, 1]) {
    g.beginPath();
    g.moveTo(x + sx * d, y + sy * (d - l));
    g.lineTo(x + sx * d, y + sy * d);
    g.lineTo(x + sx * (d - l), y + sy * d);
    g.stroke();
  }
}

// Draws a whole position with its marks:
// { cells, last: 'h2e2', selected: 'h2', targets: [...], check: 'e0', hint: 'h2e2', drag: {from, x, y},
//   slide: { letter, from, to, t, fading: { sq, letter, appear } } } (see slideBetween; t the eased
// progress). Returns the sliding piece as drawn, { letter, from, to, t, x, y }, or null.
export function drawBoard(g, geo, view) {
  const { s } = geo;
  drawGrid(g, geo);
  if (view.last) {
    const [fx, fy] = geo.point(view.last.slice(0, 2));
    g.fillStyle = '#2f6fb040';
    g.beginPath(); g.arc(fx, fy, s * 0.2, 0, Math.PI * 2); g.fill();
    const [tx, ty] = geo.point(view.last.slice(2, 4));
    brackets(g, tx, ty, s, '#2f6fb0');
  }
  if (view.hint) {
    for (const sq of [view.hint.slice(0, 2), view.hint.slice(2, 4)]) {
      const [x, y] = geo.point(sq);
      brackets(g, x, y, s, '#12a08a');
    }
  }
  if (view.check) {
    const [x, y] = geo.point(view.check);
    const glow = g.createRadialGradient(x, y, s * 0.3, x, y, s * 0.62);
    glow.addColorStop(0, '#ff2a2ad0');
    glow.addColorStop(1, '#ff2a2a00');
    g.fillStyle = glow;
    g.beginPath(); g.arc(x, y, s * 0.62, 0, Math.PI * 2); g.fill();
  }
  const slide = view.slide;
  for (const [sq, letter] of view.cells) {
    if (view.drag && view.drag.moved && view.drag.from === sq) continue;
    if (slide && (sq === slide.to || (slide.fading && slide.fading.appear && sq === slide.fading.sq))) continue;
    const [x, y] = geo.point(sq);
    drawPiece(g, x, y, s, letter);
  }
  // A sliding piece: over the others, the piece it takes fading under it.
  let moving = null;
  if (slide) {
    const { fading } = slide;
    if (fading) {
      const [x, y] = geo.point(fading.sq);
      drawPiece(g, x, y, s, fading.letter, false, fading.appear ? slide.t : 1 - slide.t);
    }
    const [fx, fy] = geo.point(slide.from);
    const [tx, ty] = geo.point(slide.to);
    moving = { letter: slide.letter, from: slide.from, to: slide.to, t: slide.t, x: fx + (tx - fx) * slide.t, y: fy + (ty - fy) * slide.t };
    drawPiece(g, moving.x, moving.y, s, slide.letter, slide.t < 1);
  }
  if (view.selected) {
    const [x, y] = geo.point(view.selected);
    g.strokeStyle = '#f0c020';
    g.lineWidth = Math.max(2, s * 0.08);
    g.beginPath(); g.arc(x, y, s * 0.48, 0, Math.PI * 2); g.stroke();
  }
  for (const sq of view.targets || []) {
    const [x, y] = geo.point(sq);
    if (view.cells.has(sq)) {
      g.strokeStyle = '#2aa84acc';
      g.lineWidth = Math.max(2, s * 0.07);
      g.beginPath(); g.arc(x, y, s * 0.47, 0, Math.PI * 2); g.stroke();
    } else {
      g.fillStyle = '#2aa84acc';
      g.beginPath(); g.arc(x, y, s * 0.13, 0, Math.PI * 2); g.fill();
    }
  }
  if (view.drag && view.drag.moved) {
    const letter = view.cells.get(view.drag.from);
    if (letter) drawPiece(g, view.drag.x, view.drag.y, s, letter, true);
  }
  return moving;
}

// ---------------------------------------------------------------- slides

// How long one piece takes to slide, in milliseconds.
export const SLIDE_MS = 200;

// The slide of one move between two boards (Maps square → letter) a ply
// apart: forward, `after` follows `before` by `uci` and a taken piece fades
// out; backward, `after` precedes `before` and the taken piece fades back
// in. Null when the boards do not agree with the move (another game).
// The slide carries `after` as `cells`: the board to draw under it.
export function slideBetween(before, after, uci, forward) {
  if (typeof uci !== 'string' || uci.length < 4) return null;
  const a = uci.slice(0, 2), b = uci.slice(2, 4);
  const [from, to] = forward ? [a, b] : [b, a];
  const letter = after.get(to);
  const later = forward ? after : before;
  if (!letter || before.get(from) !== letter || later.has(a)) return null;
  const taken = forward ? before.get(b) : after.get(b);
  return { letter, from, to, cells: after, fading: taken ? { sq: b, letter: taken, appear: !forward } : null };
}

// Ease-in-out (cubic): a slide starts and stops gently.
export function ease(t) {
  const u = Math.min(1, Math.max(0, t));
  return u < 0.5 ? 4 * u * u * u : 1 - ((-2 * u + 2) ** 3) / 2;
}

// Slides played one after another, each `ms` long, redrawn by `draw` on
// every animation frame; `element` carries data-animating="1" meanwhile
// (for tests and styles). Starting new slides, or finish(), ends the ones
// under way at once: a slide never holds up the player.
export class BoardMotion {
  constructor(element, draw) {
    this.element = element;
    this.draw = draw;
    this.steps = null;
    this.frame = 0;
  }

  start(steps, ms = SLIDE_MS) {
    this.finish(false);
    if (!steps.length) return;
    this.steps = steps;
    this.ms = ms;
    this.began = performance.now();
    this.element.dataset.animating = '1';
    this.frame = requestAnimationFrame(() => this.tick());
  }

  // Ends the slides under way (the pieces at their squares), redrawn unless told not to.
  finish(redraw = true) {
    if (!this.steps) return;
    cancelAnimationFrame(this.frame);
    this.steps = null;
    delete this.element.dataset.animating;
    if (redraw) this.draw();
  }

  // The slide under way with its eased progress `t`, or null.
  current(now = performance.now()) {
    if (!this.steps) return null;
    const elapsed = Math.max(0, now - this.began);
    const i = Math.floor(elapsed / this.ms);
    if (i >= this.steps.length) return null;
    return { ...this.steps[i], t: ease((elapsed - i * this.ms) / this.ms) };
  }

  tick() {
    if (!this.steps) return;
    if (performance.now() - this.began >= this.ms * this.steps.length) { this.finish(); return; }
    this.draw();
    this.frame = requestAnimationFrame(() => this.tick());
  }
}

// Sizes a canvas to its board for the space available; returns [context, geometry].
export function fitBoard(canvas, w, h, flipped) {
  const geo = geometry(w, h, flipped);
  return [scaledContext(canvas, [geo.width, geo.height]), geo];
}
