// A page whose game the server lost (the server restarted on the same
// port): Sokoban goes back to the level list and says why, Tetris to its
// modes, and Xiangqi rebuilds the game from the moves the page holds.
// Any page error fails.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { launch, newPage, startServer, shotDir, chooseCollection, FIXTURE_COLLECTION } from './helpers.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { if (browser) await browser.close(); });

// Runs `play` on a first server, restarts the server on the same port, and
// returns the page (reconnected to the new server); both servers stop when the test ends.
async function acrossARestart(t, pagePath, play) {
  const first = await startServer();
  // Stopped however the test ends: a server left running keeps node from exiting.
  let firstStopped = false;
  t.after(() => (firstStopped ? undefined : first.stop()));
  const port = new URL(first.url).port;
  const page = await newPage(browser);
  await page.goto(`${first.url}${pagePath}`);
  await play(page);
  await first.stop();
  firstStopped = true;
  const second = await startServer(undefined, port);
  t.after(async () => { await page.context().close(); await second.stop(); });
  return { page, second };
}

// The browser logs the connections refused or cut while the server goes
// down and comes back; any other console error or page error counts.
const DOWN = /WebSocket connection .* failed|^Failed to load resource: net::ERR_/;
const unexpected = (page) => page.errors.filter((e) => !DOWN.test(e));

const shot = (page, name) => page.screenshot({ path: path.join(shotDir(), `${name}.png`) });

test('Sokoban: a lost game goes back to the level list and says why', async (t) => {
  const { page } = await acrossARestart(t, 'sokoban#levels', async (page) => {
    await page.waitForSelector('.level-card');
    await chooseCollection(page, FIXTURE_COLLECTION);
    await page.locator('.level-card[data-level="2"]').click();
    await page.waitForFunction(() => window.__ludus.view === 'play' && window.__ludus.state);
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => window.__ludus.state.moves === 1);
  });
  // The page reconnects by itself and finds its game gone.
  await page.waitForSelector('#levels-alert', { state: 'visible', timeout: 20000 });
  assert.match(await page.textContent('#levels-alert'), /no longer has the game/);
  assert.equal(await page.evaluate(() => window.__ludus.view), 'levels');
  // No way back to a game that is gone.
  assert.equal(await page.isDisabled('#nav-play'), true);
  await shot(page, 'restart-sokoban');
  assert.deepEqual(unexpected(page), []);
});

test('Tetris: a lost game goes back to the modes and says why', async (t) => {
  const { page } = await acrossARestart(t, 'tetris', async (page) => {
    await page.click('.t-mode[data-mode="sprint"]');
    await page.waitForFunction(() => window.__ludus.state && window.__ludus.state.playing);
    await page.keyboard.press('Space');
    await page.waitForFunction(() => window.__ludus.state.pieces === 1);
  });
  await page.waitForFunction(() => document.getElementById('menu-note').textContent.includes('no longer has the game'),
    null, { timeout: 20000 });
  assert.equal(await page.isVisible('#view-menu'), true);
  await shot(page, 'restart-tetris');
  assert.deepEqual(unexpected(page), []);
});

test('Xiangqi: a lost game is rebuilt from the moves on the page', async (t) => {
  const { page } = await acrossARestart(t, 'xiangqi', async (page) => {
    await page.waitForSelector('#new-dialog[open]');
    await page.check('input[name="mode"][value="humans"]');
    await page.click('#new-ok');
    await page.waitForFunction(() => window.__ludus.state && window.__ludus.state.moves.length === 0);
    for (const [i, sq] of ['h2', 'e2', 'h9', 'g7'].entries()) {
      const box = await page.locator('#board').boundingBox();
      const [x, y] = await page.evaluate((sq) => window.__ludus.geo.point(sq), sq);
      await page.mouse.click(box.x + x, box.y + y);
      // Black's piece can be picked once the server has Red's move on the page.
      if (i === 1) await page.waitForFunction(() => window.__ludus.state.moves.length === 1);
    }
    await page.waitForFunction(() => window.__ludus.state.moves.length === 2);
  });
  await page.waitForFunction(() => /lost this game/.test(document.body.textContent), null, { timeout: 20000 });
  const moves = await page.evaluate(() => window.__ludus.state.moves.map((m) => m.uci));
  assert.deepEqual(moves, ['h2e2', 'h9g7']);
  // The rebuilt game is played on: no new-game dialog over it.
  await page.waitForTimeout(300);
  assert.equal(await page.locator('#new-dialog[open]').count(), 0);
  await shot(page, 'restart-xiangqi');
  assert.deepEqual(unexpected(page), []);
});
