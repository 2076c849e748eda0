// Versus against the bot in chromium: choose a level on the Tetris page, see both
// matrices and the bot placing pieces, hard-drop until the player tops out, read the
// result, save the replay and rematch; a narrow window says so instead of squeezing
// two boards. Any console error fails.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ludusBin, newPage, useBrowser } from './helpers.js';

const env = useBrowser();
const { shot } = env;

const versus = (page) => page.evaluate(() => {
  const s = window.__ludusVersus.state;
  return s && {
    playing: s.playing, outcome: s.outcome, t: s.t,
    mine: s.sides[0].stats.pieces, bot: s.sides[1].stats.pieces,
    botCells: s.sides[1].board.replace(/\./g, '').length,
  };
});

test('versus the bot in the browser: both boards, the bot plays, a result', async () => {
  const page = await newPage(env.browser);
  await page.goto(`${env.server.url}tetris`);
  await page.waitForSelector('#versus-levels button[data-level="unlimited"]');
  const levels = await page.$$eval('#versus-levels button', (bs) => bs.map((b) => b.dataset.level));
  assert.deepEqual(levels, ['easy', 'medium', 'hard', 'expert', 'unlimited']);

  // Easy first, looking one piece ahead: a slow bot, both boards on screen, pause stops the clock.
  const aheads = await page.$$eval('#versus-lookahead option', (os) => os.map((o) => o.value));
  assert.deepEqual(aheads, ['classic', '0', '1', '3', '5']);
  assert.equal(await page.inputValue('#versus-lookahead'), '5');
  await page.selectOption('#versus-lookahead', '1');
  await page.click('#versus-levels button[data-level="easy"]');
  await page.waitForFunction(() => window.__ludusVersus.state && window.__ludusVersus.state.playing);
  assert.ok(await page.isVisible('#v-board-0'));
  assert.ok(await page.isVisible('#v-board-1'));
  assert.match(await page.textContent('#v-label-1'), /Easy \(0\.5 PPS\) · 1 next piece/);
  await page.waitForFunction(() => window.__ludusVersus.state.sides[1].stats.pieces >= 1, null, { timeout: 10000 });
  await page.keyboard.press('p');
  await page.waitForFunction(() => window.__ludusVersus.state.paused);
  assert.ok(await page.isVisible('#v-overlay'));
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !window.__ludusVersus.state.paused);
  await page.keyboard.press('q');
  await page.waitForSelector('#view-menu:not([hidden])');

  // Unlimited: the bot fills its board while the player hard-drops to the top.
  await page.click('#versus-levels button[data-level="unlimited"]');
  await page.waitForFunction(() => {
    const s = window.__ludusVersus.state;
    return s && s.playing && s.sides[0].stats.pieces === 0;
  });
  await page.waitForFunction(() => window.__ludusVersus.state.sides[1].stats.pieces >= 5);
  for (let i = 0; i < 3; i++) {
    const n = (await versus(page)).mine;
    await page.keyboard.press('Space');
    await page.waitForFunction((n) => window.__ludusVersus.state.sides[0].stats.pieces > n, n);
  }
  const during = await versus(page);
  assert.ok(during.bot > during.mine, `bot ${during.bot} pieces, you ${during.mine}`);
  assert.ok(during.botCells > 0, 'the bot\'s board shows its pieces');
  assert.match(await page.textContent('#v-stats-1'), /pieces \d+/);
  await shot(page, 'tetris-versus-play');

  while ((await versus(page)).playing) {
    await page.keyboard.press('Space');
    await page.waitForTimeout(30);
  }
  await page.waitForSelector('#versus-dialog[open]');
  const end = await versus(page);
  assert.ok(['loss', 'win', 'draw', 'stopped'].includes(end.outcome), end.outcome);
  assert.match(await page.textContent('#vr-title'), /bot wins|you win|draw|stopped/i);
  assert.match(await page.textContent('#vr-stats'), /lines sent/);
  // Space (still hard-dropping) does not rematch unseen.
  await page.keyboard.press('Space');
  await page.waitForTimeout(200);
  assert.ok(await page.isVisible('#versus-dialog[open]'));
  await shot(page, 'tetris-versus-over');

  await page.keyboard.press('s');
  await page.waitForFunction(() => document.getElementById('vr-note').textContent.includes('Replay saved'));
  const name = (await page.textContent('#vr-note')).match(/Replay saved: (\S+)/)[1];
  assert.ok(existsSync(path.join(env.server.dataDir, 'tetris', 'versus', name)), name);

  // Rematch: a fresh game at the same level.
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => {
    const s = window.__ludusVersus.state;
    return s && s.playing && s.sides[0].stats.pieces === 0 && !document.querySelector('#versus-dialog[open]');
  });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a window too narrow for two boards says so', async () => {
  const page = await newPage(env.browser, { width: 320, height: 300 });
  await page.goto(`${env.server.url}tetris`);
  await page.click('#versus-levels button[data-level="medium"]');
  await page.waitForFunction(() => window.__ludusVersus.state && window.__ludusVersus.state.playing);
  await page.waitForSelector('#v-narrow:not([hidden])');
  assert.match(await page.textContent('#v-narrow'), /too narrow/);
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.waitForSelector('#v-narrow', { state: 'hidden' });
  assert.ok(await page.isVisible('#v-board-1'));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a configured TBP bot is offered as the opponent and plays', async () => {
  // What `ludus tetris --tbp-bot CMD` keeps: here Ludus's own bot served over TBP.
  const settings = { version: 1, tetris: { bots: [`'${ludusBin()}' tetris tbp`] } };
  writeFileSync(path.join(env.server.dataDir, 'settings.json'), JSON.stringify(settings));
  const page = await newPage(env.browser);
  await page.goto(`${env.server.url}tetris`);
  await page.waitForSelector('#versus-opponent-row:not([hidden])');
  const names = await page.$$eval('#versus-opponent option', (os) => os.map((o) => o.textContent));
  assert.deepEqual(names, ["Ludus's bot", 'ludus tetris tbp']);
  await page.selectOption('#versus-opponent', '1');
  await page.click('#versus-levels button[data-level="expert"]');
  await page.waitForFunction(() => window.__ludusVersus.state && window.__ludusVersus.state.playing);
  assert.match(await page.textContent('#v-label-1'), /ludus tetris tbp · Expert \(3 PPS\)/);
  // It thinks on its own thread on the server: the page's clock runs on, and its pieces come.
  await page.waitForFunction(() => window.__ludusVersus.state.sides[1].stats.pieces >= 3, null, { timeout: 15000 });
  await shot(page, 'versus-tbp-bot');
  await page.keyboard.press('q');
  await page.waitForSelector('#view-menu:not([hidden])');
});
