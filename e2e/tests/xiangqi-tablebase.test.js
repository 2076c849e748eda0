// Endgame tablebases in the Xiangqi page: with KR-K generated into the data
// dir, the position editor says the verdict as soon as the ending is set
// up, and the board shows it beside the engine's thinking once played.
// Any console error fails.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ludusBin, startServer, launch, newPage } from './helpers.js';

const env = { server: null, browser: null };

before(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ludus-e2e-tb-'));
  // Generated before the server starts: it reads the tables on first use.
  execFileSync(ludusBin(), ['--data-dir', dataDir, 'xiangqi', 'tablebase', 'generate', '--only', 'KR-K']);
  env.server = await startServer(dataDir);
  env.browser = await launch();
});

after(async () => {
  if (env.browser) await env.browser.close();
  if (env.server) await env.server.stop();
});

test('the editor and the board show the tablebase verdict', async () => {
  const page = await newPage(env.browser);
  await page.goto(`${env.server.url}xiangqi`);
  await page.waitForSelector('#new-dialog[open]');
  await page.click('#new-cancel');
  await page.keyboard.press('e');
  await page.waitForSelector('#view-editor:not([hidden])');
  await page.fill('#ed-fen', '4k4/9/9/9/9/9/9/9/9/R2K5 w');
  await page.dispatchEvent('#ed-fen', 'change');
  await page.waitForFunction(() => /Tablebase: Red wins in 2/.test(document.getElementById('editor-message').textContent));
  await page.click('#ed-humans');
  await page.waitForFunction(() => window.__ludus.state && window.__ludus.state.fen.startsWith('4k4/9/9/9/9/9/9/9/9/R2K5'));
  await page.waitForSelector('#tablebase:not([hidden])');
  assert.equal(await page.textContent('#tablebase'), 'Tablebase: Red wins in 2');
  // The start position is not covered: nothing shown.
  await page.keyboard.press('e');
  await page.waitForSelector('#view-editor:not([hidden])');
  await page.click('#ed-start');
  // The message still says the last ending's verdict until the start position's
  // validation comes back: wait for that one, which must name no verdict.
  await page.waitForFunction(() => document.getElementById('ed-fen').value.startsWith('rnbakabnr'));
  await page.waitForFunction(() => {
    const text = document.getElementById('editor-message').textContent;
    return /legal position/i.test(text) && !/Tablebase/.test(text);
  });
  assert.deepEqual(page.errors, []);
});
