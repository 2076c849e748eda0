// Sokoban sprites drawn on a canvas: walls, floor, goals, boxes, boxes on
// goals and a worker who faces the way he walks. No image files: every tile
// is drawn at the cell size, so the board stays sharp at any scale.

const C = {
  floor: '#2b3347', floorLine: '#232a3b', wall: '#8a5a3c', wallDark: '#5e3c27',
  wallLight: '#a8714c', goal: '#e6be50', box: '#c8873a', boxDark: '#7a4a1c',
  boxLight: '#e0a45a', done: '#5cc06a', doneDark: '#2c6a34', red: '#e05a4f',
  skin: '#f1c27d', shirt: '#3f7fd0', hair: '#3a2a1a', outside: 'transparent',
};

function roundRect(g, x, y, w, h, r) {
  g.beginPath();
  g.moveTo(x + r, y);
  g.arcTo(x + w, y, x + w, y + h, r);
  g.arcTo(x + w, y + h, x, y + h, r);
  g.arcTo(x, y + h, x, y, r);
  g.arcTo(x, y, x + w, y, r);
  g.closePath();
}

export function drawFloor(g, x, y, s) {
  g.fillStyle = C.floor;
  g.fillRect(x, y, s, s);
  g.strokeStyle = C.floorLine;
  g.lineWidth = Math.max(1, s / 32);
  g.strokeRect(x + 0.5, y + 0.5, s - 1, s - 1);
}

export function drawWall(g, x, y, s) {
  g.fillStyle = C.wallDark;
  g.fillRect(x, y, s, s);
  // Two rows of bricks, offset, with light top edges.
  const h = s / 2, m = Math.max(1, s / 16);
  for (let row = 0; row < 2; row++) {
    const off = row === 0 ? 0 : -s / 4;
    for (let col = -1; col < 3; col++) {
      const bx = x + off + col * (s / 2);
      const left = Math.max(bx + m / 2, x), right = Math.min(bx + s / 2 - m / 2, x + s);
      if (right <= left) continue;
      g.fillStyle = C.wall;
      g.fillRect(left, y + row * h + m / 2, right - left, h - m);
      g.fillStyle = C.wallLight;
      g.fillRect(left, y + row * h + m / 2, right - left, Math.max(1, m));
    }
  }
}

export function drawGoal(g, x, y, s) {
  const cx = x + s / 2, cy = y + s / 2, r = s * 0.22;
  g.save();
  g.shadowColor = C.goal;
  g.shadowBlur = s / 6;
  g.strokeStyle = C.goal;
  g.lineWidth = Math.max(1.5, s / 14);
  g.beginPath();
  g.moveTo(cx, cy - r); g.lineTo(cx + r, cy); g.lineTo(cx, cy + r); g.lineTo(cx - r, cy);
  g.closePath();
  g.stroke();
  g.restore();
}

export function drawBox(g, x, y, s, { onGoal = false, danger = false, selected = false } = {}) {
  const p = s * 0.08, w = s - 2 * p, r = s * 0.1;
  const face = onGoal ? C.done : C.box, dark = onGoal ? C.doneDark : C.boxDark;
  roundRect(g, x + p, y + p, w, w, r);
  g.fillStyle = face;
  g.fill();
  g.lineWidth = Math.max(1.5, s / 14);
  g.strokeStyle = dark;
  g.stroke();
  // Planks: a frame and a diagonal brace.
  const q = p + s * 0.16;
  g.beginPath();
  g.rect(x + q, y + q, s - 2 * q, s - 2 * q);
  g.moveTo(x + q, y + q); g.lineTo(x + s - q, y + s - q);
  g.moveTo(x + s - q, y + q); g.lineTo(x + q, y + s - q);
  g.lineWidth = Math.max(1, s / 20);
  g.stroke();
  if (!onGoal) {
    g.fillStyle = C.boxLight;
    g.fillRect(x + p + r, y + p + g.lineWidth, w - 2 * r, Math.max(1, s / 24));
  }
  if (danger || selected) {
    g.save();
    roundRect(g, x + 1.5, y + 1.5, s - 3, s - 3, r);
    g.lineWidth = Math.max(2, s / 10);
    g.strokeStyle = danger ? C.red : '#5ad0ff';
    g.shadowColor = g.strokeStyle;
    g.shadowBlur = s / 5;
    g.stroke();
    g.restore();
  }
}

// The worker: facing is 'left' | 'up' | 'right' | 'down'.
export function drawWorker(g, x, y, s, facing = 'down') {
  const cx = x + s / 2, cy = y + s / 2;
  // Body.
  g.fillStyle = C.shirt;
  roundRect(g, cx - s * 0.2, cy - s * 0.02, s * 0.4, s * 0.36, s * 0.12);
  g.fill();
  // Head, seen from the back when walking up.
  const hr = s * 0.19, hy = cy - s * 0.16;
  g.beginPath();
  g.arc(cx, hy, hr, 0, Math.PI * 2);
  g.fillStyle = facing === 'up' ? C.hair : C.skin;
  g.fill();
  g.lineWidth = Math.max(1, s / 28);
  g.strokeStyle = '#00000080';
  g.stroke();
  if (facing !== 'up') {
    // Hair on top, eyes looking the way he walks.
    g.beginPath();
    g.arc(cx, hy, hr, Math.PI * 1.05, Math.PI * 1.95);
    g.fillStyle = C.hair;
    g.fill();
    const look = facing === 'left' ? -1 : facing === 'right' ? 1 : 0;
    const er = Math.max(1, s * 0.035);
    g.fillStyle = '#1a1a1a';
    const eyes = look === 0 ? [-1, 1] : [look * 0.3, look * 1.3];
    for (const e of eyes) {
      g.beginPath();
      g.arc(cx + e * hr * 0.45, hy + hr * 0.15, er, 0, Math.PI * 2);
      g.fill();
    }
  }
  // Arms stretched forward (towards the push) when walking sideways or down.
  g.strokeStyle = C.skin;
  g.lineWidth = Math.max(1.5, s / 14);
  g.lineCap = 'round';
  g.beginPath();
  const dx = facing === 'left' ? -1 : facing === 'right' ? 1 : 0;
  const dy = facing === 'up' ? -1 : facing === 'down' ? 1 : 0;
  if (dx !== 0) {
    g.moveTo(cx, cy + s * 0.08);
    g.lineTo(cx + dx * s * 0.36, cy + s * 0.08);
  } else {
    g.moveTo(cx - s * 0.2, cy + s * 0.06);
    g.lineTo(cx - s * 0.26, cy + dy * s * 0.2 + s * 0.06);
    g.moveTo(cx + s * 0.2, cy + s * 0.06);
    g.lineTo(cx + s * 0.26, cy + dy * s * 0.2 + s * 0.06);
  }
  g.stroke();
  g.lineCap = 'butt';
}

// Draws the skin's image for `name` over the cell, if the skin has one.
function tile(g, skin, name, x, y, s) {
  const img = skin && skin[name];
  if (!img) return false;
  g.imageSmoothingEnabled = false;
  g.drawImage(img, x, y, s, s);
  return true;
}

// A whole board. `view`: { width, height, map: [rows of '#','-','.',' '],
// player, boxes: [cells], facing }; `marks`: { skin: tile images by name, danger: Set, selected, hover, bad: Map cell->'error'|'warning' }.
export function drawBoard(g, view, s, marks = {}) {
  const { width, height, map } = view;
  g.clearRect(0, 0, width * s, height * s);
  const boxes = new Set(view.boxes);
  for (let y = 0; y < height; y++) {
    const row = map[y] || '';
    for (let x = 0; x < width; x++) {
      const ch = row[x] || ' ';
      const cell = y * width + x;
      const px = x * s, py = y * s;
      if (ch === '#') { if (!tile(g, marks.skin, 'wall', px, py, s)) drawWall(g, px, py, s); continue; }
      if (ch === ' ') continue;
      if (!tile(g, marks.skin, 'floor', px, py, s)) drawFloor(g, px, py, s);
      if (ch === '.' && !tile(g, marks.skin, 'goal', px, py, s)) drawGoal(g, px, py, s);
      if (marks.hover === cell) {
        g.fillStyle = '#ffffff18';
        g.fillRect(px, py, s, s);
      }
    }
  }
  // A step in progress: the worker (and a pushed box) slide in from the
  // previous cell, `slide.dx`/`slide.dy` cells behind.
  const slide = marks.slide || { dx: 0, dy: 0, box: -1 };
  for (const cell of boxes) {
    let x = cell % width, y = Math.floor(cell / width);
    if (cell === slide.box) { x -= slide.dx; y -= slide.dy; }
    const onGoal = (map[y] || '')[x] === '.';
    if (tile(g, marks.skin, onGoal ? 'box-on-goal' : 'box', x * s, y * s, s)) continue;
    drawBox(g, x * s, y * s, s, {
      onGoal: (map[y] || '')[x] === '.',
      danger: marks.danger ? marks.danger.has(cell) : false,
      selected: marks.selected === cell,
    });
  }
  if (view.player != null && view.player >= 0) {
    const x = view.player % width - slide.dx, y = Math.floor(view.player / width) - slide.dy;
    const onGoal = (map[Math.floor(view.player / width)] || '')[view.player % width] === '.';
    const name = onGoal && marks.skin && marks.skin['player-on-goal'] ? 'player-on-goal' : `player-${view.facing || 'down'}`;
    if (!tile(g, marks.skin, name, x * s, y * s, s))
      drawWorker(g, x * s, y * s, s, view.facing);
  }
  if (marks.bad) {
    for (const [cell, kind] of marks.bad) {
      const x = cell % width, y = Math.floor(cell / width);
      g.save();
      g.strokeStyle = kind === 'error' ? C.red : C.goal;
      g.lineWidth = Math.max(2, s / 10);
      g.setLineDash([s / 6, s / 8]);
      g.strokeRect(x * s + 2, y * s + 2, s - 4, s - 4);
      g.restore();
    }
  }
}

// A view from XSB text (rows of # . $ * @ + space - _ p P b B).
export function viewFromXsb(xsb) {
  const lines = xsb.replace(/\r\n?/g, '\n').split('\n').filter((l, i, all) => l.length || i < all.length - 1);
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  const width = Math.max(1, ...lines.map((l) => l.length));
  const height = lines.length;
  const map = [], boxes = [];
  let player = -1;
  lines.forEach((line, y) => {
    let row = '';
    for (let x = 0; x < width; x++) {
      const ch = line[x] || ' ';
      const cell = y * width + x;
      if ('$*bB'.includes(ch)) boxes.push(cell);
      if ('@+pP'.includes(ch)) player = cell;
      row += ch === '#' ? '#' : '.*+PB'.includes(ch) ? '.' : ch === ' ' ? ' ' : '-';
    }
    map.push(row);
  });
  // Floor outside the walls is drawn as nothing: flood from the edges over spaces.
  const out = map.map((r) => r.split(''));
  const stack = [];
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
    if ((x === 0 || y === 0 || x === width - 1 || y === height - 1) && out[y][x] === ' ') stack.push([x, y]);
  }
  const seen = new Set();
  while (stack.length) {
    const [x, y] = stack.pop();
    const k = y * width + x;
    if (seen.has(k)) continue;
    seen.add(k);
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const nx = x + dx, ny = y + dy;
      if (nx >= 0 && ny >= 0 && nx < width && ny < height && out[ny][nx] === ' ') stack.push([nx, ny]);
    }
  }
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
    if (out[y][x] === ' ' && !seen.has(y * width + x)) out[y][x] = '-';
  }
  return { width, height, map: out.map((r) => r.join('')), boxes, player, facing: 'down' };
}

// A small drawing of a level for the browser's cards.
export function drawThumb(canvas, xsb) {
  const view = viewFromXsb(xsb);
  const ratio = window.devicePixelRatio || 1;
  const cw = canvas.clientWidth || 140, ch = canvas.clientHeight || 105;
  canvas.width = Math.round(cw * ratio);
  canvas.height = Math.round(ch * ratio);
  const s = Math.max(2, Math.floor(Math.min(canvas.width / view.width, canvas.height / view.height)));
  const g = canvas.getContext('2d');
  g.save();
  g.translate(Math.floor((canvas.width - s * view.width) / 2), Math.floor((canvas.height - s * view.height) / 2));
  drawBoard(g, view, s);
  g.restore();
}

/** The goal-assignment hint over the board: a line from each box to the
 * goal the solver's lower bound gives it, and a red ring with `!` on a box
 * that can reach no goal. */
export const GOAL_LINE = '#ff40ff';
export function drawGoalHint(g, width, s, goals) {
  const centre = (cell) => [(cell % width + 0.5) * s, (Math.floor(cell / width) + 0.5) * s];
  g.save();
  g.lineCap = 'round';
  for (const pair of goals.pairs) {
    const [bx, by] = centre(pair.box);
    if (pair.goal == null) {
      g.strokeStyle = '#ff3030';
      g.lineWidth = Math.max(2, s / 10);
      g.beginPath();
      g.arc(bx, by, s * 0.42, 0, Math.PI * 2);
      g.stroke();
      g.fillStyle = '#ff3030';
      g.font = `bold ${Math.round(s * 0.6)}px sans-serif`;
      g.textAlign = 'center';
      g.textBaseline = 'middle';
      g.fillText('!', bx, by);
      continue;
    }
    if (pair.goal === pair.box) continue;
    const [gx, gy] = centre(pair.goal);
    g.strokeStyle = GOAL_LINE;
    g.lineWidth = Math.max(2, s / 8);
    g.beginPath();
    g.moveTo(bx, by);
    g.lineTo(gx, gy);
    g.stroke();
    g.fillStyle = GOAL_LINE;
    g.beginPath();
    g.arc(gx, gy, Math.max(3, s / 6), 0, Math.PI * 2);
    g.fill();
  }
  g.restore();
}
