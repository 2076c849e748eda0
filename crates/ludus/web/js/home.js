// The home page: the three games, each with a drawn picture and the
// player's progress from the shared data dir.

import { drawThumb } from './sprites.js';

const $ = (id) => document.getElementById(id);

function fit(canvas) {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(canvas.clientWidth * ratio);
  canvas.height = Math.round(canvas.clientHeight * ratio);
  const g = canvas.getContext('2d');
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  return [g, canvas.clientWidth, canvas.clientHeight];
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
  const [g, w, h] = fit(canvas);
  g.fillStyle = '#d9b26a';
  g.fillRect(0, 0, w, h);
  const s = Math.floor(h / 5);
  const x0 = (w - 8 * s) / 2;
  g.strokeStyle = '#5a3a1a';
  for (let i = 0; i < 9; i++) { g.beginPath(); g.moveTo(x0 + i * s, s / 2); g.lineTo(x0 + i * s, h - s / 2); g.stroke(); }
  for (let j = 0; j < 5; j++) { g.beginPath(); g.moveTo(x0, s / 2 + j * s * 0.98); g.lineTo(x0 + 8 * s, s / 2 + j * s * 0.98); g.stroke(); }
  const pieces = [[4, 4, 'K', '#b02020'], [3, 3, 'A', '#b02020'], [1, 2, 'C', '#b02020'], [6, 1, 'H', '#202020'], [4, 0, 'K', '#202020']];
  for (const [x, y, ch, colour] of pieces) {
    const cx = x0 + x * s, cy = s / 2 + y * s * 0.98;
    g.beginPath(); g.arc(cx, cy, s * 0.42, 0, Math.PI * 2);
    g.fillStyle = '#f3e1b5'; g.fill(); g.strokeStyle = colour; g.lineWidth = 2; g.stroke();
    g.fillStyle = colour; g.font = `bold ${Math.floor(s * 0.45)}px sans-serif`; g.textAlign = 'center'; g.textBaseline = 'middle';
    g.fillText(ch, cx, cy + 1);
  }
}

const SAMPLE = '  #####\n###   #\n#.@$  #\n### $.#\n#.##$ #\n# # . ##\n#$ *$$.#\n#   .  #\n########';

async function main() {
  drawThumb($('art-sokoban'), SAMPLE);
  drawTetris($('art-tetris'));
  drawXiangqi($('art-xiangqi'));
  try {
    const summary = await (await fetch('/api/summary')).json();
    const s = summary.sokoban;
    $('status-sokoban').innerHTML = `<b>${s.solved}</b> of ${s.levels} levels solved in ${s.collections} collection${s.collections === 1 ? '' : 's'}.`;
    const best = summary.tetris.best;
    $('status-tetris').textContent = best.length
      ? `Best: ${best.map((b) => `${b.mode} ${b.score.toLocaleString()}`).join(' · ')}`
      : 'No games yet. Marathon, Sprint, Ultra and Zen.';
    const x = summary.xiangqi;
    if (x.saved) $('status-xiangqi').innerHTML = `<b>${x.saved}</b> saved game${x.saved === 1 ? '' : 's'} · against Ludus ${x.won} won, ${x.lost} lost, ${x.drawn} drawn.`;
  } catch (e) {
    $('status-sokoban').textContent = `Progress unavailable: ${e}`;
  }
}

main();
