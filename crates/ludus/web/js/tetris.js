// The Tetris page: mode picker and high scores, the game, the replay
// viewer. The server plays the game (the `tetris` crate, as in the
// terminal); this page keeps the clock, sends real key presses and releases
// stamped with game time plus a tick every frame, and draws the state each
// reply carries (see docs/web-protocol.md).

import { GameSocket } from './net.js';
import { scaledContext } from './canvas.js';
import { sound } from './sound.js';
import { music } from './music.js';
import {
  ROWS, GAME_ACTIONS, COLOURS, block, mini, keyName, keymapOf, lookup as lookupIn, HeldKeys, timeText,
} from './tetris-board.js';

const $ = (id) => document.getElementById(id);

const MODES = [
  { name: 'marathon', title: 'Marathon', text: '150 lines to level 15; gravity speeds up every 10 lines.' },
  { name: 'marathon-endless', title: 'Marathon endless', text: 'No line goal: play until you top out.' },
  { name: 'sprint', title: 'Sprint', text: 'Clear 40 lines as fast as you can. Ranked by time.' },
  { name: 'ultra', title: 'Ultra', text: 'The most points in two minutes.' },
  { name: 'zen', title: 'Zen', text: 'No gravity and no game over; q ends it.' },
];

// The terminal's default bindings (store/settings.rs); a game's setup
// brings the player's own.
const DEFAULT_KEYS = {
  left: ['left'], right: ['right'], soft_drop: ['down'], hard_drop: ['space'],
  rotate_cw: ['up', 'x'], rotate_ccw: ['z'], rotate_180: ['a'], hold: ['c', 'shift'],
  pause: ['p'], hint: ['h'], quit: ['q'],
};
const LABELS = {
  left: 'move left (hold: auto-shift)', right: 'move right (hold: auto-shift)', soft_drop: 'soft drop',
  hard_drop: 'hard drop', rotate_cw: 'rotate clockwise', rotate_ccw: 'rotate counter-clockwise',
  rotate_180: 'rotate 180°', hold: 'hold', pause: 'pause', hint: 'hint: the bot\'s placement (marks the score)',
  quit: 'back to the modes (Zen: end the game)',
};
const SHOWN = { left: '←', right: '→', up: '↑', down: '↓' };

const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16];
const SEEK_MS = 5000;
const BANNER_MS = 1500;

const page = {
  view: 'menu',
  state: null,
  board: '.'.repeat(ROWS * 10),
  setup: null,
  keymap: new Map(),
  held: new HeldKeys(),  // physical key (or touch button) → game action
  clock: { base: 0, since: null },
  lastT: 0,
  ticking: 0,            // ticks waiting for their reply
  over: null,
  scores: {},
  scoreMode: 'marathon',
  watch: null,           // { base, since, speed, end } while watching a replay
};

const socket = new GameSocket('/ws/tetris', {
  onMessage: (msg) => onMessage(msg),
  onOpen: () => reconnect(),
  onStatus: (s) => { $('conn').textContent = s === 'open' ? '' : 'reconnecting…'; },
});

// ---------- views ----------

function show(view) {
  for (const v of ['menu', 'play', 'replays']) $(`view-${v}`).hidden = v !== view;
  for (const v of ['menu', 'play', 'replays']) $(`nav-${v}`).classList.toggle('active', v === view);
  // Versus (tetris-versus.js) and rooms (tetris-room.js) show themselves over the menu.
  $('view-versus').hidden = true;
  $('view-room').hidden = true;
  page.view = view;
  if (view === 'menu') socket.send({ type: 'scores' });
  if (view === 'replays') socket.send({ type: 'replays' });
  if (view !== 'play') { releaseAll(); music.playing = false; }
  if (view === 'play') requestAnimationFrame(render);
}

$('nav-menu').onclick = () => leaveGame();
$('nav-play').onclick = () => show('play');
$('nav-replays').onclick = () => { pauseGame(); show('replays'); };

const WATCH_KEY = 'ludus.tetris.watch';

async function reconnect() {
  page.held.clear();
  // A room's link opens the room (tetris-room.js), not the game of this tab.
  if (new URLSearchParams(location.search).has('room')) return;
  // A replay being watched comes back at the same moment, paused.
  const watching = JSON.parse(sessionStorage.getItem(WATCH_KEY) || 'null');
  if (watching && typeof watching.name === 'string') {
    const reply = await socket.sendNow({ type: 'watch', name: watching.name });
    if (reply.type === 'state' && page.watch) {
      page.watch.speed = watching.speed || 1;
      page.watch.since = null;
      watchSeek(Number(watching.t) || 0);
      return;
    }
    sessionStorage.removeItem(WATCH_KEY);
  }
  const session = sessionStorage.getItem('ludus.tetris.session');
  if (!session) return;
  const reply = await socket.sendNow({ type: 'resume', session });
  if (reply.type === 'error') {
    // The server restarted or forgot the game: back to the modes, saying why.
    sessionStorage.removeItem('ludus.tetris.session');
    if (page.view === 'play') {
      page.state = null;
      stopClock();
      show('menu');
      banner('THE SERVER NO LONGER HAS THAT GAME');
      $('menu-note').textContent = 'The server no longer has the game you were playing (it was restarted, or the game was left too long): start a new one.';
    }
  }
}

// Where the replay being watched is, for a reload.
function rememberWatch() {
  const w = page.watch;
  if (w && page.setup && page.setup.replay) {
    sessionStorage.setItem(WATCH_KEY, JSON.stringify({ name: page.setup.replay.name, t: watchMs(), speed: w.speed }));
  }
}
window.addEventListener('pagehide', rememberWatch);

// ---------- the clock: game time runs while the game does ----------

function running() {
  const s = page.state;
  return page.view === 'play' && !page.watch && s && s.playing && !s.paused && page.clock.since !== null;
}

function gameMs(at = performance.now()) {
  const c = page.clock;
  return c.since === null ? c.base : c.base + Math.max(0, at - c.since);
}

function startClock(base) { page.clock = { base, since: performance.now() }; page.lastT = base; }
function stopClock() { page.clock = { base: gameMs(), since: null }; }

// Game time of an event (its timeStamp is on the performance.now() clock),
// never before the time already sent.
function stamp(at) {
  const t = Math.max(page.lastT, Math.floor(gameMs(Math.min(at ?? performance.now(), performance.now()))));
  page.lastT = t;
  return t;
}

function tick() {
  if (page.ticking >= 2) return; // the server is behind: do not pile ticks up
  page.ticking++;
  socket.send({ type: 'tick', t: stamp() }).then(() => { page.ticking--; });
}

function watchMs() {
  const w = page.watch;
  const t = w.since === null ? w.base : w.base + (performance.now() - w.since) * w.speed;
  return Math.min(w.end, Math.floor(t));
}

function frame() {
  requestAnimationFrame(frame);
  if (page.view !== 'play' || !page.state) return;
  if (running()) tick();
  else if (page.watch && page.watch.since !== null && page.ticking < 2) {
    page.ticking++;
    socket.send({ type: 'watch_to', t: watchMs() }).then(() => { page.ticking--; });
  }
  showTime();
}
requestAnimationFrame(frame);

// ---------- messages ----------

function onMessage(msg) {
  if (msg.type === 'state') applyState(msg);
  else if (msg.type === 'over') showOver(msg);
  else if (msg.type === 'scores') { page.scores = msg.modes || {}; renderModes(); renderScores(); }
  else if (msg.type === 'replays') renderReplays(msg);
  else if (msg.type === 'replay_saved') {
    $('over-note').textContent = `Replay saved: ${msg.name}`;
    if (page.over) page.over.replay = msg.name;
  } else if (msg.type === 'error' && msg.code !== 'not_found') {
    flash(msg.message);
  } else if (msg.type === 'error' && page.view === 'replays') {
    $('replays-info').textContent = msg.message;
  }
}

function applyState(s) {
  const first = !!s.setup;
  if (first) {
    page.setup = s.setup;
    page.board = '.'.repeat(ROWS * 10);
    page.over = null;
    setKeys(s.setup.keys || DEFAULT_KEYS);
    if (s.setup.replay) {
      page.watch = { base: s.t, since: performance.now(), speed: page.watch ? page.watch.speed : 1, end: s.setup.replay.end_ms };
      page.clock = { base: 0, since: null };
      rememberWatch();
    } else {
      page.watch = null;
      sessionStorage.removeItem(WATCH_KEY);
      sessionStorage.setItem('ludus.tetris.session', s.session);
      if (s.playing && !s.paused) startClock(s.t);
      else page.clock = { base: s.t, since: null };
    }
    $('nav-play').disabled = false;
    if ($('over-dialog').open) $('over-dialog').close();
    setupView();
    show('play');
  }
  if (s.board) page.board = s.board;
  const before = page.state;
  page.state = s;
  if (!page.watch) {
    if (!s.playing && page.clock.since !== null) { page.clock = { base: s.t, since: null }; }
  } else if (!s.playing || s.t >= page.watch.end) {
    page.watch.base = s.t; page.watch.since = null;
  }
  for (const event of s.events || []) onEvent(event, s);
  if (before && !first && s.stats && before.stats && s.stats.faults > before.stats.faults && !s.clear) {
    flash(s.stats.retries > before.stats.retries ? 'FINESSE FAULT: AGAIN' : 'FINESSE FAULT');
  }
  if (!before || before.level !== s.level || first) music.level(s.level);
  music.playing = !page.watch && s.playing && !s.paused && page.view === 'play';
  showCounters();
  showOverlay();
  render();
}

function onEvent(event, s) {
  switch (event) {
    case 'move': sound('shift'); break;
    case 'rotate': sound('rotate'); break;
    case 'hold': sound('hold'); break;
    case 'lock': if (!(s.events || []).includes('clear')) sound('lock'); break;
    case 'clear':
      if (s.clear) {
        sound(s.clear.lines >= 4 ? 'tetris' : s.clear.t_spin !== 'none' ? 'tspin' : 'clear');
        banner(bannerText(s.clear));
      }
      break;
    case 'level': sound('levelup'); banner(`LEVEL ${s.level}`); break;
    case 'wipe': banner('ZEN: THE MATRIX IS CLEARED'); break;
    case 'over': sound('gameover'); break;
    default: break;
  }
}

// `T-SPIN DOUBLE`, `TETRIS`, with back-to-back, combo and perfect clear (as the terminal says it).
function bannerText(c) {
  const lines = ['', 'SINGLE', 'DOUBLE', 'TRIPLE', 'TETRIS'][Math.min(c.lines, 4)];
  let text = c.t_spin === 'full' ? `T-SPIN ${lines}` : c.t_spin === 'mini' ? `T-SPIN MINI ${lines}` : lines;
  text = text.trim();
  const extra = [];
  if (c.b2b) extra.push('back-to-back');
  if (c.combo > 0) extra.push(`combo ${c.combo}`);
  if (c.perfect) extra.push('PERFECT CLEAR');
  return [text, ...extra].filter(Boolean).join(' · ');
}

let bannerTimer = null;
function banner(text) {
  const el = $('banner');
  el.textContent = text;
  el.classList.add('show');
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(() => el.classList.remove('show'), BANNER_MS);
}

function flash(text) { banner(text); }

// ---------- counters and overlays ----------


function currentMs() {
  const s = page.state;
  if (page.watch) return s.t;
  return running() ? Math.max(s.t, gameMs()) : s.t;
}

function showTime() {
  const s = page.state, setup = page.setup;
  if (!s || !setup) return;
  const ms = currentMs();
  if (setup.time_limit) {
    $('time-label').textContent = 'left';
    $('time').textContent = timeText(Math.max(0, setup.time_limit - ms));
  } else {
    $('time-label').textContent = 'time';
    $('time').textContent = timeText(ms);
  }
  $('pps').textContent = ms > 0 ? (s.pieces / (ms / 1000)).toFixed(2) : '0.00';
  if (page.watch) $('w-speed').textContent = `${speedText(page.watch.speed)}${page.watch.since === null ? ' (paused)' : ''}`;
}

function showCounters() {
  const s = page.state, setup = page.setup;
  $('score').textContent = s.score.toLocaleString('en');
  $('level').textContent = s.level;
  $('lines').textContent = s.lines;
  $('lines').title = setup.goal ? `of ${setup.goal}` : '';
  $('pieces').textContent = s.pieces;
  showStats(s.stats);
  showTime();
}

// The session's live statistics (`state.stats`): KPP, finesse, faults, Sprint splits.
function showStats(stats) {
  if (!stats) return;
  $('kpp').textContent = stats.kpp.toFixed(2);
  $('finesse').textContent = `${stats.finesse.toFixed(1)}%`;
  $('faults').textContent = stats.faults;
  $('faults').classList.toggle('warn', stats.fault);
  $('splits-box').hidden = page.setup.mode !== 'sprint';
  $('splits').textContent = splitsText(stats.splits);
}

function splitsText(splits) {
  return (splits || []).map((ms, i) => `${(i + 1) * 10}: ${timeText(ms)}`).join(' · ');
}

function setupView() {
  const setup = page.setup;
  const watching = !!setup.replay;
  $('t-title').textContent = watching ? `Replay · ${setup.title}` : setup.title;
  $('watch-bar').hidden = !watching;
  $('b-pause').hidden = watching;
  $('b-hint').hidden = watching;
  $('b-end').hidden = watching || setup.mode !== 'zen';
  $('touch').hidden = watching;
  if (watching) $('watch-label').textContent = `${setup.replay.name} · ${setup.replay.score.toLocaleString('en')} points`;
}

function showOverlay() {
  const s = page.state, el = $('overlay');
  if (!page.watch && s.paused) {
    el.hidden = false;
    el.textContent = 'Paused — press P or Esc (or tap here) to go on';
  } else if (page.watch && !s.playing) {
    el.hidden = false;
    el.textContent = 'End of the replay — r plays it again';
  } else el.hidden = true;
  $('b-pause').textContent = s.paused ? 'Go on' : 'Pause';
  $('b-hint').classList.toggle('active', !!s.hint);
  $('b-hint').disabled = !s.playing || s.paused;
}

$('overlay').onclick = () => { if (page.state && page.state.paused && !page.watch) togglePause(); };

// ---------- drawing ----------

const board = $('board');
let cell = 20;



function render() {
  const s = page.state;
  if (!s || page.view !== 'play') return;
  const wrap = $('field');
  // 21 cells wide (hold 5, matrix 10, next 5, gaps), 22 rows high.
  const availW = Math.max(120, wrap.clientWidth - 4), availH = Math.max(160, wrap.clientHeight - 4);
  cell = Math.max(8, Math.min(40, Math.floor(Math.min(availW / 21, availH / ROWS))));
  const w = cell * 21, h = cell * ROWS;
  const g = scaledContext(board, [w, h]);
  g.clearRect(0, 0, w, h);
  const mx = 5.5 * cell;
  const rowY = (y) => (ROWS - 1 - y) * cell; // matrix row y (0 = bottom) on the canvas
  // The visible field and its grid.
  g.fillStyle = '#0b0f17';
  g.fillRect(mx, 2 * cell, 10 * cell, 20 * cell);
  g.strokeStyle = '#ffffff0d';
  g.lineWidth = 1;
  for (let x = 1; x < 10; x++) { g.beginPath(); g.moveTo(mx + x * cell + 0.5, 2 * cell); g.lineTo(mx + x * cell + 0.5, h); g.stroke(); }
  for (let y = 3; y < ROWS; y++) { g.beginPath(); g.moveTo(mx, y * cell + 0.5); g.lineTo(mx + 10 * cell, y * cell + 0.5); g.stroke(); }
  const hidden = s.paused && !page.watch;
  if (!hidden) {
    // The stack is drawn inside the frame only: cells locked above the
    // visible 20 rows (a lock-out) stay out of sight, as the matrix ends there.
    for (let i = 2 * 10; i < page.board.length; i++) {
      const ch = page.board[i];
      if (ch !== '.') block(g, mx + (i % 10) * cell, Math.floor(i / 10) * cell, cell, COLOURS[ch] || COLOURS.X);
    }
    if (s.ghost && s.active) {
      g.strokeStyle = COLOURS[s.active.kind];
      g.lineWidth = Math.max(1, cell / 10);
      g.globalAlpha = 0.6;
      for (const [x, y] of s.ghost) if (y < ROWS) g.strokeRect(mx + x * cell + 2, rowY(y) + 2, cell - 4, cell - 4);
      g.globalAlpha = 1;
    }
    if (s.active) for (const [x, y] of s.active.cells) if (y < ROWS) block(g, mx + x * cell, rowY(y), cell, COLOURS[s.active.kind]);
    // The bot's placement (hint), dashed so it never looks like the ghost.
    if (s.hint && s.hint.cells) {
      g.strokeStyle = '#ffffff';
      g.lineWidth = Math.max(1, cell / 12);
      g.setLineDash([Math.max(2, cell / 6), Math.max(2, cell / 8)]);
      for (const [x, y] of s.hint.cells) if (y < ROWS) g.strokeRect(mx + x * cell + 1.5, rowY(y) + 1.5, cell - 3, cell - 3);
      g.setLineDash([]);
    }
  }
  g.strokeStyle = '#9aa3b5';
  g.lineWidth = 2;
  g.beginPath();
  g.moveTo(mx - 1, 2 * cell); g.lineTo(mx - 1, h - 1); g.lineTo(mx + 10 * cell + 1, h - 1); g.lineTo(mx + 10 * cell + 1, 2 * cell);
  g.stroke();
  // Hold and next.
  const label = (text, x, y) => {
    g.fillStyle = '#9aa3b5';
    g.font = `600 ${Math.max(10, Math.floor(cell * 0.6))}px system-ui, sans-serif`;
    g.textBaseline = 'top';
    g.fillText(text, x, y);
  };
  const small = Math.floor(cell * 0.8);
  label(s.can_hold || !s.hold ? 'HOLD' : 'HOLD (used)', 0, 2 * cell);
  g.fillStyle = '#1f2636';
  g.fillRect(0, 3 * cell, 5 * cell, 3 * cell);
  if (s.hold && !hidden) mini(g, s.hold, 0, 3 * cell, 5 * cell, 3 * cell, small, !s.can_hold);
  const nx = 16 * cell;
  label('NEXT', nx, 2 * cell);
  const next = hidden ? '' : s.next;
  g.fillStyle = '#1f2636';
  g.fillRect(nx, 3 * cell, 5 * cell, Math.max(1, s.next.length) * 3 * cell);
  for (let i = 0; i < next.length; i++) mini(g, next[i], nx, 3 * cell + i * 3 * cell, 5 * cell, 3 * cell, i === 0 ? small : Math.floor(cell * 0.65), false);
  // What the game is, under the hold box.
  g.fillStyle = '#e6be50';
  g.font = `700 ${Math.max(10, Math.floor(cell * 0.55))}px system-ui, sans-serif`;
  if (s.b2b) g.fillText('B2B', 0, 7 * cell);
  if (s.combo) g.fillText(`combo ${s.combo}`, 0, 8 * cell);
  if (s.hint && !hidden) {
    g.fillStyle = '#ffffff';
    g.fillText(!s.hint.cells ? 'hint: no room' : s.hint.hold ? 'hint: hold first' : 'hint', 0, 9 * cell);
  }
}

window.addEventListener('resize', () => render());
new ResizeObserver(() => render()).observe($('field'));

// ---------- keys ----------

function setKeys(keys) {
  page.keys = keys;
  page.keymap = keymapOf(keys, [...GAME_ACTIONS, 'pause', 'hint', 'quit']);
  showKeys($('menu-keys'));
  showKeys($('help-keys'));
}

function keyLabel(name) {
  if (SHOWN[name]) return SHOWN[name];
  return name.length > 1 ? name[0].toUpperCase() + name.slice(1) : name;
}

function showKeys(el) {
  el.innerHTML = '';
  const row = (names, text) => {
    const keys = document.createElement('span');
    for (const n of names) { const k = document.createElement('kbd'); k.textContent = n; keys.append(k, ' '); }
    const what = document.createElement('span');
    what.textContent = text;
    el.append(keys, what);
  };
  for (const bind of [...GAME_ACTIONS, 'pause', 'hint', 'quit']) {
    const names = (page.keys[bind] || []).map(keyLabel);
    if (bind === 'pause') names.push('Esc');
    if (names.length) row(names, LABELS[bind]);
  }
  row(['?'], 'these keys');
  row(['Space', '+', '−', '←', '→', 'r'], 'watching a replay: pause, speed, seek 5 s, from the start');
}


function lookup(name) { return lookupIn(page.keymap, name); }

function pressAction(code, action, at) {
  if (!running()) return;
  if (page.held.press(code, action)) socket.send({ type: 'input', action, edge: 'press', t: stamp(at) });
}

function releaseAction(code, at) {
  const action = page.held.release(code);
  if (!action || !running()) return;
  socket.send({ type: 'input', action, edge: 'release', t: stamp(at) });
}

function releaseAll() {
  for (const code of page.held.codes()) releaseAction(code);
  page.held.clear();
}

document.addEventListener('keydown', (e) => {
  if (document.querySelector('dialog[open]')) return;
  if (page.view !== 'play' || !page.state) return;
  if (page.watch) { watchKey(e); return; }
  const name = keyName(e);
  const bind = name && lookup(name);
  if (bind && GAME_ACTIONS.includes(bind)) {
    e.preventDefault();
    // Ctrl and Alt chords are not game keys (Ctrl-R still reloads).
    if (e.repeat || e.ctrlKey || e.altKey || e.metaKey) return;
    pressAction(e.code || name, bind, e.timeStamp);
    return;
  }
  if (e.repeat || e.ctrlKey || e.altKey || e.metaKey) return;
  if (e.key === 'Escape' || bind === 'pause') { e.preventDefault(); togglePause(); }
  else if (bind === 'hint') { e.preventDefault(); toggleHint(); }
  else if (e.key === '?') { e.preventDefault(); pauseGame(); $('help-dialog').showModal(); }
  else if (bind === 'quit' || (page.state.paused && e.key === 'q')) { e.preventDefault(); quit(); }
});

document.addEventListener('keyup', (e) => {
  if (page.watch) return;
  releaseAction(e.code || keyName(e), e.timeStamp);
});

// ---------- pause, quit, focus ----------

function togglePause() {
  const s = page.state;
  if (!s || page.watch || !s.playing) return;
  if (s.paused) {
    page.quitAsked = false;
    socket.send({ type: 'pause', paused: false, t: s.t });
    startClock(s.t);
  } else pauseGame();
}

// Hints on or off for this game; the server answers with the bot's placement
// in every state, and marks the game's high score "with hints".
function toggleHint() {
  const s = page.state;
  if (!s || page.watch || !s.playing || s.paused) return;
  socket.send({ type: 'hint', on: !s.hint });
}

function pauseGame() {
  const s = page.state;
  if (!s || page.watch || !s.playing || s.paused || page.clock.since === null) return;
  page.held.clear(); // the server lets go of every held key at the pause
  const t = stamp();
  stopClock();
  socket.send({ type: 'pause', paused: true, t });
}

function quit() {
  const s = page.state;
  if (s && s.playing && page.setup.mode === 'zen' && s.pieces > 0) {
    socket.send({ type: 'end' });
    return;
  }
  // A game under way is left only on a second q: the first pauses and asks.
  if (s && s.playing && !page.watch && s.pieces > 0 && !page.quitAsked) {
    pauseGame();
    page.quitAsked = true;
    banner('q AGAIN LEAVES THIS GAME');
    return;
  }
  page.quitAsked = false;
  leaveGame();
}

/** A time (unix seconds) as the replays list shows it: local, to the minute. */
function localDate(secs) {
  const d = new Date(secs * 1000);
  const two = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

// To the mode picker; a game left behind is not resumed by a reload.
function leaveGame() {
  pauseGame();
  sessionStorage.removeItem('ludus.tetris.session');
  sessionStorage.removeItem(WATCH_KEY);
  show('menu');
}

$('b-pause').onclick = () => togglePause();
$('b-hint').onclick = () => toggleHint();
$('b-end').onclick = () => socket.send({ type: 'end' });
$('b-menu').onclick = () => leaveGame();
$('b-help').onclick = () => { pauseGame(); $('help-dialog').showModal(); };
$('help-close').onclick = () => $('help-dialog').close();

window.addEventListener('blur', () => pauseGame());
document.addEventListener('visibilitychange', () => {
  if (document.hidden) {
    pauseGame();
    if (page.watch && page.watch.since !== null) { page.watch.base = watchMs(); page.watch.since = null; }
  }
});

// Touch buttons: real holds too (pointer down and up), so DAS works on a phone.
for (const button of document.querySelectorAll('#touch button')) {
  const action = button.dataset.action;
  const code = `touch-${action}`;
  button.addEventListener('pointerdown', (e) => {
    e.preventDefault();
    button.setPointerCapture(e.pointerId);
    pressAction(code, action, e.timeStamp);
  });
  for (const end of ['pointerup', 'pointercancel', 'lostpointercapture']) {
    button.addEventListener(end, (e) => releaseAction(code, e.timeStamp));
  }
  button.addEventListener('contextmenu', (e) => e.preventDefault());
}

// ---------- game over ----------

function showOver(msg) {
  page.over = msg;
  const titles = { block_out: 'Game over', lock_out: 'Game over', ended: 'Zen ended' };
  const goal = { sprint: '40 lines!', ultra: 'Time!', marathon: 'Marathon complete!' };
  $('over-title').textContent = msg.reason === 'goal_reached' ? goal[msg.mode] || 'Done!' : titles[msg.reason] || 'Game over';
  $('over-stats').textContent = `${msg.title}: ${msg.score.toLocaleString('en')} points · ${msg.lines} line${msg.lines === 1 ? '' : 's'} · level ${msg.level} · ` +
    `${msg.pieces} pieces · ${timeText(msg.time_ms)} · ${msg.pps.toFixed(2)} PPS`;
  const st = msg.stats;
  $('over-finesse').textContent = st ? `${st.kpp.toFixed(2)} keys per piece · finesse ${st.finesse.toFixed(1)}% · ` +
    `${st.faults} fault${st.faults === 1 ? '' : 's'}${st.splits.length ? ` · splits ${splitsText(st.splits)}` : ''}` : '';
  let rank;
  if (msg.rank === 0) rank = 'A new best!';
  else if (msg.rank != null) rank = `Number ${msg.rank + 1} in the ${msg.title} table.`;
  else if (!msg.qualifies) rank = msg.mode === 'sprint' ? 'Sprint counts only when the 40 lines are cleared.' : '';
  else rank = 'Not in the top 20 this time.';
  $('over-rank').textContent = rank;
  $('over-table').innerHTML = '';
  $('over-table').append(scoreTable(msg.mode, msg.table.slice(0, 10), msg.rank));
  $('over-note').textContent = msg.error || (msg.replay ? `Replay saved: ${msg.replay}` : '');
  // Let the last lock be seen before the dialog covers the matrix.
  // The dialog itself takes the focus, not its first button: a player still
  // pressing Space (hard drop) must not start a new game unseen.
  setTimeout(() => {
    if (page.over === msg && !$('over-dialog').open && page.view === 'play') {
      $('over-dialog').showModal();
      $('over-dialog').focus();
    }
  }, 400);
}

function newGame(mode, same = false) {
  if ($('over-dialog').open) $('over-dialog').close();
  music.restart();
  socket.send({ type: 'new', mode, same_seed: same });
}

async function saveReplay() {
  if (page.over && page.over.replay) return page.over.replay;
  const reply = await socket.send({ type: 'save_replay' });
  return reply.type === 'replay_saved' ? reply.name : null;
}

async function watch(name) {
  const reply = await socket.send({ type: 'watch', name });
  if (reply.type === 'error') {
    $('replays-info').textContent = reply.message;
    show('replays');
  }
}

$('over-new').onclick = () => newGame(page.setup.mode);
$('over-same').onclick = () => newGame(page.setup.mode, true);
$('over-save').onclick = () => saveReplay();
$('over-watch').onclick = async () => { const name = await saveReplay(); if (name) { $('over-dialog').close(); watch(name); } };
$('over-menu').onclick = () => { $('over-dialog').close(); leaveGame(); };
$('over-dialog').addEventListener('cancel', (e) => { e.preventDefault(); $('over-menu').click(); });
$('over-dialog').addEventListener('keydown', (e) => {
  const keys = { Enter: 'over-new', r: 'over-same', s: 'over-save', w: 'over-watch', q: 'over-menu' };
  if (keys[e.key]) { e.preventDefault(); $(keys[e.key]).click(); }
  else if (e.key === ' ' && e.target === $('over-dialog')) e.preventDefault();
});

// ---------- mode picker and high scores ----------

function best(mode) {
  const table = page.scores[mode] || [];
  if (!table.length) return 'no games yet';
  const e = table[0];
  return mode === 'sprint' ? `best ${timeText(e.time_ms)}` : `best ${e.score.toLocaleString('en')} (${e.lines} lines)`;
}

function renderModes() {
  const list = $('modes');
  list.innerHTML = '';
  for (const m of MODES) {
    const card = document.createElement('button');
    card.type = 'button';
    card.className = 't-mode';
    card.dataset.mode = m.name;
    const title = document.createElement('b');
    title.textContent = m.title;
    const text = document.createElement('span');
    text.textContent = m.text;
    const record = document.createElement('span');
    record.className = 'muted';
    record.textContent = best(m.name);
    card.append(title, text, record);
    card.onclick = () => newGame(m.name);
    list.append(card);
  }
}

function scoreTable(mode, rows, highlight) {
  const table = document.createElement('table');
  table.className = 't-scores';
  const sprint = mode === 'sprint';
  const head = sprint ? ['#', 'time', 'pieces', 'PPS', 'date'] : ['#', 'score', 'lines', 'level', 'time', 'date'];
  table.innerHTML = `<thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead>`;
  const body = document.createElement('tbody');
  rows.forEach((e, i) => {
    const tr = document.createElement('tr');
    if (i === highlight) tr.className = 'mine';
    const date = localDate(e.date) + (e.assisted ? ' (hints)' : '');
    const cells = sprint
      ? [i + 1, timeText(e.time_ms), e.pieces, e.pieces_per_second.toFixed(2), date]
      : [i + 1, e.score.toLocaleString('en'), e.lines, e.level, timeText(e.time_ms), date];
    for (const c of cells) { const td = document.createElement('td'); td.textContent = c; tr.append(td); }
    body.append(tr);
  });
  if (!rows.length) body.innerHTML = `<tr><td colspan="${head.length}" class="muted">No games yet.</td></tr>`;
  table.append(body);
  return table;
}

function renderScores() {
  const tabs = $('score-tabs');
  tabs.innerHTML = '';
  for (const m of MODES) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = m.title;
    b.classList.toggle('active', m.name === page.scoreMode);
    b.onclick = () => { page.scoreMode = m.name; renderScores(); };
    tabs.append(b);
  }
  $('score-table').innerHTML = '';
  $('score-table').append(scoreTable(page.scoreMode, page.scores[page.scoreMode] || [], -1));
}

// ---------- replays ----------

function renderReplays(msg) {
  const list = $('replays');
  list.innerHTML = '';
  $('replays-info').textContent = msg.replays.length
    ? `${msg.total} saved in tetris/replays/ of the data dir, newest first`
    : 'No replays yet: save one at the end of a game (s), here or in the terminal.';
  for (const r of msg.replays) {
    const row = document.createElement('div');
    row.className = 't-replay' + (r.error ? ' broken' : '');
    const what = document.createElement('span');
    what.textContent = r.error
      ? `${r.name}: ${r.error}`
      : `${r.title} · ${r.score.toLocaleString('en')} points · ${r.lines} line${r.lines === 1 ? '' : 's'} · ${timeText(r.time_ms)}`;
    const date = document.createElement('span');
    date.className = 'muted';
    date.textContent = r.date;
    row.append(what, date);
    if (!r.error) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = '▶ Watch';
      button.onclick = () => watch(r.name);
      row.append(button);
    }
    list.append(row);
  }
}

function speedText(speed) { return speed === 0.25 ? '¼×' : speed === 0.5 ? '½×' : `${speed}×`; }

function watchSeek(to) {
  const w = page.watch;
  w.base = Math.max(0, Math.min(w.end, to));
  if (w.since !== null) w.since = performance.now();
  socket.send({ type: 'watch_to', t: w.base });
}

function watchPause() {
  const w = page.watch;
  if (w.since === null) {
    if (w.base >= w.end || !page.state.playing) w.base = 0; // at the end: from the start
    w.since = performance.now();
  } else { w.base = watchMs(); w.since = null; }
  showTime();
}

function watchSpeed(delta) {
  const w = page.watch;
  const at = watchMs();
  const i = Math.max(0, Math.min(SPEEDS.length - 1, SPEEDS.indexOf(w.speed) + delta));
  w.speed = SPEEDS[i];
  w.base = at;
  if (w.since !== null) w.since = performance.now();
  showTime();
}

function stopWatching() { page.watch = null; sessionStorage.removeItem(WATCH_KEY); show('replays'); }

function watchKey(e) {
  const actions = {
    ' ': () => watchPause(), p: () => watchPause(), '+': () => watchSpeed(1), '=': () => watchSpeed(1),
    '-': () => watchSpeed(-1), _: () => watchSpeed(-1), ArrowLeft: () => watchSeek(watchMs() - SEEK_MS),
    ArrowRight: () => watchSeek(watchMs() + SEEK_MS), r: () => { watchSeek(0); page.watch.since = performance.now(); },
    Escape: () => stopWatching(), q: () => stopWatching(),
  };
  if (actions[e.key] && !e.ctrlKey && !e.altKey && !e.metaKey) { e.preventDefault(); actions[e.key](); }
}

$('w-back').onclick = () => watchSeek(watchMs() - SEEK_MS);
$('w-fwd').onclick = () => watchSeek(watchMs() + SEEK_MS);
$('w-pause').onclick = () => watchPause();
$('w-slower').onclick = () => watchSpeed(-1);
$('w-faster').onclick = () => watchSpeed(1);
$('w-restart').onclick = () => { watchSeek(0); page.watch.since = performance.now(); };
$('w-stop').onclick = () => stopWatching();

// ---------- start ----------

setKeys(DEFAULT_KEYS);
renderModes();
renderScores();
show('menu');

// For the browser tests.
window.__ludus = page;
