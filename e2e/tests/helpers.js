// Shared set-up of the browser tests: the `ludus` binary (LUDUS_BIN, or
// built with cargo once), a server on a free loopback port with a temp data
// dir (its URL read from stdout), and chromium with console errors caught.

import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

let built = null;
export function ludusBin() {
  if (process.env.LUDUS_BIN) return process.env.LUDUS_BIN;
  if (!built) {
    const target = process.env.CARGO_TARGET_DIR || path.join(root, 'target');
    execFileSync('cargo', ['build', '-p', 'ludus', '--bin', 'ludus'], { cwd: root, stdio: 'inherit' });
    built = path.join(target, 'debug', 'ludus');
  }
  return built;
}

// The test levels (shared with the Rust web tests): known boards and
// solutions, whatever the built-in collections hold. They go into the data
// dir's levels folder, so they come after the built-in collections: where,
// startServer reads from the server's list (the first "your levels").
export const FIXTURE = path.join(root, 'crates', 'ludus', 'tests', 'web_common', 'levels.sok');
export let FIXTURE_COLLECTION = null;

async function findFixture(url) {
  const response = await fetch(`${url}api/sokoban/collections`);
  const list = await response.json();
  const found = list.collections.find((c) => c.name === 'web-test');
  if (!found) throw new Error('the test levels are not in the collection list');
  FIXTURE_COLLECTION = found.index;
}

// Shows collection `index` in the level browser and waits for its levels.
export async function chooseCollection(page, index) {
  await page.locator(`.shelf-item[data-collection="${index}"]`).click();
  await page.waitForFunction((i) => {
    const p = window.__ludus;
    return p.levels && p.levels.collection.index === i && document.querySelector('.level-card');
  }, index);
}

// Starts `ludus serve` on `port` (0: a free one); resolves with { url, dataDir, stop }.
export function startServer(dataDir = mkdtempSync(path.join(tmpdir(), 'ludus-e2e-')), port = 0) {
  const levels = path.join(dataDir, 'sokoban', 'levels');
  mkdirSync(levels, { recursive: true });
  copyFileSync(FIXTURE, path.join(levels, 'web-test.sok'));
  const child = spawn(ludusBin(), ['--data-dir', dataDir, 'serve', '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no URL from ludus serve; stderr: ${stderr}`)), 60000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/(http:\/\/[^\s]+)/);
      if (m) {
        clearTimeout(timer);
        const server = {
          url: m[1],
          dataDir,
          stop: () => new Promise((done) => { child.once('exit', done); child.kill('SIGTERM'); }),
        };
        findFixture(server.url).then(() => resolve(server), reject);
      }
    });
    child.once('exit', (code) => reject(new Error(`ludus serve exited with ${code}: ${stderr}`)));
  });
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

// A page that records console errors and page errors in `errors`.
export async function newPage(browser, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (m) => { if (m.type() === 'error') page.errors.push(m.text()); });
  page.on('pageerror', (e) => page.errors.push(String(e)));
  return page;
}

// Where screenshots go (printed once by the tests).
export function shotDir() {
  const dir = process.env.LUDUS_SHOTS || path.join(tmpdir(), 'ludus-e2e-shots');
  mkdirSync(dir, { recursive: true });
  return dir;
}

// One server and one chromium for a test file: registers the before/after
// hooks and returns { server, browser, shot } (server and browser are set
// once `before` has run); shot(page, name, options) saves a screenshot.
export function useBrowser() {
  const env = { server: null, browser: null };
  let shots;
  env.shot = (page, name, options = {}) =>
    page.screenshot({ path: path.join(shots, `${name}.png`), ...options });
  before(async () => {
    env.server = await startServer();
    env.browser = await launch();
    shots = shotDir();
    console.log(`screenshots in ${shots}`);
  });
  after(async () => {
    if (env.browser) await env.browser.close();
    if (env.server) await env.server.stop();
  });
  return env;
}

// The page coordinates of a Xiangqi board point (an ICCS square like "h2").
export async function boardPoint(page, sq) {
  const box = await page.locator('#board').boundingBox();
  const [x, y] = await page.evaluate((sq) => window.__ludus.geo.point(sq), sq);
  return [box.x + x, box.y + y];
}

// Opens the Xiangqi page at `url` and waits for the remembered options.
export async function openXiangqi(page, url) {
  await page.goto(`${url}xiangqi`);
  await page.waitForFunction(() => window.__ludus.options);
}
