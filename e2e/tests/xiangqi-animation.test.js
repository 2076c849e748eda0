// The Xiangqi page's sliding pieces in chromium: a played move and a step
// back slide (sampled frame by frame through the board's test hook,
// window.__ludus.moving, and #board[data-animating]); a jump and a dragged
// piece do not; a new step ends the slide under way at once; "Animate moves" off puts the
// piece at its square at once, and the choice survives a reload. With no
// choice made, the browser's reduced-motion preference turns it off. Any
// console error fails.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boardPoint, newPage, openXiangqi, useBrowser } from './helpers.js';

const env = useBrowser();

const openPage = (page) => openXiangqi(page, env.server.url);

// A two-player game from the start (the last game when `resume`).
async function newGame(page) {
  await openPage(page);
  await page.waitForSelector('#new-dialog[open]');
  await page.check('input[name="mode"][value="humans"]');
  await page.click('#new-ok');
  await page.waitForFunction(() => window.__ludus.state && window.__ludus.state.moves.length === 0);
}

// Records, on every animation frame until stopSampling, the sliding piece
// as drawn and whether the board says it is animating.
async function startSampling(page) {
  await page.evaluate(() => {
    window.__samples = [];
    window.__sampling = true;
    const loop = () => {
      const m = window.__ludus.moving;
      window.__samples.push({
        now: performance.now(),
        plies: window.__ludus.state ? window.__ludus.state.moves.length : 0,
        view: window.__ludus.view,
        animating: document.getElementById('board').dataset.animating === '1',
        moving: m && { ...m },
      });
      if (window.__sampling) requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  });
}

async function stopSampling(page) {
  return page.evaluate(() => { window.__sampling = false; return window.__samples; });
}

const notAnimating = (page) => page.waitForFunction(() => !document.getElementById('board').dataset.animating);

// The frames of a slide from `from` to `to`: it moved between the two points
// in at least two distinct places, its progress growing, and was over within
// the slide's time (with room for a slow machine).
async function assertSlid(page, samples, from, to) {
  const frames = samples.filter((s) => s.moving && s.moving.from === from && s.moving.to === to);
  assert.ok(frames.length >= 2, `frames of the slide ${from}→${to}: ${JSON.stringify(samples.slice(0, 40))}`);
  assert.ok(frames.every((s) => s.animating), 'data-animating is set while the piece slides');
  const [fx, fy] = await page.evaluate((sq) => window.__ludus.geo.point(sq), from);
  const [tx, ty] = await page.evaluate((sq) => window.__ludus.geo.point(sq), to);
  const between = (v, a, b) => v >= Math.min(a, b) - 0.5 && v <= Math.max(a, b) + 0.5;
  for (const { moving: m } of frames) {
    assert.ok(between(m.x, fx, tx) && between(m.y, fy, ty), `on the way: ${JSON.stringify(m)}`);
  }
  const places = new Set(frames.map((s) => `${Math.round(s.moving.x)},${Math.round(s.moving.y)}`));
  assert.ok(places.size >= 2, `the piece moved between frames: ${[...places]}`);
  assert.ok(frames.some((s) => s.moving.t > 0 && s.moving.t < 1), 'seen mid-way');
  for (let i = 1; i < frames.length; i++) assert.ok(frames[i].moving.t >= frames[i - 1].moving.t);
  const took = frames[frames.length - 1].now - frames[0].now;
  assert.ok(took < 1000, `the slide took ${took} ms`);
  // Over: nothing slides, the piece is drawn on its square.
  assert.equal(await page.evaluate(() => window.__ludus.moving), null);
}

test('with no choice made, reduced motion turns the animation off', async () => {
  const page = await newPage(env.browser);
  await openPage(page);
  assert.equal(await page.isChecked('#animate'), true);
  assert.equal(await page.evaluate(() => window.__ludus.animate), true);
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  const reduced = await context.newPage();
  await reduced.goto(`${env.server.url}xiangqi`);
  await reduced.waitForFunction(() => window.__ludus.options);
  assert.equal(await reduced.isChecked('#animate'), false);
  assert.equal(await reduced.evaluate(() => window.__ludus.animate), false);
  await context.close();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('moves slide, steps back slide, jumps do not; off puts pieces at once and is remembered', async () => {
  const page = await newPage(env.browser);
  await newGame(page);
  assert.equal(await page.isChecked('#animate'), true);

  // 炮二平五 by clicks: the cannon slides from h2 to e2.
  await startSampling(page);
  await page.mouse.click(...(await boardPoint(page, 'h2')));
  await page.mouse.click(...(await boardPoint(page, 'e2')));
  await page.waitForFunction(() => window.__ludus.state.moves.length === 1);
  await notAnimating(page);
  await assertSlid(page, await stopSampling(page), 'h2', 'e2');
  assert.equal(await page.evaluate(() => window.__ludus.pieceAt('e2')), 'C');

  // 馬8進7, then 炮五進四 takes the pawn on e6 (the taken piece fades).
  await page.mouse.click(...(await boardPoint(page, 'h9')));
  await page.mouse.click(...(await boardPoint(page, 'g7')));
  await page.waitForFunction(() => window.__ludus.state.moves.length === 2);
  await notAnimating(page);
  await startSampling(page);
  await page.mouse.click(...(await boardPoint(page, 'e2')));
  await page.mouse.click(...(await boardPoint(page, 'e6')));
  await page.waitForFunction(() => window.__ludus.state.moves.length === 3);
  await notAnimating(page);
  await assertSlid(page, await stopSampling(page), 'e2', 'e6');
  assert.equal(await page.evaluate(() => window.__ludus.pieceAt('e6')), 'C');

  // A step back slides the cannon home.
  await startSampling(page);
  await page.keyboard.press('ArrowLeft');
  await notAnimating(page);
  await assertSlid(page, await stopSampling(page), 'e6', 'e2');
  assert.equal(await page.evaluate(() => window.__ludus.pieceAt('e6')), 'p');

  // A new step during a slide ends it at once: the next one is under way.
  const next = await page.evaluate(() => {
    const press = (key) => document.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
    press('ArrowLeft'); // 馬8進7 back: g7 → h9
    const first = window.__ludus.moving && { ...window.__ludus.moving };
    press('ArrowLeft'); // 炮二平五 back: e2 → h2
    return { first, second: window.__ludus.moving && { ...window.__ludus.moving } };
  });
  assert.deepEqual([next.first.from, next.first.to], ['g7', 'h9']);
  assert.deepEqual([next.second.from, next.second.to], ['e2', 'h2']);
  assert.ok(next.second.t < 0.5, `the new slide starts: ${JSON.stringify(next.second)}`);
  await notAnimating(page);

  // End jumps two plies: no slide at all.
  await startSampling(page);
  await page.keyboard.press('End');
  await page.waitForFunction(() => window.__ludus.view === null);
  await page.waitForTimeout(300);
  let samples = await stopSampling(page);
  assert.ok(samples.length >= 3);
  assert.ok(samples.every((s) => !s.moving && !s.animating), 'a jump does not slide');

  // A piece dragged into place stays there: no slide from where it was.
  const [fx, fy] = await boardPoint(page, 'b9');
  const [tx, ty] = await boardPoint(page, 'c7');
  await startSampling(page);
  await page.mouse.move(fx, fy);
  await page.mouse.down();
  await page.mouse.move(tx, ty, { steps: 6 });
  await page.mouse.up();
  await page.waitForFunction(() => window.__ludus.state.moves.length === 4);
  await page.waitForTimeout(300);
  samples = await stopSampling(page);
  assert.ok(samples.some((s) => s.plies === 4), 'frames after the move');
  assert.ok(samples.every((s) => !s.moving && !s.animating), 'a dragged piece does not slide');
  assert.equal(await page.evaluate(() => window.__ludus.pieceAt('c7')), 'n');

  // Switched off: the next move is on its square in the first frame drawn.
  await page.uncheck('#animate');
  await startSampling(page);
  await page.mouse.click(...(await boardPoint(page, 'h0')));
  await page.mouse.click(...(await boardPoint(page, 'g2')));
  await page.waitForFunction(() => window.__ludus.state.moves.length === 5);
  await page.waitForTimeout(300);
  samples = await stopSampling(page);
  assert.ok(samples.some((s) => s.plies === 5), 'frames after the move');
  assert.ok(samples.every((s) => !s.moving && !s.animating), 'nothing slides when off');
  assert.equal(await page.evaluate(() => window.__ludus.pieceAt('g2')), 'N');

  // The choice is remembered: a reload finds it off, and off it stays for undo.
  await page.reload();
  await page.waitForFunction(() => window.__ludus.options && window.__ludus.state);
  assert.equal(await page.isChecked('#animate'), false);
  await startSampling(page);
  await page.keyboard.press('u');
  await page.waitForFunction(() => window.__ludus.state.moves.length === 4);
  await page.waitForTimeout(300);
  samples = await stopSampling(page);
  assert.ok(samples.every((s) => !s.moving && !s.animating), 'undo does not slide when off');

  // On again (remembered too): an undo slides the piece back.
  await page.check('#animate');
  await page.reload();
  await page.waitForFunction(() => window.__ludus.options && window.__ludus.state);
  assert.equal(await page.isChecked('#animate'), true);
  await startSampling(page);
  await page.keyboard.press('u');
  await page.waitForFunction(() => window.__ludus.state.moves.length === 3);
  await notAnimating(page);
  await assertSlid(page, await stopSampling(page), 'c7', 'b9');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
