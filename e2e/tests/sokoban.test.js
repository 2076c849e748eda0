// The Sokoban pages in chromium: solve a level with the keyboard and
// another with the mouse, reload and find the progress kept, use the
// editor, and save a screenshot of every page. Any console error fails.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, useBrowser, chooseCollection, FIXTURE_COLLECTION } from './helpers.js';

const env = useBrowser();
const { shot } = env;

// The centre of board cell (x, y) in page coordinates.
async function cellPoint(page, x, y) {
  const box = await page.locator('#board').boundingBox();
  const width = await page.evaluate(() => window.__ludus.state.width);
  const size = box.width / width;
  return [box.x + (x + 0.5) * size, box.y + (y + 0.5) * size];
}

// Opens level n of the test levels from the level browser.
async function showTestLevels(page) {
  await page.goto(`${env.server.url}sokoban#levels`);
  await page.waitForSelector('.level-card');
  await chooseCollection(page, FIXTURE_COLLECTION);
  await page.waitForSelector('.level-card[data-level="3"]');
}

// Opens level n of the test levels and waits until the page is ready for
// keys: a key pressed during an animation only hurries it on.
async function openLevel(page, n) {
  await showTestLevels(page);
  await page.locator(`.level-card[data-level="${n}"]`).click();
  await page.waitForFunction(([n, collection]) => {
    const p = window.__ludus;
    return p.state && p.state.level === n && p.state.collection === collection && p.view === 'play' && !p.animating;
  }, [n, FIXTURE_COLLECTION]);
}

// Waits for a selector; on a timeout, says what the page showed instead.
async function expectShown(page, selector) {
  try {
    await page.waitForSelector(selector);
  } catch (e) {
    const seen = await page.evaluate(() => {
      const p = window.__ludus;
      return { view: p.view, animating: p.animating, thinking: p.thinking, level: p.state && p.state.level,
        collection: p.state && p.state.collection, message: document.getElementById('message').textContent };
    });
    throw new Error(`${e.message}\nthe page: ${JSON.stringify(seen)}`);
  }
}

test('solve a level with the keyboard', async () => {
  const page = await newPage(env.browser);
  await page.goto(env.server.url);
  await page.waitForFunction(() => document.getElementById('status-sokoban').textContent.includes('of'));
  await shot(page, 'home');
  await page.click('#card-sokoban');
  await page.waitForSelector('.level-card');
  await shot(page, 'levels');
  await openLevel(page, 1); // "Around the Corner": rDldR
  for (const key of ['ArrowRight', 's', 'h', 'j', 'd']) {
    await page.keyboard.press(key);
    await page.waitForTimeout(40);
  }
  await expectShown(page, '#solved-dialog[open]');
  assert.match(await page.textContent('#solved-records'), /First solve/);
  assert.equal(await page.textContent('#moves'), '5');
  await shot(page, 'solved');
  // u in the dialog undoes one move, not two.
  await page.keyboard.press('u');
  await page.waitForFunction(() => window.__ludus.state.moves === 4);
  await page.waitForTimeout(200);
  assert.equal(await page.evaluate(() => window.__ludus.state.moves), 4);
  await page.keyboard.press('d');
  await expectShown(page, '#solved-dialog[open]');
  // Enter goes on to the next level.
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.__ludus.state.level === 2);
  // Undo, redo and restart keys.
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => window.__ludus.state.moves === 1);
  await page.keyboard.press('u');
  await page.waitForFunction(() => window.__ludus.state.moves === 0);
  await page.keyboard.press('y');
  await page.waitForFunction(() => window.__ludus.state.moves === 1);
  await page.keyboard.press('r');
  await page.waitForFunction(() => window.__ludus.state.moves === 0 && window.__ludus.state.can_undo);
  await shot(page, 'play');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('solve a level with mouse clicks', async () => {
  const page = await newPage(env.browser);
  await openLevel(page, 0); // "First Steps": #@$.#
  // Click a box, then its goal: the server finds the pushes.
  await page.mouse.click(...(await cellPoint(page, 2, 1)));
  await page.mouse.click(...(await cellPoint(page, 3, 1)));
  await expectShown(page, '#solved-dialog[open]');
  await page.click('#solved-next');
  await page.waitForFunction(() => window.__ludus.state.level === 2);
  await page.click('#b-prev');
  await page.waitForFunction(() => window.__ludus.state.level === 1 && !window.__ludus.animating);
  // Around the Corner: click the box, click the goal; right click undoes.
  // Each step waits for its animation to end: a push started during one
  // only hurries it on.
  const settledAt = (moves) => page.waitForFunction(
    (n) => window.__ludus.state.moves === n && !window.__ludus.animating, moves);
  await page.mouse.click(...(await cellPoint(page, 4, 1)));
  await settledAt(3);
  await page.mouse.click(...(await cellPoint(page, 4, 1)), { button: 'right' });
  await settledAt(2);
  const [bx, by] = await cellPoint(page, 2, 2);
  const [gx, gy] = await cellPoint(page, 3, 3);
  await page.mouse.move(bx, by);
  await page.mouse.down();
  await page.mouse.move(gx, gy, { steps: 4 });
  await page.mouse.up();
  await expectShown(page, '#solved-dialog[open]');
  assert.match(await page.textContent('#solved-stats'), /pushes 2/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('progress and the game survive a reload', async () => {
  const page = await newPage(env.browser);
  await showTestLevels(page);
  const solved = await page.locator('.level-card.solved').count();
  assert.ok(solved >= 2, `solved cards: ${solved}`);
  assert.match(await page.textContent('.level-card[data-level="0"] .meta'), /solved/);
  await page.reload();
  await page.waitForSelector('.level-card.solved'); // the last collection played comes back
  // A game in progress comes back after a reload.
  await openLevel(page, 2); // "Two Lanes"
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => window.__ludus.state.moves === 3);
  await page.waitForTimeout(2100); // the level's clock passes two seconds
  await page.reload();
  await page.waitForFunction(() => window.__ludus.state && window.__ludus.state.moves === 3);
  assert.equal(await page.textContent('#moves'), '3');
  // ... and its clock goes on from there, not from 0:00.
  await page.waitForFunction(() => /^0:0[2-9]$/.test(document.getElementById('time').textContent));
  // The home page counts the solves.
  await page.goto(env.server.url);
  await page.waitForFunction(() => /\d+ of \d+/.test(document.getElementById('status-sokoban').textContent));
  assert.match(await page.textContent('#status-sokoban'), /^[2-9]\d* of \d+/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('hint, replay and the editor', async () => {
  const page = await newPage(env.browser);
  await openLevel(page, 3); // "Crossing"
  await page.keyboard.press('H');
  await page.waitForFunction(() => window.__ludus.state.pushes === 1 && !window.__ludus.animating, null, { timeout: 20000 });
  await openLevel(page, 1);
  await page.keyboard.press('v');
  await expectShown(page, '#replay-bar:not([hidden])');
  await page.keyboard.press('Escape');
  // Edit this level: the editor gets its start position.
  await page.click('#b-edit');
  await page.waitForSelector('#findings li.ok');
  assert.equal(await page.inputValue('#ed-title'), 'Around the Corner');
  assert.equal(await page.inputValue('#ed-width'), '6');
  await page.click('#ed-paste');
  await page.fill('#paste-text', '#######\n#@ $ .#\n#######');
  await page.click('#paste-ok');
  await page.waitForSelector('#findings li.ok');
  await shot(page, 'editor');
  await page.click('#ed-play');
  await page.waitForFunction(() => window.__ludus.state && window.__ludus.state.collection === null);
  // The way back is there from the start of the play-test, not after a move.
  await expectShown(page, '#b-back-editor:not([hidden])');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expectShown(page, '#solved-dialog[open]');
  assert.match(await page.textContent('#solved-records'), /play-test: your progress is not recorded/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a level the solver solves is not counted as the player\'s', async () => {
  const page = await newPage(env.browser);
  await openLevel(page, 3); // "Crossing", not solved by the tests before
  await page.keyboard.press('A');
  await expectShown(page, '#solved-dialog[open]');
  assert.equal(await page.textContent('#solved-title'), 'Solved by the solver');
  assert.match(await page.textContent('#solved-records'), /not counted as yours/);
  await shot(page, 'solved-by-the-solver');
  await page.click('#solved-levels');
  await page.waitForSelector('.level-card[data-level="3"]');
  assert.match(await page.textContent('.level-card[data-level="3"] .meta'), /not solved yet/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Esc during solve and show takes the solver\'s moves back', async () => {
  const page = await newPage(env.browser);
  await openLevel(page, 3); // "Crossing"
  await page.keyboard.press('ArrowUp'); // the player's own move stays
  await page.waitForFunction(() => window.__ludus.state.moves === 1);
  await page.keyboard.press('A');
  await page.waitForFunction(() => window.__ludus.animating && window.__ludus.state.moves >= 3, null, { timeout: 20000 });
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.getElementById('message').textContent === 'Stopped: back where you were.');
  await page.waitForFunction(() => !window.__ludus.animating);
  assert.equal(await page.evaluate(() => window.__ludus.state.moves), 1);
  assert.equal(await page.textContent('#moves'), '1');
  assert.equal(await page.isVisible('#solved-dialog[open]'), false);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('phone width', async () => {
  const page = await newPage(env.browser, { width: 390, height: 844 });
  await openLevel(page, 2);
  await shot(page, 'play-phone');
  const box = await page.locator('#board').boundingBox();
  assert.ok(box.width <= 390 && box.width > 200, `board width ${box.width}`);
  await page.goto(`${env.server.url}sokoban#levels`);
  await page.waitForSelector('.level-card');
  await shot(page, 'levels-phone');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the editor on a phone keeps its panel off the board', async () => {
  for (const viewport of [{ width: 390, height: 844 }, { width: 360, height: 640 }]) {
    const context = await env.browser.newContext({ viewport, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    await page.goto(`${env.server.url}sokoban#editor`);
    await page.waitForFunction(() => {
      const c = document.getElementById('editor-canvas');
      return c && c.getBoundingClientRect().width > 0;
    });
    const board = await page.locator('#editor-canvas').boundingBox();
    const panel = await page.locator('.editor-side').boundingBox();
    assert.ok(board.x >= 0 && board.x + board.width <= viewport.width, `the board fits the width: ${JSON.stringify(board)}`);
    const overlap = board.y < panel.y + panel.height && panel.y < board.y + board.height
      && board.x < panel.x + panel.width && panel.x < board.x + board.width;
    assert.ok(!overlap, `the panel ${JSON.stringify(panel)} covers the board ${JSON.stringify(board)}`);
    await shot(page, `editor-phone-${viewport.width}`);
    await context.close();
  }
});

test('a bad level file is reported where the player looks', async () => {
  const page = await newPage(env.browser);
  await page.goto(`${env.server.url}sokoban#levels`);
  await page.waitForSelector('.level-card');
  await page.setInputFiles('#upload', {
    name: 'broken.sok', mimeType: 'text/plain', buffer: Buffer.from('#####\n#.$ #\n#####\n'),
  });
  const alert = page.locator('#levels-alert[role="alert"]');
  await alert.waitFor({ state: 'visible' });
  const text = await alert.textContent();
  assert.match(text, /broken\.sok/);
  assert.match(text, /player/i);
  // Red, not small grey text.
  const colour = await alert.evaluate((el) => getComputedStyle(el).backgroundColor);
  assert.equal(colour, 'rgb(160, 42, 42)');
  await shot(page, 'sokoban-bad-upload');
  // It stays until dismissed.
  await page.waitForTimeout(300);
  assert.ok(await alert.isVisible());
  await page.click('#levels-alert-close');
  assert.equal(await alert.isVisible(), false);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a bad level file names the level and the line, until the next upload', async () => {
  const page = await newPage(env.browser);
  await page.goto(`${env.server.url}sokoban#levels`);
  await page.waitForSelector('.level-card');
  const two = '; first\n#####\n#.$ #\n#####\n\n; second\n#####\n#.$ #\n#####\n';
  await page.setInputFiles('#upload', { name: 'two.sok', mimeType: 'text/plain', buffer: Buffer.from(two) });
  const alert = page.locator('#levels-alert[role="alert"]');
  await alert.waitFor({ state: 'visible' });
  assert.match(await alert.textContent(), /two\.sok: level 1, line 2: the level has no player; level 2, line 7: the level has no player/);
  await shot(page, 'sokoban-bad-upload-levels');
  // The next upload replaces it: junk says what a level is.
  await page.setInputFiles('#upload', { name: 'junk.txt', mimeType: 'text/plain', buffer: Buffer.from('hello\nworld\n') });
  await page.waitForFunction(() => /junk\.txt: no level found/.test(document.getElementById('levels-alert').textContent));
  assert.doesNotMatch(await alert.textContent(), /two\.sok/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// The colour of the board canvas at the centre of cell (x, y), as [r, g, b].
async function boardPixel(page, x, y) {
  return page.evaluate(([x, y]) => {
    const canvas = document.getElementById('board');
    const size = canvas.width / window.__ludus.state.width;
    const data = canvas.getContext('2d').getImageData(Math.floor((x + 0.5) * size), Math.floor((y + 0.5) * size), 1, 1).data;
    return [data[0], data[1], data[2]];
  }, [x, y]);
}

const isGoalLine = ([r, g, b]) => r > 200 && g < 120 && b > 200;

test('the goal hint draws a line from each box to its goal', async () => {
  const page = await newPage(env.browser);
  await openLevel(page, 2); // "Two Lanes": each box along its lane to the goal at its end
  // Between the top box (2, 1) and its goal (5, 1).
  assert.ok(!isGoalLine(await boardPixel(page, 4, 1)));
  await page.keyboard.press('g');
  await page.waitForFunction(() => window.__ludus.state.goals);
  await page.waitForFunction(() => /6 pushes at least/.test(document.getElementById('message').textContent));
  assert.ok(isGoalLine(await boardPixel(page, 4, 1)), `${await boardPixel(page, 4, 1)}`);
  assert.ok(isGoalLine(await boardPixel(page, 3, 2)));
  assert.ok(!isGoalLine(await boardPixel(page, 3, 0)) && !isGoalLine(await boardPixel(page, 1, 1)));
  await shot(page, 'goal-hint');
  // The button hides it again.
  await page.click('#b-goals');
  await page.waitForFunction(() => !window.__ludus.state.goals);
  assert.ok(!isGoalLine(await boardPixel(page, 4, 1)));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the sound and music switches are remembered, the music off at first', async () => {
  const page = await newPage(env.browser);
  await openLevel(page, 1);
  assert.equal(await page.textContent('#sound'), 'Sound on');
  assert.equal(await page.textContent('#music'), 'Music off');
  // Steps, pushes and undos play their effects without an error.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('u');
  await page.click('#sound');
  await page.click('#music');
  assert.equal(await page.textContent('#sound'), 'Sound off');
  assert.equal(await page.textContent('#music'), 'Music on');
  await page.reload();
  await page.waitForFunction(() => window.__ludus.state);
  assert.equal(await page.textContent('#sound'), 'Sound off');
  assert.equal(await page.textContent('#music'), 'Music on');
  await page.click('#music');
  assert.equal(await page.textContent('#music'), 'Music off');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
