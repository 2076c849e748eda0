// A Tetris versus room with two browsers (two contexts, as two devices): page A opens a
// room and shows its link, page B opens the link and takes the second seat; both count
// down and see both matrices; A hard-drops and B sees A's stack change; B reloads and is
// still player 2; a third page watches without a seat; A leaves and B sees the win. Any
// console error fails.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, useBrowser } from './helpers.js';

const env = useBrowser();
const { shot } = env;

const room = (page) => page.evaluate(() => {
  const r = window.__ludusRoom, s = r.state;
  return {
    role: r.role, seat: r.seat, room: r.room,
    phase: s && s.phase, paused: s && s.paused, winner: s && s.winner, reason: s && s.reason,
    pieces: s ? s.sides.map((x) => x.stats.pieces) : [],
    cells: s ? s.sides.map((x) => x.board.replace(/\./g, '').length) : [],
  };
});

test('two browsers play a room: link, countdown, live matrices, reload, spectator, leave', async () => {
  const a = await newPage(env.browser);
  const b = await newPage(env.browser);
  await a.goto(`${env.server.url}tetris.html`);
  await a.waitForSelector('#room-create');
  await a.fill('#room-name', 'Ana');
  await a.click('#room-create');
  await a.waitForSelector('#r-waiting:not([hidden])');
  const link = await a.inputValue('#r-link');
  assert.match(link, /\/tetris\.html\?room=[0-9a-f]{32}$/);
  assert.match(a.url(), /\?room=[0-9a-f]{32}$/);
  assert.ok(await a.isVisible('#r-reach'), 'on loopback the page says how another device reaches it');
  assert.match(await a.textContent('#r-status'), /Waiting for a second player/);
  await shot(a, 'tetris-room-waiting');

  await b.goto(link);
  await b.waitForFunction(() => window.__ludusRoom.seat === 2);
  // B names itself; A sees it. Typing the name plays no keys.
  await b.fill('#r-name', 'Bea');
  await b.press('#r-name', 'Enter');
  await a.waitForFunction(() => window.__ludusRoom.state?.seats[1]?.name === 'Bea');
  // Both count down (3 s) with both matrices on screen.
  for (const page of [a, b]) {
    await page.waitForFunction(() => window.__ludusRoom.state?.phase === 'countdown');
    assert.match(await page.textContent('#r-overlay'), /^[123]$/);
    assert.ok(await page.isVisible('#r-overlay'));
    assert.ok(await page.isVisible('#r-board-0'));
    assert.ok(await page.isVisible('#r-board-1'));
  }
  assert.ok(await a.isHidden('#r-waiting'));
  assert.match(await b.textContent('#r-label-0'), /Bea \(you\)/);
  assert.match(await b.textContent('#r-label-1'), /Ana/);
  await shot(b, 'tetris-room-countdown');

  // Once playing, A's hard drop shows on B's page (A's side is on B's right).
  await a.waitForFunction(() => window.__ludusRoom.state.phase === 'playing', null, { timeout: 10000 });
  await a.keyboard.press('Space');
  await b.waitForFunction(() => window.__ludusRoom.state.sides[0].stats.pieces === 1);
  const seen = await room(b);
  assert.equal(seen.pieces[1], 0, 'B\'s own matrix is untouched');
  assert.equal(seen.cells[0], 4, 'A\'s piece is on A\'s matrix');
  assert.match(await b.textContent('#r-stats-1'), /pieces 1/);
  await b.keyboard.press('Space');
  await a.waitForFunction(() => window.__ludusRoom.state.sides[1].stats.pieces === 1);
  await shot(a, 'tetris-room-play');

  // A third browser watches: no seat, no keys.
  const c = await newPage(env.browser);
  await c.goto(link);
  await c.waitForFunction(() => window.__ludusRoom.role === 'spectator');
  assert.ok(await c.isVisible('#r-spectating'));
  await c.keyboard.press('Space');
  await c.waitForTimeout(300);
  assert.deepEqual((await room(a)).pieces, [1, 1], 'the spectator moved nothing');
  await a.waitForFunction(() => window.__ludusRoom.state.spectators === 1);

  // B reloads: the game waits for it and it is still player 2.
  await b.reload();
  await b.waitForFunction(() => window.__ludusRoom.seat === 2 && window.__ludusRoom.state);
  const back = await room(b);
  assert.equal(back.role, 'player');
  assert.equal(back.pieces[1], 1, 'B\'s stack is still there');
  await b.waitForFunction(() => window.__ludusRoom.state.phase === 'playing' && !window.__ludusRoom.state.paused);
  await b.keyboard.press('Space');
  await a.waitForFunction(() => window.__ludusRoom.state.sides[1].stats.pieces === 2);

  // A leaves: B wins, and sees why.
  await a.click('#r-leave');
  await a.waitForSelector('#view-menu:not([hidden])');
  assert.doesNotMatch(a.url(), /room=/);
  await b.waitForSelector('#room-dialog[open]');
  assert.match(await b.textContent('#rr-title'), /You win!/);
  assert.match(await b.textContent('#rr-note'), /Ana left the room/);
  assert.match(await b.textContent('#r-label-1'), /Ana · left/);
  const end = await room(b);
  assert.equal(end.winner, 2);
  assert.equal(end.reason, 'left the room');
  await c.waitForFunction(() => window.__ludusRoom.state.winner === 2);
  assert.match(await c.textContent('#r-status'), /Bea wins/);
  await shot(b, 'tetris-room-won');

  for (const page of [a, b, c]) assert.deepEqual(page.errors, []);
});

test('a phone joins a room and plays with the touch pad', async () => {
  const a = await newPage(env.browser);
  const context = await env.browser.newContext({ viewport: { width: 844, height: 390 }, hasTouch: true, isMobile: true });
  const phone = await context.newPage();
  phone.errors = [];
  phone.on('console', (m) => { if (m.type() === 'error') phone.errors.push(m.text()); });
  phone.on('pageerror', (e) => phone.errors.push(String(e)));

  await a.goto(`${env.server.url}tetris.html`);
  await a.click('#room-create');
  await a.waitForSelector('#r-waiting:not([hidden])');
  await phone.goto(await a.inputValue('#r-link'));
  await phone.waitForFunction(() => window.__ludusRoom.seat === 2);
  assert.ok(await phone.isVisible('#r-touch'), 'the touch pad shows for a seated player on a phone');
  assert.ok(await a.isHidden('#r-touch'), 'no touch pad on a desktop');
  await phone.waitForFunction(() => window.__ludusRoom.state?.phase === 'playing', null, { timeout: 10000 });
  await phone.tap('#r-touch button[data-action="hard_drop"]');
  await a.waitForFunction(() => window.__ludusRoom.state.sides[1].stats.pieces === 1);
  await shot(phone, 'tetris-room-phone');
  await phone.click('#r-leave');
  await a.waitForSelector('#room-dialog[open]');
  assert.match(await a.textContent('#rr-title'), /You win!/);
  for (const page of [a, phone]) assert.deepEqual(page.errors, []);
  await context.close();
});
