// Duplicated tabs: a tab opened on the same game (a duplicate copies the
// page's session id) takes the game over; the first tab is covered at once,
// its keys play nothing, and "Play here" takes the game back. Any console
// error fails.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, useBrowser, chooseCollection, FIXTURE_COLLECTION } from './helpers.js';

const env = useBrowser();
const { shot } = env;

// A second tab in the same browser with `page`'s session storage, as the
// browser's "Duplicate tab" makes it, opened at `url`.
async function duplicate(page, url) {
  const stored = await page.evaluate(() => JSON.stringify({ ...sessionStorage }));
  const second = await page.context().newPage();
  second.errors = [];
  second.on('pageerror', (e) => second.errors.push(String(e)));
  await second.addInitScript((stored) => {
    for (const [k, v] of Object.entries(JSON.parse(stored))) sessionStorage.setItem(k, v);
  }, stored);
  await second.goto(url);
  return second;
}

const covered = (page) => page.locator('#taken-over').isVisible();

test('a duplicated Sokoban tab takes the level over', async () => {
  const first = await newPage(env.browser);
  await first.goto(`${env.server.url}sokoban#levels`);
  await first.waitForSelector('.level-card');
  await chooseCollection(first, FIXTURE_COLLECTION);
  await first.locator('.level-card[data-level="2"]').click();
  const moves = (page, n) => page.waitForFunction(
    (n) => { const p = window.__ludus; return p.state && p.state.moves === n && !p.animating; }, n,
  );
  await moves(first, 0);
  await first.keyboard.press('ArrowRight');
  await moves(first, 1);

  const second = await duplicate(first, `${env.server.url}sokoban#play`);
  await moves(second, 1);
  await first.waitForSelector('#taken-over', { state: 'visible' });
  await shot(first, 'tabs-sokoban-taken-over');
  // The covered tab's keys play nothing; the second plays on.
  await first.keyboard.press('ArrowRight');
  await second.keyboard.press('ArrowRight');
  await moves(second, 2);
  assert.equal(await first.evaluate(() => window.__ludus.state.moves), 1);

  // "Play here" takes it back: the first shows the second's move, the second is covered.
  await first.click('#taken-over button');
  await moves(first, 2);
  await second.waitForSelector('#taken-over', { state: 'visible' });
  assert.equal(await covered(first), false);
  assert.deepEqual([...first.errors, ...second.errors], []);
  await first.context().close();
});

test('a duplicated Xiangqi tab takes the game over', async () => {
  const first = await newPage(env.browser);
  await first.goto(`${env.server.url}xiangqi`);
  await first.waitForSelector('#new-dialog[open]');
  await first.check('input[name="mode"][value="humans"]');
  await first.click('#new-ok');
  const plies = (page, n) => page.waitForFunction(
    (n) => { const s = window.__ludus.state; return s && s.moves.length === n; }, n,
  );
  await plies(first, 0);
  for (const sq of ['h2', 'e2']) {
    const box = await first.locator('#board').boundingBox();
    const [x, y] = await first.evaluate((sq) => window.__ludus.geo.point(sq), sq);
    await first.mouse.click(box.x + x, box.y + y);
  }
  await plies(first, 1);

  const second = await duplicate(first, `${env.server.url}xiangqi`);
  await plies(second, 1);
  await first.waitForSelector('#taken-over', { state: 'visible' });
  await shot(first, 'tabs-xiangqi-taken-over');
  await first.click('#taken-over button');
  await plies(first, 1);
  await second.waitForSelector('#taken-over', { state: 'visible' });
  assert.deepEqual([...first.errors, ...second.errors], []);
  await first.context().close();
});
