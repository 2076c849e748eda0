// Versus against a bot on the Tetris page: the opponent (Ludus's bot or a TBP
// bot configured with `ludus tetris --tbp-bot`) and level choice under the
// modes, two matrices side by side (yours on the left, the bot's on the right,
// smaller when space is short), the incoming-garbage meters, live stats and a
// result dialog. The server plays both sides (the same VersusSession as the
// terminal's "Versus bot"); this page keeps the clock, sends your key presses
// and releases stamped with game time plus a tick every frame, and draws the
// `versus` state each reply carries (see docs/web-protocol.md).

import { GameSocket } from './net.js';
import {
  GAME_ACTIONS, drawSide, sideBySide, showStats, keyName, keymapOf, lookup as lookupIn, HeldKeys, timeText,
} from './tetris-board.js';

const $ = (id) => document.getElementById(id);

const vs = {
  state: null,
  setup: null,
  level: 'medium',
  // The server's choices (versus_options): opponents by name, levels with their pace.
  options: null,
  opponent: 0,
  lookahead: null, // Ludus's bot's look-ahead by name (the server's default until chosen)
  keymap: new Map(),
  held: new HeldKeys(),
  clock: { base: 0, since: null },
  lastT: 0,
  ticking: 0,
  shown: null, // the finished state the result dialog was shown for
  narrow: false,
};

const socket = new GameSocket('/ws/tetris', {
  onMessage: (msg) => onMessage(msg),
  onOpen: () => {
    if (!vs.options) loadOptions();
    // The server forgets a versus game when its connection drops.
    if (vs.state && vs.state.playing) {
      vs.state = null;
      leave('The connection was lost, and the versus game with it: start a new one.');
    }
  },
});

// ---------- the level choice ----------

async function loadOptions() {
  const reply = await socket.send({ type: 'versus_options' });
  if (reply.type !== 'versus_options') return;
  vs.options = reply;
  renderLevels();
}

// A level's words: its name, and its pace in pieces a second.
function paceText(level) {
  if (level.pps == null) return 'as fast as it thinks';
  return `${level.pps} piece${level.pps === 1 ? '' : 's'} a second`;
}

function renderLevels() {
  const list = $('versus-levels');
  list.innerHTML = '';
  if (!vs.options) return;
  const opponents = vs.options.opponents;
  const pick = $('versus-opponent');
  // The choice shows only when a TBP bot is configured besides Ludus's.
  $('versus-opponent-row').hidden = opponents.length < 2;
  pick.innerHTML = '';
  opponents.forEach((name, i) => {
    const o = document.createElement('option');
    o.value = String(i);
    o.textContent = name;
    pick.append(o);
  });
  vs.opponent = Math.min(vs.opponent, opponents.length - 1);
  pick.value = String(vs.opponent);
  pick.onchange = () => { vs.opponent = Number(pick.value); showLookahead(); };
  const ahead = $('versus-lookahead');
  ahead.innerHTML = '';
  for (const l of vs.options.lookaheads) {
    const o = document.createElement('option');
    o.value = l.name;
    o.textContent = l.label;
    ahead.append(o);
  }
  vs.lookahead = vs.lookahead || vs.options.lookahead;
  ahead.value = vs.lookahead;
  ahead.onchange = () => { vs.lookahead = ahead.value; };
  showLookahead();
  for (const l of vs.options.levels) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.level = l.name;
    const title = document.createElement('b');
    title.textContent = l.name[0].toUpperCase() + l.name.slice(1);
    const text = document.createElement('span');
    text.className = 'muted';
    text.textContent = paceText(l);
    b.append(title, text);
    b.onclick = () => start(l.name);
    list.append(b);
  }
}

// The look-ahead is Ludus's bot's: a TBP bot looks as far as it likes.
function showLookahead() { $('versus-lookahead-row').hidden = vs.opponent !== 0; }

function start(level) {
  if ($('versus-dialog').open) $('versus-dialog').close();
  vs.level = level;
  vs.shown = null;
  const request = { type: 'versus', level, opponent: vs.opponent };
  if (vs.opponent === 0 && vs.lookahead) request.lookahead = vs.lookahead;
  socket.send(request);
}

function visible() { return !$('view-versus').hidden; }

function showView() {
  for (const v of ['menu', 'play', 'replays']) $(`view-${v}`).hidden = true;
  $('view-versus').hidden = false;
  requestAnimationFrame(render);
}

function leave(note = '') {
  pauseGame();
  vs.held.clear();
  if ($('versus-dialog').open) $('versus-dialog').close();
  $('view-versus').hidden = true;
  $('view-menu').hidden = false;
  $('menu-note').textContent = note;
}

// ---------- clock ----------

function running() {
  const s = vs.state;
  return visible() && s && s.playing && !s.paused && vs.clock.since !== null;
}
function gameMs(at = performance.now()) {
  const c = vs.clock;
  return c.since === null ? c.base : c.base + Math.max(0, at - c.since);
}
function startClock(base) { vs.clock = { base, since: performance.now() }; vs.lastT = base; }
function stopClock() { vs.clock = { base: gameMs(), since: null }; }
function stamp(at) {
  const t = Math.max(vs.lastT, Math.floor(gameMs(Math.min(at ?? performance.now(), performance.now()))));
  vs.lastT = t;
  return t;
}

function frame() {
  requestAnimationFrame(frame);
  if (!vs.state) return;
  // Another view took the page (the nav's Modes): the game waits, paused.
  if (!visible() && vs.state.playing && !vs.state.paused) pauseGame();
  if (running() && vs.ticking < 2) {
    vs.ticking++;
    socket.send({ type: 'tick', t: stamp() }).then(() => { vs.ticking--; });
  }
  showTime();
}
requestAnimationFrame(frame);

// ---------- messages ----------

function onMessage(msg) {
  if (msg.type === 'versus') applyState(msg);
  else if (msg.type === 'replay_saved' && msg.versus) $('vr-note').textContent = `Replay saved: ${msg.name} (tetris/versus/)`;
  else if (msg.type === 'error' && visible()) $('vr-note').textContent = msg.message;
}

function applyState(s) {
  if (s.setup) {
    vs.setup = s.setup;
    setKeys(s.setup.keys || {});
    $('v-title').textContent = `Versus bot · ${s.sides[1].label.replace(/^Bot · /, '')}`;
    if (s.playing && !s.paused) startClock(s.t); else vs.clock = { base: s.t, since: null };
    showView();
  }
  vs.state = s;
  if (!s.playing && vs.clock.since !== null) vs.clock = { base: s.t, since: null };
  for (const i of [0, 1]) {
    $(`v-label-${i}`).textContent = s.sides[i].label;
    showStats($(`v-stats-${i}`), s.sides[i]);
  }
  const overlay = $('v-overlay');
  overlay.hidden = !s.paused;
  overlay.textContent = 'Paused — press P or Esc (or tap here) to go on';
  $('v-pause').textContent = s.paused ? 'Go on' : 'Pause';
  $('v-pause').disabled = !s.playing;
  render();
  if (!s.playing && vs.shown !== s.t) {
    vs.shown = s.t;
    showResult(s);
  }
}

function showTime() {
  if (!vs.state) return;
  $('v-time').textContent = timeText(running() ? Math.max(vs.state.t, gameMs()) : vs.state.t);
}

// ---------- drawing ----------

function render() {
  const s = vs.state;
  if (!s || !visible()) return;
  const sizes = sideBySide($('v-boards'));
  vs.narrow = !sizes;
  $('v-narrow').hidden = !vs.narrow;
  for (const i of [0, 1]) $(`v-side-${i}`).hidden = vs.narrow;
  if (vs.narrow) return;
  drawSide($('v-board-0'), s.sides[0], sizes.full, { full: true, hidden: s.paused });
  drawSide($('v-board-1'), s.sides[1], sizes.compact, { full: false, hidden: s.paused });
}

window.addEventListener('resize', () => render());
new ResizeObserver(() => render()).observe($('v-boards'));

// ---------- keys (the player's bindings, as in solo) ----------

function setKeys(keys) {
  vs.keymap = keymapOf(keys, [...GAME_ACTIONS, 'pause', 'quit']);
}

function lookup(name) { return lookupIn(vs.keymap, name); }

function pressAction(code, action, at) {
  if (!running()) return;
  if (vs.held.press(code, action)) socket.send({ type: 'input', action, edge: 'press', t: stamp(at) });
}

function releaseAction(code, at) {
  const action = vs.held.release(code);
  if (!action || !running()) return;
  socket.send({ type: 'input', action, edge: 'release', t: stamp(at) });
}

document.addEventListener('keydown', (e) => {
  if (!visible() || !vs.state || document.querySelector('dialog[open]')) return;
  const name = keyName(e);
  const bind = name && lookup(name);
  if (bind && GAME_ACTIONS.includes(bind)) {
    e.preventDefault();
    if (e.repeat || e.ctrlKey || e.altKey || e.metaKey) return;
    pressAction(e.code || name, bind, e.timeStamp);
    return;
  }
  if (e.repeat || e.ctrlKey || e.altKey || e.metaKey) return;
  if (e.key === 'Escape' || bind === 'pause') { e.preventDefault(); togglePause(); }
  else if (bind === 'quit' || e.key === 'q') { e.preventDefault(); leave(); }
});

document.addEventListener('keyup', (e) => {
  if (!visible()) return;
  releaseAction(e.code || keyName(e), e.timeStamp);
});

function pauseGame() {
  const s = vs.state;
  if (!s || !s.playing || s.paused || vs.clock.since === null) return;
  vs.held.clear(); // the server lets go of every held key at the pause
  const t = stamp();
  stopClock();
  socket.send({ type: 'pause', paused: true, t });
}

function togglePause() {
  const s = vs.state;
  if (!s || !s.playing) return;
  if (s.paused) {
    socket.send({ type: 'pause', paused: false, t: s.t });
    startClock(s.t);
  } else pauseGame();
}

$('v-pause').onclick = () => togglePause();
$('v-menu').onclick = () => leave();
$('v-overlay').onclick = () => { if (vs.state && vs.state.paused) togglePause(); };
window.addEventListener('blur', () => pauseGame());
document.addEventListener('visibilitychange', () => { if (document.hidden) pauseGame(); });

// ---------- the result ----------

const RESULTS = { win: 'You win!', loss: 'The bot wins', draw: 'A draw', stopped: 'Game stopped' };

function showResult(s) {
  $('vr-title').textContent = RESULTS[s.outcome] || 'Versus over';
  const rows = [
    ['', 'You', 'Bot'],
    ['pieces', ...s.sides.map((x) => x.stats.pieces)],
    ['PPS', ...s.sides.map((x) => x.stats.pps.toFixed(2))],
    ['lines', ...s.sides.map((x) => x.stats.lines)],
    ['attack', ...s.sides.map((x) => x.stats.attack)],
    ['APP', ...s.sides.map((x) => x.stats.app.toFixed(2))],
    ['APM', ...s.sides.map((x) => x.stats.apm.toFixed(1))],
    ['lines sent', ...s.sides.map((x) => x.stats.sent)],
    ['garbage received', ...s.sides.map((x) => x.stats.received)],
  ];
  const table = $('vr-stats');
  table.innerHTML = '';
  rows.forEach((r, i) => {
    const tr = document.createElement('tr');
    for (const c of r) { const td = document.createElement(i === 0 ? 'th' : 'td'); td.textContent = c; tr.append(td); }
    table.append(tr);
  });
  const against = vs.setup ? `${vs.setup.opponent}, ${vs.setup.label}` : 'the bot';
  // A side whose TBP bot failed lost by forfeit; the server says why.
  const forfeits = s.sides.filter((x) => x.forfeit).map((x) => ` · ${x.who === 'you' ? 'you' : 'the bot'} forfeited: ${x.forfeit}`);
  $('vr-note').textContent = `${timeText(s.t)} against ${against}` + forfeits.join('') + (s.replay ? ` · replay saved: ${s.replay}` : '');
  // Let the last lock be seen; the dialog takes the focus, so a Space still held does not rematch.
  setTimeout(() => {
    // Replies to ticks already sent may have replaced the state: any finished one will do.
    if (vs.state && !vs.state.playing && vs.shown === s.t && visible() && !$('versus-dialog').open) {
      $('versus-dialog').showModal();
      $('versus-dialog').focus();
    }
  }, 400);
}

$('vr-rematch').onclick = () => start(vs.level);
$('vr-save').onclick = () => socket.send({ type: 'save_replay' });
$('vr-menu').onclick = () => leave();
$('versus-dialog').addEventListener('cancel', (e) => { e.preventDefault(); leave(); });
$('versus-dialog').addEventListener('keydown', (e) => {
  const keys = { Enter: 'vr-rematch', s: 'vr-save', q: 'vr-menu' };
  if (keys[e.key]) { e.preventDefault(); $(keys[e.key]).click(); }
  else if (e.key === ' ' && e.target === $('versus-dialog')) e.preventDefault();
});

// For the browser tests.
window.__ludusVersus = vs;
