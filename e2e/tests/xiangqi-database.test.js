// The Xiangqi games database in chromium: a PGN collection of three games
// imported through the import box ("Keep in the games database"), an XQF
// record through the database's own file input (sent as base64), a file
// too large for the page refused with what to do instead, a search
// by player and a result filter narrowing the table, and a click opening a
// game. Any console error fails.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newPage, useBrowser } from './helpers.js';

const env = useBrowser();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const XQF = path.join(root, 'crates', 'xiangqi', 'tests', 'data', 'xqf-1.0-spec-example.xqf');

const CLUB = [
  '[Event "Club Cup"]', '[Date "2021.04.03"]', '[Red "Hu Ronghua"]', '[Black "Yang Guanlin"]', '',
  '1. h2e2 h9g7 2. h0g2 1-0', '',
  '[Event "Club Cup"]', '[Date "2022.05.06"]', '[Red "Wang Tianyi"]', '[Black "Hu Ronghua"]', '',
  '1. c3c4 1/2-1/2', '',
  '[Event "Friendly"]', '[Red "Zhao Xinxin"]', '[Black "Wang Tianyi"]', '', '1. b2e2 *', '',
].join('\n');

const rows = (page) => page.$$eval('#db-rows tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));

test('import a collection and an XQF record, search, filter and open a game', async () => {
  const page = await newPage(env.browser);
  await page.goto(`${env.server.url}xiangqi`);
  await page.waitForSelector('#new-dialog[open]');
  await page.click('#new-cancel');

  // The import box keeps a PGN file of three games in the database.
  await page.click('#nav-import');
  await page.check('#import-keep');
  await page.setInputFiles('#import-file', { name: 'club.pgn', mimeType: 'text/plain', buffer: Buffer.from(CLUB) });
  await page.waitForSelector('#games-dialog[open]');
  await page.waitForFunction(() => document.getElementById('db-count').textContent === '3 of 3 games');

  // An XQF record (binary) through the database's file input.
  await page.setInputFiles('#db-file', XQF);
  await page.waitForFunction(() => document.getElementById('db-count').textContent.startsWith('4 of 4 games'));
  const all = await rows(page);
  assert.deepEqual(all.map((r) => r[1]), ['Wang Tianyi', 'Hu Ronghua', '柳大华', 'Zhao Xinxin']);
  assert.deepEqual(all[1], ['2021.04.03', 'Hu Ronghua', 'Yang Guanlin', '1-0', all[1][4], '2', 'club.pgn #1']);
  await env.shot(page, 'xiangqi-database');

  // A file too large for one message is sent to the command line instead.
  await page.setInputFiles('#db-file', { name: 'huge.pgn', mimeType: 'text/plain', buffer: Buffer.alloc(70000, 'x') });
  await page.waitForSelector('#db-error:not([hidden])');
  assert.match(await page.textContent('#db-error'), /huge\.pgn is larger than 60000 bytes: import it with "ludus xiangqi import"/);

  // By player (either side), then only the draws.
  await page.fill('#db-search', 'hu ronghua');
  await page.waitForFunction(() => document.getElementById('db-count').textContent === '2 of 4 games');
  await page.selectOption('#db-result', 'draw');
  await page.waitForFunction(() => document.getElementById('db-count').textContent === '1 of 4 games');
  assert.deepEqual((await rows(page)).map((r) => r[1]), ['Wang Tianyi']);

  // A search that does not read says why.
  await page.fill('#db-search', 'date:soon');
  await page.waitForSelector('#db-error:not([hidden])');
  assert.match(await page.textContent('#db-error'), /date:soon/);

  // Open the XQF game: its eight moves (16 plies) are in the move list.
  await page.selectOption('#db-result', 'any');
  await page.fill('#db-search', '柳大华');
  await page.waitForFunction(() => {
    const rows = document.querySelectorAll('#db-rows tr');
    return rows.length === 1 && rows[0].cells[1].textContent === '柳大华';
  });
  await page.click('#db-rows tr');
  await page.waitForFunction(() => window.__ludus.state && window.__ludus.state.moves.length === 16);
  assert.equal(await page.isVisible('#games-dialog'), false);
  assert.deepEqual(page.errors, []);
});
