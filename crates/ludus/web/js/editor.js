// The level editor: a tile palette, drawing with the mouse, live validation
// by the server (the same `sokoban::validate` as the terminal), a solvability
// check, play-test, import (file or pasted text) and export (download).

import { drawBoard, drawWall, drawFloor, drawGoal, drawBox, drawWorker, viewFromXsb } from './sprites.js';
import { scaledContext } from './canvas.js';

const $ = (id) => document.getElementById(id);

// The tools: the XSB character each one draws, its key, its name (as in the terminal editor).
const TOOLS = [
  ['#', '1', 'wall'], ['-', '2', 'floor'], ['.', '3', 'goal'], ['$', '4', 'box'],
  ['*', '5', 'box on goal'], ['@', '6', 'player'], ['+', '7', 'player on goal'], [' ', '0', 'erase'],
];
const MAX_SIDE = 50;

function drawTool(g, ch, s) {
  g.clearRect(0, 0, s, s);
  if (ch === ' ') {
    g.strokeStyle = '#9aa3b5';
    g.setLineDash([3, 3]);
    g.strokeRect(2, 2, s - 4, s - 4);
    return;
  }
  if (ch === '#') { drawWall(g, 0, 0, s); return; }
  drawFloor(g, 0, 0, s);
  if ('.*+'.includes(ch)) drawGoal(g, 0, 0, s);
  if ('$*'.includes(ch)) drawBox(g, 0, 0, s, { onGoal: ch === '*' });
  if ('@+'.includes(ch)) drawWorker(g, 0, 0, s, 'down');
}

export class Editor {
  constructor({ socket, onPlayTest, message }) {
    this.socket = socket;
    this.onPlayTest = onPlayTest;
    this.message = message;
    this.tool = '#';
    this.bad = new Map();
    this.painting = null;
    this.blank(12, 8);
    this.buildPalette();
    this.bind();
  }

  // An empty room with walls around.
  blank(width, height) {
    this.savedAs = null; // another level: the next save makes a new file
    this.width = width;
    this.height = height;
    this.cells = [];
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
      this.cells.push(x === 0 || y === 0 || x === width - 1 || y === height - 1 ? '#' : '-');
    }
    this.syncSize();
  }

  loadXsb(xsb, title) {
    this.savedAs = null;
    const view = viewFromXsb(xsb);
    const lines = xsb.replace(/\r\n?/g, '\n').split('\n');
    this.width = Math.min(MAX_SIDE, view.width);
    this.height = Math.min(MAX_SIDE, view.height);
    this.cells = [];
    for (let y = 0; y < this.height; y++) for (let x = 0; x < this.width; x++) {
      let ch = (lines[y] || '')[x] || ' ';
      if ('_'.includes(ch)) ch = '-';
      if (ch === 'p') ch = '@';
      if (ch === 'P') ch = '+';
      if (ch === 'b') ch = '$';
      if (ch === 'B') ch = '*';
      // Inner floor is '-' so that it is not taken for outside.
      if (ch === ' ' && view.map[y][x] === '-') ch = '-';
      this.cells.push(ch);
    }
    if (title) $('ed-title').value = title;
    this.syncSize();
    this.changed();
  }

  syncSize() {
    $('ed-width').value = this.width;
    $('ed-height').value = this.height;
  }

  text() {
    const rows = [];
    for (let y = 0; y < this.height; y++) {
      rows.push(this.cells.slice(y * this.width, (y + 1) * this.width).join('').trimEnd());
    }
    return rows.join('\n') + '\n';
  }

  title() {
    return $('ed-title').value.trim() || 'New level';
  }

  // The level with its title, as a .sok text for play-testing.
  sokText() {
    return `; ${this.title()}\n\n${this.text()}`;
  }

  buildPalette() {
    const palette = $('palette');
    palette.innerHTML = '';
    for (const [ch, key, name] of TOOLS) {
      const button = document.createElement('button');
      button.type = 'button';
      button.title = `${name} (${key})`;
      button.dataset.tool = ch;
      const c = document.createElement('canvas');
      c.width = 26; c.height = 26;
      drawTool(c.getContext('2d'), ch, 26);
      const label = document.createElement('span');
      label.innerHTML = `${name} <kbd>${key}</kbd>`;
      button.append(c, label);
      button.onclick = () => this.choose(ch);
      palette.append(button);
    }
    this.choose('#');
  }

  choose(ch) {
    this.tool = ch;
    for (const b of $('palette').children) b.classList.toggle('active', b.dataset.tool === ch);
  }

  bind() {
    const canvas = $('editor-canvas');
    canvas.addEventListener('pointerdown', (e) => {
      e.preventDefault();
      this.painting = e.button === 2 ? ' ' : this.tool;
      canvas.setPointerCapture(e.pointerId);
      this.paintAt(e);
    });
    canvas.addEventListener('pointermove', (e) => { if (this.painting !== null) this.paintAt(e); });
    const stop = () => {
      if (this.painting !== null) { this.painting = null; this.changed(); }
    };
    canvas.addEventListener('pointerup', stop);
    canvas.addEventListener('pointercancel', stop);
    canvas.addEventListener('contextmenu', (e) => e.preventDefault());
    $('ed-width').onchange = () => this.resize(Number($('ed-width').value), this.height);
    $('ed-height').onchange = () => this.resize(this.width, Number($('ed-height').value));
    $('ed-check').onclick = () => this.check();
    $('ed-play').onclick = async () => {
      const reply = await this.onPlayTest(this.sokText(), this.title());
      if (reply && reply.type === 'error') this.message(reply.message, 'warn');
    };
    $('ed-export-sok').onclick = () => this.export('sok');
    $('ed-export-json').onclick = () => this.export('json');
    $('ed-save').onclick = () => this.save();
    $('ed-clear').onclick = () => { this.blank(12, 8); $('ed-title').value = 'New level'; this.changed(); };
    $('ed-file').onchange = async (e) => {
      const file = e.target.files[0];
      e.target.value = '';
      if (file) this.import(await file.text(), file.name);
    };
    $('ed-paste').onclick = () => { $('paste-text').value = ''; $('paste-dialog').showModal(); };
    $('paste-cancel').onclick = () => $('paste-dialog').close();
    $('paste-ok').onclick = () => { $('paste-dialog').close(); this.import($('paste-text').value, 'pasted.sok'); };
    $('pick-cancel').onclick = () => $('pick-dialog').close();
    $('pick-ok').onclick = () => {
      $('pick-dialog').close();
      const chosen = this.picks && this.picks[Number($('pick-level').value)];
      if (chosen) this.loadXsb(chosen.xsb, chosen.title);
    };
    document.addEventListener('keydown', (e) => {
      if ($('view-editor').hidden || e.ctrlKey || e.altKey || e.metaKey) return;
      if (document.querySelector('dialog[open]')) return;
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
      const tool = TOOLS.find(([, key]) => key === e.key);
      if (tool) { e.preventDefault(); this.choose(tool[0]); }
    });
  }

  shown() {
    requestAnimationFrame(() => this.render());
    this.validate();
  }

  resize(width, height) {
    width = Math.max(3, Math.min(MAX_SIDE, width || this.width));
    height = Math.max(3, Math.min(MAX_SIDE, height || this.height));
    const cells = [];
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
      cells.push(x < this.width && y < this.height ? this.cells[y * this.width + x] : ' ');
    }
    Object.assign(this, { width, height, cells });
    this.syncSize();
    this.changed();
  }

  paintAt(e) {
    const canvas = $('editor-canvas');
    const rect = canvas.getBoundingClientRect();
    const x = Math.floor((e.clientX - rect.left) / this.size);
    const y = Math.floor((e.clientY - rect.top) / this.size);
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const ch = this.painting;
    // One player only: drawing a player removes the old one.
    if (ch === '@' || ch === '+') {
      this.cells = this.cells.map((c) => (c === '@' ? '-' : c === '+' ? '.' : c));
    }
    const i = y * this.width + x;
    if (this.cells[i] !== ch) {
      this.cells[i] = ch;
      this.render();
    }
  }

  changed() {
    this.render();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.validate(), 120);
  }

  async validate() {
    const reply = await this.socket.send({ type: 'validate', text: this.text() });
    if (reply.type === 'validation') this.showFindings(reply);
  }

  showFindings(v) {
    const list = $('findings');
    list.innerHTML = '';
    this.bad = new Map();
    for (const f of v.findings) {
      const li = document.createElement('li');
      li.className = f.error ? 'error' : 'warning';
      li.textContent = `${f.error ? 'error' : 'warning'}: ${f.message}`;
      list.append(li);
      if (f.x != null && f.y != null && f.x < this.width && f.y < this.height) {
        this.bad.set(f.y * this.width + f.x, f.error ? 'error' : 'warning');
      }
    }
    if (!v.findings.length) {
      const li = document.createElement('li');
      li.className = 'ok';
      li.textContent = `A valid level with ${v.boxes} box${v.boxes === 1 ? '' : 'es'}.`;
      list.append(li);
    }
    this.valid = v.ok;
    $('ed-check').disabled = !v.ok;
    $('ed-play').disabled = !v.ok;
    $('ed-save').disabled = !v.ok;
    this.render();
  }

  render() {
    const wrap = $('editor-wrap');
    const canvas = $('editor-canvas');
    if (!wrap || wrap.clientWidth === 0) return;
    this.size = Math.max(10, Math.min(48, Math.floor(Math.min((wrap.clientWidth - 4) / this.width, (wrap.clientHeight - 4) / this.height))));
    const s = this.size;
    const g = scaledContext(canvas, [s * this.width, s * this.height]);
    const map = [], boxes = [];
    let player = -1;
    for (let y = 0; y < this.height; y++) {
      let row = '';
      for (let x = 0; x < this.width; x++) {
        const ch = this.cells[y * this.width + x];
        const i = y * this.width + x;
        if ('$*'.includes(ch)) boxes.push(i);
        if ('@+'.includes(ch)) player = i;
        row += ch === '#' ? '#' : ch === ' ' ? ' ' : '.*+'.includes(ch) ? '.' : '-';
      }
      map.push(row);
    }
    drawBoard(g, { width: this.width, height: this.height, map, boxes, player, facing: 'down' }, s, { bad: this.bad });
    // The editable area beyond the level: a faint grid.
    g.strokeStyle = '#ffffff14';
    g.lineWidth = 1;
    for (let y = 0; y < this.height; y++) for (let x = 0; x < this.width; x++) {
      if (map[y][x] === ' ') g.strokeRect(x * s + 0.5, y * s + 0.5, s - 1, s - 1);
    }
  }

  async check() {
    const reply = await this.socket.send({ type: 'check', text: this.text() });
    if (reply.type === 'error') this.message(reply.message, 'warn');
  }

  // A check has started (`doing` is the server's words for it) or reports its figures.
  thinking(doing) {
    this.checking = doing;
    this.message(`${doing}…`, 'info');
  }

  progress(text) {
    if (this.checking) this.message(`${this.checking}… ${text}`, 'info');
  }

  async export(format) {
    const reply = await this.socket.send({ type: 'export', text: this.text(), format, title: this.title() });
    if (reply.type !== 'exported') return;
    const type = format === 'json' ? 'application/json' : 'text/plain';
    const url = URL.createObjectURL(new Blob([reply.text], { type }));
    const a = document.createElement('a');
    a.href = url;
    a.download = reply.filename;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    this.message(`Downloaded ${reply.filename}.`, 'info');
  }

  async save() {
    const name = this.title().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'level';
    // The first save makes a new file (never over another level); later
    // saves of the same level replace that file.
    const reply = await this.socket.send({
      type: 'save_level', name, text: this.text(), title: this.title(), saved_as: this.savedAs || undefined,
    });
    if (reply.type === 'saved') {
      this.savedAs = reply.name;
      this.message(`Saved as ${reply.path} in your data folder; it is in the level browser now.`, 'info');
    } else if (reply.type === 'error') this.message(reply.message, 'warn');
  }

  async import(text, name) {
    const reply = await this.socket.send({ type: 'parse', text, name });
    if (reply.type !== 'parsed') return;
    const good = reply.levels.map((l, i) => ({ ...l, i })).filter((l) => l.xsb);
    if (good.length === 0) {
      this.message(reply.levels[0] && reply.levels[0].error ? reply.levels[0].error : 'No level found.', 'warn');
      return;
    }
    if (good.length === 1) {
      this.loadXsb(good[0].xsb, good[0].title || reply.title || 'Imported level');
      this.message('Imported.', 'info');
      return;
    }
    this.picks = good;
    const select = $('pick-level');
    select.innerHTML = '';
    good.forEach((l, n) => {
      const o = document.createElement('option');
      o.value = n;
      o.textContent = `${l.i + 1}. ${l.title || 'untitled'}`;
      select.append(o);
    });
    select.value = 0;
    $('pick-dialog').showModal();
  }

  onMessage(msg) {
    if (msg.type === 'checked') {
      this.checking = null;
      this.message(msg.message, msg.outcome === 'solvable' ? 'info' : 'warn');
    }
  }
}
