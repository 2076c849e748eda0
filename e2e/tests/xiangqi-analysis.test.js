// The Xiangqi page's analysis and engines playing each other in chromium:
// analysis shows three lines for the position on the board, follows a step
// back, pauses and ends; a game between two engines plays by itself, pauses,
// plays one move at a time, and is told apart from a game against Ludus.
// Any console error fails.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boardPoint, newPage, openXiangqi, useBrowser } from './helpers.js';

const env = useBrowser();

async function openPage(page) {
  await openXiangqi(page, env.server.url);
  await page.waitForSelector('#new-dialog[open]');
}

// The analysis lines shown, as text.
async function lines(page) {
  return page.$$eval('#thinking .xq-line', (rows) => rows.map((r) => r.textContent));
}

test('analysis shows three lines for the position shown and follows it', async () => {
  const page = await newPage(env.browser);
  await openPage(page);
  await page.check('input[name="mode"][value="humans"]');
  await page.click('#new-ok');
  await page.waitForFunction(() => window.__ludus.state && window.__ludus.state.moves.length === 0);
  // Red plays 炮二平五 by clicking.
  for (const sq of ['h2', 'e2']) {
    const [x, y] = await boardPoint(page, sq);
    await page.mouse.click(x, y);
  }
  await page.waitForFunction(() => window.__ludus.state.moves.length === 1);
  await page.keyboard.press('a');
  await page.waitForFunction(() => document.querySelectorAll('#thinking .xq-line').length === 3, null, { timeout: 15000 });
  assert.equal(await page.textContent('#thinking-title'), 'Analysis');
  const shown = await lines(page);
  assert.match(shown[0], /^1\. (Red|Black) \+\d+\.\d\d d\d+ |^1\. even d\d+ /);
  assert.match(shown[2], /^3\. /);
  // The lines are Black's replies, in the chosen notation (Chinese).
  assert.match(shown[0], /[马馬車车炮砲卒象士將将]/u);
  assert.equal(await page.getAttribute('#b-analysis', 'aria-pressed'), 'true');
  // A step back: the analysis is of the start position now, Red's moves.
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => {
    const a = window.__ludus.state.analysis;
    return a && a.ply === 0 && a.lines.length === 3;
  }, null, { timeout: 15000 });
  // The best move is marked on the board (the analysis's hint).
  const best = await page.evaluate(() => window.__ludus.state.analysis.lines[0].uci[0]);
  assert.match(best, /^[a-i][0-9][a-i][0-9]$/);
  // Paused: the lines stay; the button offers to go on.
  await page.keyboard.press('p');
  await page.waitForFunction(() => window.__ludus.state.analysis.paused);
  assert.equal((await page.textContent('#b-pause')).trim(), '▶ Go on');
  assert.equal((await lines(page)).length, 3);
  // Off: the panel is Ludus's again.
  await env.shot(page, 'xiangqi-analysis');
  await page.keyboard.press('a');
  await page.waitForFunction(() => !window.__ludus.state.analysis);
  assert.equal(await page.textContent('#thinking-title'), 'Ludus thinks');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('engines play each other by themselves, pause and play one move at a time', async () => {
  const page = await newPage(env.browser);
  await openPage(page);
  await page.check('input[name="mode"][value="engines"]');
  assert.equal(await page.isVisible('#new-red'), true);
  assert.equal(await page.isVisible('#new-side'), false);
  await page.selectOption('#new-red', '0');
  await page.selectOption('#new-black', '1');
  await page.click('#new-ok');
  await page.waitForFunction(() => window.__ludus.state && window.__ludus.state.mode === 'engines');
  assert.match(await page.textContent('#xq-sub'), /Ludus \(Beginner.*\(Red\) vs Ludus \(Novice.*\(Black\)/);
  assert.equal(await page.isVisible('#b-hint'), false);
  await page.waitForFunction(() => window.__ludus.state.moves.length >= 2, null, { timeout: 15000 });
  await page.keyboard.press('p');
  await page.waitForFunction(() => window.__ludus.state.watch_paused);
  assert.match(await page.textContent('#xq-status'), /paused: p goes on, o plays one move/);
  const at = await page.evaluate(() => window.__ludus.state.moves.length);
  await page.keyboard.press('o');
  await page.waitForFunction((at) => window.__ludus.state.moves.length === at + 1, at, { timeout: 15000 });
  assert.equal(await page.evaluate(() => window.__ludus.state.watch_paused), true);
  // Still paused a moment later: one move only.
  await page.waitForTimeout(1500);
  assert.equal(await page.evaluate(() => window.__ludus.state.moves.length), at + 1);
  await env.shot(page, 'xiangqi-engines');
  assert.deepEqual(page.errors, []);
  await page.close();
});
