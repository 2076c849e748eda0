// The home page: the three games, each with a drawn picture and the
// player's progress from the shared data dir.

import { drawThumb } from './sprites.js';
import { FONT, drawPiece, fontsReady } from './xiangqi-board.js';
import { scaledContext } from './canvas.js';

const $ = (id) => document.getElementById(id);

function fit(canvas) {
  return [scaledContext(canvas), canvas.clientWidth, canvas.clientHeight];
}

function drawTetris(canvas) {
  const [g, w, h] = fit(canvas);
  const s = Math.floor(h / 7);
  const colours = ['#00c8e0', '#e0c000', '#a040e0', '#40c040', '#e04040', '#4060e0', '#e08020'];
  const cells = [
    [0, 6, 0], [1, 6, 0], [2, 6, 0], [3, 6, 0], [4, 6, 5], [5, 6, 5], [6, 6, 3], [7, 6, 3], [8, 6, 6],
    [0, 5, 4], [1, 5, 4], [2, 5, 1], [3, 5, 1], [4, 5, 5], [6, 5, 3], [7, 5, 6], [8, 5, 6], [9, 5, 6],
    [1, 4, 4], [2, 4, 1], [3, 4, 1], [5, 2, 2], [4, 1, 2], [5, 1, 2], [6, 1, 2],
  ];
  const x0 = Math.floor((w - 10 * s) / 2);
  for (const [x, y, c] of cells) {
    g.fillStyle = colours[c];
    g.fillRect(x0 + x * s + 1, y * s - s / 2 + 1, s - 2, s - 2);
    g.fillStyle = '#ffffff40';
    g.fillRect(x0 + x * s + 1, y * s - s / 2 + 1, s - 2, 3);
  }
}

function drawXiangqi(canvas) {
  // A shortened board (three ranks a side and the river between), pieces
  // drawn as on the Xiangqi page: discs with their characters in red and black.
  const [g, w, h] = fit(canvas);
  g.fillStyle = '#0e121b';
  g.fillRect(0, 0, w, h);
  const s = Math.floor(h / 5.9);
  const x0 = Math.round((w - 8 * s) / 2), y0 = Math.round((h - 5 * s) / 2);
  const X = (c) => x0 + c * s, Y = (r) => y0 + r * s;
  g.fillStyle = '#e4bf7a';
  g.fillRect(x0 - s * 0.55, 0, 8 * s + s * 1.1, h);
  const line = (a, b, c, d) => { g.beginPath(); g.moveTo(a, b); g.lineTo(c, d); g.stroke(); };
  g.strokeStyle = '#6b4521';
  g.lineWidth = 1;
  for (let r = 0; r < 6; r++) line(X(0), Y(r), X(8), Y(r));
  for (let c = 0; c < 9; c++) {
    if (c === 0 || c === 8) line(X(c), Y(0), X(c), Y(5));
    else { line(X(c), Y(0), X(c), Y(2)); line(X(c), Y(3), X(c), Y(5)); }
  }
  // The palaces: Black's at the top edge, Red's at the bottom.
  line(X(3), Y(0), X(5), Y(2)); line(X(5), Y(0), X(3), Y(2));
  line(X(3), Y(3), X(5), Y(5)); line(X(5), Y(3), X(3), Y(5));
  g.lineWidth = 2;
  g.strokeRect(X(0) - 3, Y(0) - 3, 8 * s + 6, 5 * s + 6);
  // The river.
  g.fillStyle = '#6b4521';
  g.font = `${Math.round(s * 0.55)}px ${FONT}`;
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText('楚 河', X(2), Y(2.5));
  g.fillText('漢 界', X(6), Y(2.5));
  const pieces = [
    [0, 0, 'r'], [3, 0, 'a'], [4, 0, 'k'], [6, 1, 'n'], [1, 1, 'c'], [0, 2, 'p'],
    [8, 3, 'P'], [4, 4, 'C'], [7, 4, 'N'], [4, 5, 'K'], [5, 5, 'A'], [8, 5, 'R'],
  ];
  for (const [c, row, letter] of pieces) drawPiece(g, X(c), Y(row), s, letter);
}

const SAMPLE = '  #####\n###   #\n#.@$  #\n### $.#\n#.##$ #\n# # . ##\n#$ *$$.#\n#   .  #\n########';

async function main() {
  drawThumb($('art-sokoban'), SAMPLE);
  drawTetris($('art-tetris'));
  drawXiangqi($('art-xiangqi'));
  fontsReady.then(() => drawXiangqi($('art-xiangqi')));
  try {
    const summary = await (await fetch('/api/summary')).json();
    const s = summary.sokoban;
    $('status-sokoban').innerHTML = `<b>${s.solved}</b> of ${s.levels} levels solved in ${s.collections} collection${s.collections === 1 ? '' : 's'}.`;
    const best = summary.tetris.best;
    $('status-tetris').textContent = best.length
      ? `Best: ${best.map((b) => `${b.mode} ${b.score.toLocaleString()}`).join(' · ')}`
      : 'No games yet. Marathon, Sprint, Ultra and Zen.';
    const x = summary.xiangqi;
    // Data files that could not be read were moved aside: say so once.
    for (const text of summary.warnings || []) {
      const p = document.createElement('p');
      p.className = 'message warn';
      p.textContent = text;
      document.querySelector('main').prepend(p);
    }
    if (x.saved) $('status-xiangqi').innerHTML = `<b>${x.saved}</b> saved game${x.saved === 1 ? '' : 's'} · against Ludus ${x.won} won, ${x.lost} lost, ${x.drawn} drawn.`;
  } catch (e) {
    $('status-sokoban').textContent = `Progress unavailable: ${e}`;
  }
}

main();
