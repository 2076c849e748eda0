// The Tetris page in chromium: start a game from the home page, place
// pieces with the keyboard until a line clears, pause, reload into the same
// game, top out into the high-score table, save and watch the replay, and
// find the score still there after a reload. Any console error fails.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, useBrowser } from './helpers.js';

const env = useBrowser();
const { shot } = env;

const read = (page) => page.evaluate(() => {
  const p = window.__ludus;
  const s = p.state;
  return { kind: s.active && s.active.kind, rot: s.active && s.active.rot, cells: s.active && s.active.cells, pieces: s.pieces, lines: s.lines, board: p.board };
});

// Where a piece with `cells` shifted by dx lands on `board` (22 rows of 10, top first),
// and how good that is: the usual weights of lines, height, holes and bumpiness.
function evaluate(board, cells, dx) {
  const filled = (x, y) => board[(21 - y) * 10 + x] !== '.';
  const moved = cells.map(([x, y]) => [x + dx, y]);
  if (moved.some(([x]) => x < 0 || x > 9)) return null;
  let drop = 0;
  while (moved.every(([x, y]) => y - drop - 1 >= 0 && !filled(x, y - drop - 1))) drop++;
  const grid = [];
  for (let y = 0; y < 22; y++) grid.push(Array.from({ length: 10 }, (_, x) => filled(x, y)));
  for (const [x, y] of moved) if (y - drop < 22) grid[y - drop][x] = true;
  const kept = grid.filter((row) => !row.every(Boolean));
  const lines = grid.length - kept.length;
  const heights = Array.from({ length: 10 }, (_, x) => {
    for (let y = kept.length - 1; y >= 0; y--) if (kept[y][x]) return y + 1;
    return 0;
  });
  let holes = 0;
  for (let x = 0; x < 10; x++) for (let y = 0; y < heights[x] - 1; y++) if (!kept[y][x]) holes++;
  let bumps = 0;
  for (let x = 0; x < 9; x++) bumps += Math.abs(heights[x] - heights[x + 1]);
  const total = heights.reduce((a, b) => a + b, 0);
  return 0.76 * lines - 0.51 * total - 0.36 * holes - 0.18 * bumps;
}

// Tries every rotation (asking the server for its cells) and column, then
// rotates, moves and hard-drops the piece with real key presses.
async function placePiece(page) {
  const start = await read(page);
  const shapes = [start.cells];
  if (start.kind !== 'O') {
    for (let r = 1; r <= 4; r++) {
      await page.keyboard.press('ArrowUp');
      await page.waitForFunction((r) => window.__ludus.state.active.rot === r % 4, r);
      if (r < 4) shapes.push((await read(page)).cells);
    }
  }
  let best = null;
  for (let r = 0; r < shapes.length; r++) {
    for (let dx = -9; dx <= 9; dx++) {
      const score = evaluate(start.board, shapes[r], dx);
      if (score !== null && (!best || score > best.score)) best = { r, dx, score };
    }
  }
  for (let i = 0; i < best.r; i++) await page.keyboard.press('ArrowUp');
  const key = best.dx < 0 ? 'ArrowLeft' : 'ArrowRight';
  for (let i = 0; i < Math.abs(best.dx); i++) await page.keyboard.press(key);
  await page.keyboard.press('Space');
  await page.waitForFunction((n) => window.__ludus.state.pieces > n, start.pieces);
}

test('play Tetris in the browser: clear a line, pause, reload, top out, replay', async () => {
  const page = await newPage(env.browser);
  await page.goto(env.server.url);
  await page.waitForFunction(() => document.getElementById('status-tetris').textContent !== '…');
  await page.click('#card-tetris');
  await page.waitForSelector('.t-mode[data-mode="marathon"]');
  await shot(page, 'tetris-menu');

  await page.click('.t-mode[data-mode="marathon"]');
  await page.waitForFunction(() => window.__ludus.state && window.__ludus.state.playing);
  for (let n = 0; n < 40; n++) {
    await placePiece(page);
    if ((await read(page)).lines > 0) break;
  }
  await page.waitForFunction(() => Number(document.getElementById('lines').textContent) >= 1);
  const lines = Number(await page.textContent('#lines'));
  assert.ok(lines >= 1, `lines counter ${lines}`);
  // The live statistics are the session's, drawn beside the counters.
  const stats = await page.evaluate(() => window.__ludus.state.stats);
  assert.equal(await page.textContent('#kpp'), stats.kpp.toFixed(2));
  assert.equal(await page.textContent('#faults'), String(stats.faults));
  assert.equal(await page.textContent('#finesse'), `${stats.finesse.toFixed(1)}%`);
  assert.ok(stats.kpp >= 1, `a piece takes at least its drop: ${stats.kpp}`);
  await shot(page, 'tetris-play');

  // Pause: the matrix hides and time stands still.
  await page.keyboard.press('p');
  await page.waitForFunction(() => window.__ludus.state.paused);
  assert.equal(await page.isVisible('#overlay'), true);
  const pausedAt = await page.evaluate(() => window.__ludus.state.t);
  await shot(page, 'tetris-paused');

  // A reload comes back to the same game, paused.
  const pieces = (await read(page)).pieces;
  await page.reload();
  await page.waitForFunction(() => window.__ludus.state && window.__ludus.state.paused);
  const resumed = await page.evaluate(() => window.__ludus.state);
  assert.equal(resumed.pieces, pieces);
  assert.equal(resumed.t, pausedAt);
  assert.equal(Number(await page.textContent('#lines')), lines);
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !window.__ludus.state.paused);

  // q during a game pauses and asks; the game stays until a second q.
  await page.keyboard.press('q');
  await page.waitForFunction(() => window.__ludus.state.paused);
  assert.match(await page.textContent('#banner'), /q again/i);
  assert.equal(await page.isVisible('#view-play'), true);
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !window.__ludus.state.paused);

  // Hard drops at the spawn column top out; the game goes into the table.
  while (await page.evaluate(() => window.__ludus.state.playing)) {
    const n = (await read(page)).pieces;
    await page.keyboard.press('Space');
    await page.waitForFunction((n) => !window.__ludus.state.playing || window.__ludus.state.pieces > n, n);
  }
  await page.waitForSelector('#over-dialog[open]');
  // Space still pressed for a hard drop does not start a new game unseen.
  await page.keyboard.press('Space');
  await page.waitForTimeout(300);
  assert.ok(await page.isVisible('#over-dialog[open]'));
  assert.match(await page.textContent('#over-rank'), /new best/i);
  assert.match(await page.textContent('#over-finesse'), /keys per piece · finesse [\d.]+% · \d+ faults?/);
  assert.equal(await page.locator('#over-table tr.mine').count(), 1);
  await page.keyboard.press('s');
  await page.waitForFunction(() => document.getElementById('over-note').textContent.includes('Replay saved'));
  await shot(page, 'tetris-over');

  // After a reload the table still has it, and the replay can be watched.
  await page.keyboard.press('Escape');
  await page.reload();
  await page.waitForSelector('#score-table td');
  await page.waitForFunction(() => document.querySelectorAll('#score-table tbody tr').length === 1
    && !document.querySelector('#score-table td.muted'));
  assert.match(await page.textContent('.t-mode[data-mode="marathon"]'), /best/);
  await page.click('#nav-replays');
  await page.waitForSelector('.t-replay button');
  await page.click('.t-replay button');
  await page.waitForFunction(() => window.__ludus.watch && window.__ludus.state.pieces > 0);
  assert.equal(await page.isVisible('#watch-bar'), true);
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  await page.waitForFunction(() => !window.__ludus.state.playing);
  await shot(page, 'tetris-replay');
  // A reload comes back to the replay where it was, paused.
  const at = await page.evaluate(() => window.__ludus.state.t);
  await page.reload();
  await page.waitForFunction((at) => window.__ludus.watch && window.__ludus.state && window.__ludus.state.t === at, at);
  assert.equal(await page.isVisible('#watch-bar'), true);
  assert.equal(await page.evaluate(() => window.__ludus.watch.since), null);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the Tetris page at a phone width', async () => {
  const page = await newPage(env.browser, { width: 390, height: 844 });
  await page.goto(`${env.server.url}tetris`);
  await page.click('.t-mode[data-mode="sprint"]');
  await page.waitForFunction(() => window.__ludus.state && window.__ludus.state.playing);
  await page.keyboard.press('Space');
  await page.waitForFunction(() => window.__ludus.state.pieces === 1);
  const box = await page.locator('#board').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390, `the matrix fits the width: ${JSON.stringify(box)}`);
  await shot(page, 'tetris-phone');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a hint shows where the bot would put the piece', async () => {
  const page = await newPage(env.browser);
  await page.goto(`${env.server.url}tetris`);
  await page.click('.t-mode[data-mode="zen"]');
  await page.waitForFunction(() => window.__ludus.state && window.__ludus.state.playing);
  await page.keyboard.press('h');
  await page.waitForFunction(() => window.__ludus.state.hint && window.__ludus.state.hint.cells);
  assert.equal(await page.getAttribute('#b-hint', 'class'), 'active');
  // The next piece gets its own hint.
  const first = await page.evaluate(() => JSON.stringify(window.__ludus.state.hint));
  await page.keyboard.press('Space');
  await page.waitForFunction(() => window.__ludus.state.pieces === 1 && window.__ludus.state.hint);
  const cells = await page.evaluate(() => window.__ludus.state.hint.cells);
  assert.equal(cells.length, 4, first);
  await shot(page, 'tetris-hint');
  // The button switches it off again.
  await page.click('#b-hint');
  await page.waitForFunction(() => !window.__ludus.state.hint);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// A phone: touch, no keyboard.
async function phonePage(viewport) {
  const context = await env.browser.newContext({ viewport, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  return page;
}

const inside = (box, viewport) => box && box.x >= 0 && box.y >= 0
  && box.x + box.width <= viewport.width + 0.5 && box.y + box.height <= viewport.height + 0.5;
const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('on a phone in landscape the touch pad is beside the matrix, and no key table shows', async () => {
  const viewport = { width: 844, height: 390 };
  const page = await phonePage(viewport);
  await page.goto(`${env.server.url}tetris`);
  await page.waitForSelector('.t-mode[data-mode="sprint"]');
  assert.equal(await page.isVisible('#menu-keys'), false, 'no key table on a phone');
  await page.click('.t-mode[data-mode="sprint"]');
  await page.waitForFunction(() => window.__ludus.state && window.__ludus.state.playing);
  await page.waitForTimeout(100);
  const matrix = await page.locator('#board').boundingBox();
  assert.ok(inside(matrix, viewport), `the matrix is on screen: ${JSON.stringify(matrix)}`);
  for (const button of await page.locator('#touch button').all()) {
    const box = await button.boundingBox();
    assert.ok(inside(box, viewport), `a touch button is on screen: ${JSON.stringify(box)}`);
    assert.ok(!overlap(box, matrix), 'a touch button covers the matrix');
  }
  // The pad plays: a tap on hard drop locks a piece.
  await page.tap('#touch button[data-action="hard_drop"]');
  await page.waitForFunction(() => window.__ludus.state.pieces === 1);
  await shot(page, 'tetris-phone-landscape');
  assert.deepEqual(page.errors, []);
  await page.context().close();

  const portrait = await phonePage({ width: 390, height: 844 });
  await portrait.goto(`${env.server.url}tetris`);
  await portrait.waitForSelector('.t-mode[data-mode="sprint"]');
  assert.equal(await portrait.isVisible('#menu-keys'), false, 'no key table on a phone');
  await portrait.context().close();
});

test('a locked-out stack is never drawn above the matrix frame', async () => {
  const page = await newPage(env.browser);
  await page.goto(`${env.server.url}tetris`);
  await page.click('.t-mode[data-mode="sprint"]');
  await page.waitForFunction(() => window.__ludus.state && window.__ludus.state.playing);
  while (await page.evaluate(() => window.__ludus.state.playing)) {
    const n = await page.evaluate(() => window.__ludus.state.pieces);
    await page.keyboard.press('Space');
    await page.waitForFunction((n) => !window.__ludus.state.playing || window.__ludus.state.pieces > n, n);
  }
  // The stack reached the rows above the visible 20 (what topped the game out).
  const above = await page.evaluate(() => window.__ludus.board.slice(0, 20).replace(/\./g, '').length);
  assert.ok(above > 0, 'the stack reaches above the matrix');
  // The canvas above the frame (two rows of cells over the matrix) is empty.
  const painted = await page.evaluate(() => {
    const canvas = document.getElementById('board');
    const g = canvas.getContext('2d');
    const cell = canvas.width / 21;
    const data = g.getImageData(Math.ceil(5.5 * cell) + 2, 0, Math.floor(10 * cell) - 4, Math.floor(2 * cell) - 2).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
    return n;
  });
  await shot(page, 'tetris-locked-out');
  assert.equal(painted, 0, 'pixels painted above the matrix frame');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
