// The Xiangqi page in chromium: a game against the fastest strength, one
// move by clicks and one by drag and drop, each answered by the engine;
// the move list and the board show them; a click in the move list looks at
// an earlier position. Screenshots at desktop and phone widths. Any console
// error fails.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, useBrowser } from './helpers.js';

const env = useBrowser();
const { shot } = env;

// The page coordinates of a board point (an ICCS square like "h2").
async function point(page, sq) {
  const box = await page.locator('#board').boundingBox();
  const [x, y] = await page.evaluate((sq) => window.__ludus.geo.point(sq), sq);
  return [box.x + x, box.y + y];
}

// Starts a game against Ludus at the fastest strength, the player as Red,
// with 5 minutes + 3 seconds on the clocks.
async function newEngineGame(page) {
  await page.goto(`${env.server.url}xiangqi`);
  await page.waitForSelector('#new-dialog[open]');
  await page.check('input[name="mode"][value="engine"]');
  await page.selectOption('#new-side', 'red');
  await page.selectOption('#new-level', '0');
  await page.selectOption('#new-clock', '2');
  await page.click('#new-ok');
  await page.waitForFunction(() => window.__ludus.state && window.__ludus.state.moves.length === 0);
}

const engineAnswered = (n) => (page) => page.waitForFunction(
  (n) => { const s = window.__ludus.state; return s.moves.length === n && !s.thinking; }, n,
);

test('play by clicks and by drag and drop against the engine', async () => {
  const page = await newPage(env.browser);
  await newEngineGame(page);
  // The pieces' characters come from the fonts the page ships, whatever the
  // machine has installed.
  const faces = await page.waitForFunction(() => {
    const loaded = [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family.replace(/"/g, ''));
    return loaded.includes('Ludus Xiangqi Pieces') && loaded.includes('Ludus Xiangqi Text') && loaded;
  });
  assert.ok(await faces.jsonValue());
  // Click the cannon on h2, then e2: 炮二平五.
  await page.mouse.click(...(await point(page, 'h2')));
  assert.equal(await page.evaluate(() => window.__ludus.selected), 'h2');
  await page.mouse.click(...(await point(page, 'e2')));
  await engineAnswered(2)(page);
  // The clocks: Red's runs again, each side got its increment.
  assert.equal(await page.isVisible('#xq-clocks'), true);
  await page.waitForSelector('#clock-red.running');
  assert.match(await page.textContent('#clock-red'), /^Red 5:0\d$/);
  assert.match(await page.textContent('#clock-black'), /^Black 5:0\d$/);
  assert.equal(await page.locator('#clock-black.running').count(), 0);
  assert.equal(await page.locator('.xq-move').count(), 2);
  assert.equal(await page.textContent('.xq-move[data-ply="1"]'), '炮二平五');
  const reply = await page.evaluate(() => window.__ludus.state.moves[1].uci);
  assert.equal(await page.evaluate(() => window.__ludus.pieceAt('e2')), 'C');
  const moved = await page.evaluate((sq) => window.__ludus.pieceAt(sq), reply.slice(2, 4));
  assert.ok(moved && moved === moved.toLowerCase(), `Black's piece on ${reply}: ${moved}`);
  assert.equal(await page.evaluate((sq) => window.__ludus.pieceAt(sq), reply.slice(0, 2)), null);
  // A reply from the opening book says so in the thinking panel.
  if (await page.evaluate(() => window.__ludus.state.moves[1].book)) {
    assert.match(await page.textContent('#thinking'), /book move/);
  }
  // The move list has room (the keys are compact), and the keys are shown.
  assert.ok((await page.locator('#moves').boundingBox()).height >= 150);
  assert.equal(await page.locator('#keys-box[open] .xq-key').count(), 16);
  await shot(page, 'xiangqi');

  // Drag the horse from h0 to g2: 马二进三.
  const [fx, fy] = await point(page, 'h0');
  const [tx, ty] = await point(page, 'g2');
  await page.mouse.move(fx, fy);
  await page.mouse.down();
  await page.mouse.move(tx, ty, { steps: 6 });
  await page.mouse.up();
  await engineAnswered(4)(page);
  assert.equal(await page.evaluate(() => window.__ludus.state.moves[2].uci), 'h0g2');
  assert.equal(await page.evaluate(() => window.__ludus.pieceAt('g2')), 'N');
  assert.equal(await page.locator('.xq-move').count(), 4);

  // Click the first move: the board shows the position after it.
  await page.click('.xq-move[data-ply="1"]');
  assert.equal(await page.evaluate(() => window.__ludus.view), 1);
  assert.equal(await page.evaluate(() => window.__ludus.pieceAt('g2')), null);
  await page.keyboard.press('End');
  assert.equal(await page.evaluate(() => window.__ludus.view), null);

  // A reload comes back to the same game.
  await page.reload();
  await page.waitForFunction(() => window.__ludus.state && window.__ludus.state.moves.length === 4);
  await shot(page, 'xiangqi-reload');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the page at phone width', async () => {
  const page = await newPage(env.browser, { width: 390, height: 844 });
  await newEngineGame(page);
  await page.mouse.click(...(await point(page, 'b2')));
  await page.mouse.click(...(await point(page, 'e2')));
  await engineAnswered(2)(page);
  await shot(page, 'xiangqi-phone', { fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
