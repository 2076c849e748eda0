// The Xiangqi page in chromium: a game against the fastest strength, one
// move by clicks and one by drag and drop, each answered by the engine;
// the move list, its ECCO opening and the board show them; a click in the move list looks at
// an earlier position. Screenshots at desktop and phone widths. Any console
// error fails.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boardPoint, newPage, useBrowser } from './helpers.js';

const env = useBrowser();
const { shot } = env;

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
  await page.mouse.click(...(await boardPoint(page, 'h2')));
  assert.equal(await page.evaluate(() => window.__ludus.selected), 'h2');
  await page.mouse.click(...(await boardPoint(page, 'e2')));
  await engineAnswered(2)(page);
  // The clocks: Red's runs again, each side got its increment.
  assert.equal(await page.isVisible('#xq-clocks'), true);
  await page.waitForSelector('#clock-red.running');
  assert.match(await page.textContent('#clock-red'), /^Red 5:0\d$/);
  assert.match(await page.textContent('#clock-black'), /^Black 5:0\d$/);
  assert.equal(await page.locator('#clock-black.running').count(), 0);
  assert.equal(await page.locator('.xq-move').count(), 2);
  assert.equal(await page.textContent('.xq-move[data-ply="1"]'), '炮二平五');
  // The ECCO opening heads the move list: Chinese with Chinese moves,
  // English with WXF.
  assert.match(await page.textContent('#opening'), /^[A-E]\d\d [\u4e00-\u9fff]/);
  await page.selectOption('#notation', 'wxf');
  assert.match(await page.textContent('#opening'), /^[A-E]\d\d [A-Z][ -~]+$/);
  await page.selectOption('#notation', 'chinese');
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
  assert.equal(await page.locator('#keys-box[open] .xq-key').count(), 18);
  await shot(page, 'xiangqi');

  // Drag the horse from h0 to g2: 马二进三.
  const [fx, fy] = await boardPoint(page, 'h0');
  const [tx, ty] = await boardPoint(page, 'g2');
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

// The page coordinates of a point on the position editor's board.
async function editorPoint(page, sq) {
  const box = await page.locator('#editor-board').boundingBox();
  const [x, y] = await page.evaluate((sq) => window.__ludus.editor.geo.point(sq), sq);
  return [box.x + x, box.y + y];
}

test('set up a position, mate in it, take back, flip, export and import', async () => {
  const page = await newPage(env.browser);
  await page.goto(`${env.server.url}xiangqi`);
  await page.waitForSelector('#new-dialog[open]');
  await page.click('#new-cancel');
  // The editor: generals only, then two red chariots from the palette and
  // the red general moved to d0 (placing a general moves it).
  await page.keyboard.press('e');
  await page.waitForSelector('#view-editor:not([hidden])');
  await page.click('#ed-clear');
  // The generals are not left facing each other: a legal position at once.
  await page.waitForFunction(() => !document.getElementById('ed-humans').disabled);
  assert.equal(await page.inputValue('#ed-fen'), '5k3/9/9/9/9/9/9/9/9/4K4 w');
  await page.click('#palette button[data-piece="R"]');
  await page.mouse.click(...(await editorPoint(page, 'b8')));
  await page.mouse.click(...(await editorPoint(page, 'a1')));
  await page.click('#palette button[data-piece="K"]');
  await page.mouse.click(...(await editorPoint(page, 'd0')));
  assert.equal(await page.inputValue('#ed-fen'), '5k3/1R7/9/9/9/9/9/9/R8/3K5 w');
  await page.waitForFunction(() => !document.getElementById('ed-humans').disabled);
  assert.match(await page.textContent('#editor-message'), /legal position/i);
  // A red chariot on e-file checks with the generals facing: the editor says what is wrong.
  await page.fill('#ed-fen', '4k4/9/9/9/9/9/9/9/9/4K4 b');
  await page.dispatchEvent('#ed-fen', 'change');
  await page.waitForFunction(() => document.getElementById('ed-humans').disabled);
  assert.match(await page.textContent('#editor-message'), /^Not a legal position/);
  // Text that is no position stays as typed, with the reason.
  await page.fill('#ed-fen', 'nonsense');
  await page.dispatchEvent('#ed-fen', 'change');
  await page.waitForFunction(() => /FEN/.test(document.getElementById('editor-message').textContent));
  assert.equal(await page.inputValue('#ed-fen'), 'nonsense');
  await page.fill('#ed-fen', '4k4/1R7/9/9/9/9/9/9/R8/3K5 w');
  await page.dispatchEvent('#ed-fen', 'change');
  await page.waitForFunction(() => !document.getElementById('ed-humans').disabled);
  await shot(page, 'xiangqi-editor');
  await page.click('#ed-humans');
  await page.waitForFunction(() => window.__ludus.state && window.__ludus.state.mode === 'humans'
    && window.__ludus.state.fen.startsWith('4k4/1R7/'));

  // Red mates on the back rank: 俥九进八 (a1a9).
  await page.mouse.click(...(await boardPoint(page, 'a1')));
  await page.mouse.click(...(await boardPoint(page, 'a9')));
  await page.waitForSelector('#over-dialog[open]');
  assert.match(await page.textContent('#over-text'), /checkmate/i);
  assert.match(await page.textContent('#over-text'), /Red wins/i);
  await page.click('#over-close');

  // Export the game as PGN: it starts from the set-up position.
  await page.click('#b-export');
  await page.click('#export-pgn');
  const pgn = await page.inputValue('#export-text');
  assert.match(pgn, /\[FEN "4k4\/1R7\/9\/9\/9\/9\/9\/9\/R8\/3K5 w/);
  assert.match(pgn, /\[Result "1-0"\]/);
  await page.click('#export-close');

  // Take the mate back: the game goes on, then the board turns round.
  await page.keyboard.press('u');
  await page.waitForFunction(() => window.__ludus.state.moves.length === 0 && !window.__ludus.state.over);
  assert.equal(await page.evaluate(() => window.__ludus.pieceAt('a1')), 'R');
  await page.keyboard.press('f');
  assert.equal(await page.evaluate(() => window.__ludus.geo.flipped), true);
  const [ax, ay] = await boardPoint(page, 'a1');
  const [ix, iy] = await boardPoint(page, 'i9');
  assert.ok(ax > ix && ay < iy, 'flipped: a1 at the top right');

  // Import the exported PGN: the same game, over again.
  await page.keyboard.press('i');
  await page.waitForSelector('#import-dialog[open]');
  await page.fill('#import-text', 'not a game');
  await page.click('#import-ok');
  await page.waitForSelector('#import-error:not([hidden])');
  await page.fill('#import-text', pgn);
  await page.click('#import-ok');
  await page.waitForFunction(() => window.__ludus.state.moves.length === 1 && window.__ludus.state.over);
  assert.equal(await page.evaluate(() => window.__ludus.state.moves[0].uci), 'a1a9');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the page at phone width', async () => {
  const page = await newPage(env.browser, { width: 390, height: 844 });
  await newEngineGame(page);
  await page.mouse.click(...(await boardPoint(page, 'b2')));
  await page.mouse.click(...(await boardPoint(page, 'e2')));
  await engineAnswered(2)(page);
  await shot(page, 'xiangqi-phone', { fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
