// Map packs in chromium: a .zip with a skin uploaded from the level list is
// installed, its first level opens drawn with the skin's tiles, and the
// Skin switch brings the built-in sprites back. Any console error fails.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { newPage, useBrowser, ludusBin } from './helpers.js';

const env = useBrowser();

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// A `side` × `side` PNG of one colour [r, g, b].
function solidPng(side, [r, g, b]) {
  const chunk = (type, data) => {
    const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0); ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 8; ihdr[9] = 2; // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array(side).fill([r, g, b]).flat())]);
  const raw = Buffer.concat(Array(side).fill(row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0)),
  ]);
}

const WALL = [255, 0, 255];

// A folder pack with a magenta wall tile, made into a .zip by `ludus sokoban pack export`.
function packZip() {
  const dir = mkdtempSync(path.join(tmpdir(), 'ludus-pack-'));
  const pack = path.join(dir, 'magenta');
  mkdirSync(path.join(pack, 'skin'), { recursive: true });
  writeFileSync(path.join(pack, 'pack.json'), JSON.stringify({ name: 'Magenta Walls', author: 'e2e' }));
  writeFileSync(path.join(pack, 'one.sok'), '#######\n#@ $ .#\n#######\n');
  writeFileSync(path.join(pack, 'skin', 'wall.png'), solidPng(16, WALL));
  const zip = path.join(dir, 'magenta.zip');
  execFileSync(ludusBin(), ['--data-dir', path.join(dir, 'data'), 'sokoban', 'pack', 'export', pack, '--output', zip]);
  return zip;
}

// The colour of the board's pixel in the middle of cell (x, y).
function cellColour(page, x, y) {
  return page.evaluate(([x, y]) => {
    const board = document.getElementById('board');
    const s = board.width / window.__ludus.state.width;
    const d = board.getContext('2d').getImageData(Math.floor((x + 0.5) * s), Math.floor((y + 0.5) * s), 1, 1).data;
    return [d[0], d[1], d[2]];
  }, [x, y]);
}

test('a pack uploaded from the level list is played with its skin', async () => {
  const page = await newPage(env.browser);
  await page.goto(`${env.server.url}sokoban#levels`);
  await page.waitForSelector('.level-card');
  await page.setInputFiles('#upload', packZip());
  await page.waitForFunction(() => {
    const p = window.__ludus;
    return p.view === 'play' && p.state && p.state.set === 'Magenta Walls';
  });
  await page.waitForFunction(() => window.__ludus.state.skin);
  // The wall tile arrives after the state: wait until it is drawn.
  await page.waitForFunction(() => {
    const board = document.getElementById('board');
    const s = board.width / window.__ludus.state.width;
    const d = board.getContext('2d').getImageData(Math.floor(s / 2), Math.floor(s / 2), 1, 1).data;
    return d[0] === 255 && d[1] === 0 && d[2] === 255;
  });
  assert.deepEqual(await cellColour(page, 0, 0), WALL);
  await env.shot(page, 'sokoban-pack-skin');
  // Skin off: the built-in wall sprite again.
  await page.goto(`${env.server.url}sokoban#levels`);
  await page.waitForSelector('.level-card');
  await page.uncheck('#skin-on');
  await page.goto(`${env.server.url}sokoban#play`);
  await page.waitForFunction(() => window.__ludus.state && window.__ludus.view === 'play');
  await page.waitForTimeout(300);
  assert.notDeepEqual(await cellColour(page, 0, 0), WALL);
  // The collection list puts it under Map packs.
  await page.goto(`${env.server.url}sokoban#levels`);
  await page.waitForSelector('.level-card');
  await page.waitForSelector('.shelf-item[title="Magenta Walls (map pack)"]');
  const shelves = await page.locator('#shelves h2').allTextContents();
  assert.ok(shelves.includes('Map packs'), shelves.join(', '));
  assert.deepEqual(page.errors, []);
});

test('a refused pack is named in the alert and not listed', async () => {
  const page = await newPage(env.browser);
  await page.goto(`${env.server.url}sokoban#levels`);
  await page.waitForSelector('.level-card');
  const dir = mkdtempSync(path.join(tmpdir(), 'ludus-pack-'));
  const bad = path.join(dir, 'bad.zip');
  writeFileSync(bad, 'this is not a zip');
  await page.setInputFiles('#upload', bad);
  await page.waitForSelector('#levels-alert:not([hidden])');
  const text = await page.locator('#levels-alert-text').textContent();
  assert.match(text, /^bad\.zip: not a zip file/);
  // The 400 answer is the browser's console error, the one expected.
  assert.ok(page.errors.every((e) => e.includes('400')), page.errors.join('\n'));
});
