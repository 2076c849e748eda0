// The Sokoban level browser with the built-in collections: grouped by
// author with a count solved each, a filter by title and by solved, the
// first unsolved level, a level's par and difficulty, a level updated
// since it was solved, and the par line of the solved dialog.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { newPage, useBrowser, chooseCollection } from './helpers.js';

const env = useBrowser();

// A levels-folder library whose levels carry a par and a difficulty.
const board = (rows) => rows.join('\n');
function rated(first) {
  return JSON.stringify({
    version: 1, title: 'Rated', total_levels: 3,
    levels: [
      { id: 1, name: 'Start', width: first[0].length, height: 3, data: board(first), min_pushes: 1, difficulty: 'Medium' },
      { id: 2, name: 'Next', width: 6, height: 3, data: board(['######', '#@$ .#', '######']), min_pushes: 2, min_pushes_proven: false },
      { id: 3, name: 'Last', width: 7, height: 3, data: board(['#######', '#@$  .#', '#######']) },
    ],
  });
}
const writeRated = (first) =>
  writeFileSync(path.join(env.server.dataDir, 'sokoban', 'levels', 'rated.json'), rated(first));

async function ratedIndex(page) {
  return page.evaluate(() => window.__ludus.collections.find((c) => c.name === 'Rated').index);
}

const shelfCount = (page, i) => page.textContent(`.shelf-item[data-collection="${i}"] .count`);

test('collections grouped by author, with their count solved and credit', async () => {
  writeRated(['#####', '#@$.#', '#####']);
  const page = await newPage(env.browser);
  await page.goto(`${env.server.url}sokoban#levels`);
  await page.waitForSelector('.level-card');
  const shelves = await page.locator('#shelves h2').allTextContents();
  assert.deepEqual(shelves.slice(0, 2), ['Ludus', 'David W. Skinner']);
  assert.ok(shelves.includes('Your levels'), shelves.join(', '));
  // Microban I is under David W. Skinner: the heading comes before it.
  const under = await page.evaluate(() => {
    const item = [...document.querySelectorAll('.shelf-item')].find((b) => b.querySelector('.name').textContent === 'Microban I');
    let h = item.previousElementSibling;
    while (h && h.tagName !== 'H2') h = h.previousElementSibling;
    return h && h.textContent;
  });
  assert.equal(under, 'David W. Skinner');
  assert.match(await shelfCount(page, 1), /^0\/\d+$/);
  await page.locator('.shelf-item', { hasText: 'Microban I' }).first().click();
  await page.waitForFunction(() => document.getElementById('collection-name').textContent === 'Microban I');
  assert.match(await page.textContent('#collection-author'), /David W\. Skinner/);
  assert.ok((await page.textContent('#collection-credit')).length > 10);
  // Only the chosen collection's levels are on the page.
  const cards = await page.locator('.level-card').count();
  const count = await page.evaluate(() => window.__ludus.levels.levels.length);
  assert.equal(cards, count);
  await env.shot(page, 'browser-microban');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('par and difficulty, the filter, the first unsolved level and the par line', async () => {
  writeRated(['#####', '#@$.#', '#####']);
  const page = await newPage(env.browser);
  await page.goto(`${env.server.url}sokoban#levels`);
  await page.waitForSelector('.level-card');
  const rated = await ratedIndex(page);
  await chooseCollection(page, rated);
  assert.equal(await page.textContent('.level-card[data-level="0"] .rating'), 'par 1 · Medium');
  assert.equal(await page.textContent('.level-card[data-level="1"] .rating'), 'par 2 (best found)');
  assert.equal(await page.locator('.level-card[data-level="2"] .rating').count(), 0);
  assert.equal(await shelfCount(page, rated), '0/3');

  // Solve the first: the dialog compares with the par.
  await page.locator('.level-card[data-level="0"]').click();
  await page.waitForFunction(() => window.__ludus.view === 'play' && window.__ludus.state && !window.__ludus.animating);
  // The play view shows the level's par and difficulty.
  assert.equal(await page.textContent('#par-wrap'), 'par 1 · Medium');
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('#solved-dialog[open]');
  assert.equal(await page.textContent('#solved-par'), 'Par 1 push, you 1, par!');
  await env.shot(page, 'browser-solved-par');
  await page.click('#solved-levels');
  await page.waitForFunction((i) => {
    const b = document.querySelector(`.shelf-item[data-collection="${i}"] .count`);
    return b && b.textContent === '1/3';
  }, rated);

  // First unsolved: the focus goes to level 2.
  await page.waitForSelector('.level-card[data-level="0"].solved');
  await page.click('#first-unsolved');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.level), '1');
  // The arrow keys move between the cards.
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.level), '2');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.level), '1');

  // The filter: unsolved levels only, then by title.
  await page.selectOption('#show', 'unsolved');
  assert.deepEqual(await page.locator('.level-card').evaluateAll((cards) => cards.map((c) => c.dataset.level)), ['1', '2']);
  await page.selectOption('#show', 'solved');
  assert.deepEqual(await page.locator('.level-card').evaluateAll((cards) => cards.map((c) => c.dataset.level)), ['0']);
  await page.selectOption('#show', 'all');
  await page.fill('#filter', 'las');
  assert.deepEqual(await page.locator('.level-card').evaluateAll((cards) => cards.map((c) => c.dataset.level)), ['2']);
  // A collection's title filters the list of collections.
  await page.fill('#filter', 'sasquatch');
  const names = await page.locator('.shelf-item .name').allTextContents();
  assert.ok(names.length >= 2 && names.every((n) => /Sasquatch|Rated/.test(n)), names.join(', '));
  // ... or its author's name.
  await page.fill('#filter', 'holland');
  const byAuthor = await page.locator('.shelf-item .name').allTextContents();
  assert.ok(byAuthor.includes('Bagatelle') && !byAuthor.includes('Microban I'), byAuthor.join(', '));
  // f from the keyboard, with the filter hiding the level: the filter goes.
  await page.keyboard.press('Escape');
  assert.equal(await page.inputValue('#filter'), '');
  await page.selectOption('#show', 'solved');
  await page.locator('.level-card[data-level="0"]').focus();
  await page.keyboard.press('f');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.level), '1');
  assert.equal(await page.inputValue('#show'), 'all');
  await env.shot(page, 'browser-rated');

  // The first level changes at the same place: its old record no longer applies.
  writeRated(['######', '#@$ .#', '######']);
  await page.reload();
  await page.waitForSelector('.level-card[data-level="0"].updated');
  assert.match(await page.textContent('.level-card[data-level="0"] .updated'), /updated since you solved it/);
  assert.equal(await shelfCount(page, rated), '0/3');
  assert.match(await page.textContent('#collection-info'), /1 updated/);
  await env.shot(page, 'browser-updated');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
