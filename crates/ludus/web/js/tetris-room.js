// Versus rooms on the Tetris page: "Play a friend" opens a room on the server and
// shows its link; a page opened on `/tetris.html?room=ID` takes the free seat or
// watches. The server runs the game and its clock (a Room session): this page only
// sends its player's key presses and releases and draws the `room_state` the server
// pushes (see docs/web-protocol.md). The seat's token is kept in sessionStorage for the
// room, so a reload of this tab takes the same seat back (another tab of the same
// browser is another player).

import { GameSocket } from './net.js';
import {
  GAME_ACTIONS, drawSide, sideBySide, showStats, keyName, keymapOf, lookup, HeldKeys, timeText,
} from './tetris-board.js';

const $ = (id) => document.getElementById(id);

const NAME_KEY = 'ludus.tetris.name';
const tokenKey = (room) => `ludus.tetris.room.${room}`;

const rm = {
  room: null,      // the room's id, once joined
  role: null,      // 'player' or 'spectator'
  seat: null,      // 1 or 2 for a player
  link: '',
  state: null,
  keymap: new Map(),
  held: new HeldKeys(),
  shownGame: null, // the game whose result dialog was shown
  names: [null, null], // the last names seen at each seat
  narrow: false,
};

const socket = new GameSocket('/ws/tetris', {
  onMessage: (msg) => onMessage(msg),
  // After a drop the server keeps the seat for a while: take it back with the token.
  onOpen: () => (rm.room ? join(rm.room) : null),
});

function visible() { return !$('view-room').hidden; }

function showView() {
  for (const v of ['menu', 'play', 'replays', 'versus']) $(`view-${v}`).hidden = true;
  $('view-room').hidden = false;
  requestAnimationFrame(render);
}

function toMenu(note = '') {
  rm.room = null;
  rm.state = null;
  rm.held.clear();
  if ($('room-dialog').open) $('room-dialog').close();
  $('view-room').hidden = true;
  $('view-menu').hidden = false;
  $('menu-note').textContent = note;
  if (new URLSearchParams(location.search).has('room')) history.replaceState(null, '', '/tetris.html');
}

function playerName() { return (localStorage.getItem(NAME_KEY) || '').trim(); }

// ---------- entering and leaving ----------

function create() {
  const name = $('room-name').value.trim();
  localStorage.setItem(NAME_KEY, name);
  socket.send({ type: 'room_create', ...(name ? { name } : {}) }).then((reply) => {
    if (reply.type === 'error') $('menu-note').textContent = reply.message;
  });
}

function join(room) {
  const token = sessionStorage.getItem(tokenKey(room));
  const name = playerName();
  return socket.sendNow({ type: 'room_join', room, ...(token ? { token } : {}), ...(name ? { name } : {}) })
    .then((reply) => {
      if (reply.type !== 'error') return;
      sessionStorage.removeItem(tokenKey(room));
      if (reply.code === 'closed') return; // the connection dropped: the next open retries
      toMenu(reply.code === 'not_found'
        ? 'That room is closed (it ended, or the server was restarted): open a new one.'
        : reply.message);
    });
}

function leave() {
  if (rm.room) {
    sessionStorage.removeItem(tokenKey(rm.room));
    socket.send({ type: 'room_leave' });
  }
  toMenu();
}

function joined(msg) {
  rm.room = msg.room;
  rm.role = msg.role;
  rm.seat = msg.seat;
  rm.link = new URL(msg.link, location.href).href;
  rm.shownGame = null;
  rm.names = [null, null];
  if (msg.token) sessionStorage.setItem(tokenKey(msg.room), msg.token);
  if (msg.keys) rm.keymap = keymapOf(msg.keys, [...GAME_ACTIONS, 'quit']);
  if (new URLSearchParams(location.search).get('room') !== msg.room) {
    history.replaceState(null, '', msg.link);
  }
  $('r-link').value = rm.link;
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(location.hostname);
  $('r-reach').hidden = !loopback;
  $('r-spectating').hidden = rm.role !== 'spectator';
  $('r-touch').hidden = rm.role !== 'player';
  $('r-name-box').hidden = rm.role !== 'player';
  $('r-name').value = playerName();
  showView();
}

// ---------- messages ----------

function onMessage(msg) {
  if (msg.type === 'room') joined(msg);
  else if (msg.type === 'room_state' && msg.room === rm.room) applyState(msg);
  else if (msg.type === 'room_closed' && msg.room === rm.room) {
    sessionStorage.removeItem(tokenKey(rm.room));
    toMenu('The room was closed after a while with nobody playing.');
  } else if (msg.type === 'error' && visible() && msg.code !== 'closed') {
    $('r-status').textContent = msg.message;
  }
}

// A seat's player, or the last one seen there (a player who left frees the seat).
function seatName(s, i) { return s.seats[i] ? s.seats[i].name : rm.names[i] || `Player ${i + 1}`; }

// The seat (0 or 1) drawn on the left: the player's own, player one for spectators.
function leftSeat() { return rm.role === 'player' && rm.seat === 2 ? 1 : 0; }

function applyState(s) {
  // The nav took the page elsewhere: leaving the view leaves the room.
  if (!visible()) { leave(); return; }
  rm.state = s;
  s.seats.forEach((seat, i) => { if (seat) rm.names[i] = seat.name; });
  const playing = s.phase === 'playing' && !s.paused;
  if (!playing) releaseAll();
  const left = leftSeat();
  [left, 1 - left].forEach((seat, i) => {
    const you = rm.role === 'player' && rm.seat === seat + 1;
    const seatState = s.seats[seat];
    let label = seatName(s, seat) + (you ? ' (you)' : '');
    if (!seatState && s.phase === 'finished' && rm.names[seat]) label = `${rm.names[seat]} · left`;
    else if (!seatState) label = `Player ${seat + 1}: waiting…`;
    else if (!seatState.connected) label += ' · away';
    $(`r-label-${i}`).textContent = label;
    showStats($(`r-stats-${i}`), s.sides[seat]);
  });
  $('r-title').textContent = `${seatName(s, 0)} vs ${seatName(s, 1)}`;
  $('r-time').textContent = timeText(s.t);
  $('r-waiting').hidden = !(rm.role === 'player' && s.phase === 'waiting' && s.seats.some((x) => !x));
  $('r-status').textContent = status(s);
  const overlay = $('r-overlay');
  const text = overlayText(s);
  overlay.hidden = !text;
  overlay.textContent = text;
  render();
  if (s.phase === 'finished' && rm.role === 'player' && rm.shownGame !== s.games) {
    rm.shownGame = s.games;
    showResult(s);
  } else if (s.phase === 'finished' && $('room-dialog').open) {
    showResultNote(s);
  } else if (s.phase !== 'finished' && $('room-dialog').open) {
    $('room-dialog').close();
  }
}

function status(s) {
  const watchers = s.spectators ? ` · ${s.spectators} watching` : '';
  if (s.phase === 'waiting') return `Waiting for a second player${watchers}`;
  if (s.phase === 'countdown') return `Get ready${watchers}`;
  if (s.phase === 'finished') return `${resultTitle(s)}${watchers}`;
  return `Playing${watchers}`;
}

function overlayText(s) {
  if (s.phase === 'countdown') return String(Math.max(1, Math.ceil((s.countdown_ms || 0) / 1000)));
  if (s.paused) {
    const away = s.seats.findIndex((x) => x && !x.connected);
    const left = away >= 0 ? Math.ceil((s.seats[away].grace_left_ms || 0) / 1000) : 0;
    return `Waiting for ${away >= 0 ? s.seats[away].name : 'a player'} to come back (${left} s)`;
  }
  return '';
}

// ---------- drawing ----------

function render() {
  const s = rm.state;
  if (!s || !visible()) return;
  const sizes = sideBySide($('r-boards'));
  rm.narrow = !sizes;
  $('r-narrow').hidden = !rm.narrow;
  for (const i of [0, 1]) $(`r-side-${i}`).hidden = rm.narrow;
  if (rm.narrow) return;
  const left = leftSeat();
  const mine = (seat) => rm.role === 'player' && rm.seat === seat + 1;
  drawSide($('r-board-0'), s.sides[left], sizes.full, { full: true, ghost: mine(left) });
  drawSide($('r-board-1'), s.sides[1 - left], sizes.compact, { full: false, ghost: false });
}

window.addEventListener('resize', () => render());
new ResizeObserver(() => render()).observe($('r-boards'));

// ---------- keys (the player's bindings, as in solo) ----------

function canPlay() {
  const s = rm.state;
  return visible() && rm.role === 'player' && s && s.phase === 'playing' && !s.paused;
}

// The server stamps keys with the room's clock: `t` is sent only because the request has it.
function sendKey(action, edge) { socket.send({ type: 'input', action, edge, t: 0 }); }

function releaseAll() {
  for (const code of rm.held.codes()) {
    const action = rm.held.release(code);
    if (action && canPlay()) sendKey(action, 'release');
  }
  rm.held.clear();
}

document.addEventListener('keydown', (e) => {
  if (!visible() || !rm.state || document.querySelector('dialog[open]')) return;
  if (e.target.closest && e.target.closest('input')) return; // typing a name
  const name = keyName(e);
  const bind = name && lookup(rm.keymap, name);
  if (bind && GAME_ACTIONS.includes(bind)) {
    e.preventDefault();
    if (e.repeat || e.ctrlKey || e.altKey || e.metaKey || !canPlay()) return;
    if (rm.held.press(e.code || name, bind)) sendKey(bind, 'press');
    return;
  }
  if (e.repeat || e.ctrlKey || e.altKey || e.metaKey) return;
  if (bind === 'quit' || e.key === 'q') { e.preventDefault(); leave(); }
});

document.addEventListener('keyup', (e) => {
  if (!visible()) return;
  const action = rm.held.release(e.code || keyName(e));
  if (action && canPlay()) sendKey(action, 'release');
});

window.addEventListener('blur', () => releaseAll());

// The touch pad (phones): a held button is a held key.
for (const button of document.querySelectorAll('#r-touch button')) {
  const action = button.dataset.action;
  const code = `touch-${action}`;
  button.addEventListener('pointerdown', (e) => {
    e.preventDefault();
    button.setPointerCapture(e.pointerId);
    if (canPlay() && rm.held.press(code, action)) sendKey(action, 'press');
  });
  for (const end of ['pointerup', 'pointercancel', 'lostpointercapture']) {
    button.addEventListener(end, () => {
      const released = rm.held.release(code);
      if (released && canPlay()) sendKey(released, 'release');
    });
  }
  button.addEventListener('contextmenu', (e) => e.preventDefault());
}

// ---------- the result ----------

function resultTitle(s) {
  if (s.winner == null) return s.reason === 'draw' ? 'A draw' : 'Game stopped';
  if (rm.role === 'player' && s.winner === rm.seat) return 'You win!';
  if (rm.role === 'player') return `${seatName(s, s.winner - 1)} wins`;
  return `${seatName(s, s.winner - 1)} wins`;
}

function showResultNote(s) {
  const loser = s.winner ? 2 - s.winner : null;
  let note = s.reason === 'left the room' && loser != null ? `${seatName(s, loser)} left the room.` : '';
  const other = rm.seat === 1 ? 1 : 0;
  const mineAsked = s.seats[rm.seat - 1] && s.seats[rm.seat - 1].rematch;
  if (!s.seats[other]) note += ' The other seat is free: share the link for a new opponent.';
  else if (s.seats[other].rematch) note += ` ${s.seats[other].name} wants a rematch.`;
  else if (mineAsked) note += ` Waiting for ${s.seats[other].name} to accept…`;
  $('rr-note').textContent = note.trim();
  $('rr-rematch').disabled = !!mineAsked;
}

function showResult(s) {
  $('rr-title').textContent = resultTitle(s);
  const rows = [
    ['', seatName(s, 0), seatName(s, 1)],
    ['pieces', ...s.sides.map((x) => x.stats.pieces)],
    ['PPS', ...s.sides.map((x) => x.stats.pps.toFixed(2))],
    ['lines', ...s.sides.map((x) => x.stats.lines)],
    ['attack', ...s.sides.map((x) => x.stats.attack)],
    ['APP', ...s.sides.map((x) => x.stats.app.toFixed(2))],
    ['APM', ...s.sides.map((x) => x.stats.apm.toFixed(1))],
    ['garbage received', ...s.sides.map((x) => x.stats.received)],
  ];
  const table = $('rr-stats');
  table.innerHTML = '';
  rows.forEach((r, i) => {
    const tr = document.createElement('tr');
    for (const c of r) { const td = document.createElement(i === 0 ? 'th' : 'td'); td.textContent = c; tr.append(td); }
    table.append(tr);
  });
  showResultNote(s);
  // Let the last lock be seen; the dialog takes the focus, so a held Space does not rematch.
  setTimeout(() => {
    if (rm.state && rm.state.phase === 'finished' && visible() && !$('room-dialog').open) {
      $('room-dialog').showModal();
      $('room-dialog').focus();
    }
  }, 400);
}

$('rr-rematch').onclick = () => {
  $('rr-rematch').disabled = true;
  socket.send({ type: 'room_rematch' });
};
$('rr-leave').onclick = () => leave();
$('room-dialog').addEventListener('cancel', (e) => { e.preventDefault(); leave(); });
$('room-dialog').addEventListener('keydown', (e) => {
  if (e.key === 'Enter') { e.preventDefault(); $('rr-rematch').click(); }
  else if (e.key === ' ' && e.target === $('room-dialog')) e.preventDefault();
});

$('room-create').onclick = () => create();
$('room-name').value = playerName();
$('room-name').addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); create(); } });
$('r-leave').onclick = () => leave();
// A new name is sent when typed (Enter or leaving the field) and kept for next time.
function rename() {
  const name = $('r-name').value.trim();
  if (name === playerName()) return;
  localStorage.setItem(NAME_KEY, name);
  socket.send({ type: 'room_name', name });
}
$('r-name').addEventListener('change', () => rename());
$('r-name').addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); $('r-name').blur(); } });
$('r-copy').onclick = async () => {
  try {
    await navigator.clipboard.writeText(rm.link);
    $('r-copy').textContent = 'Copied';
  } catch {
    $('r-link').select(); // no clipboard (plain http on another host): select it to copy by hand
  }
};

// A room's link opens the room.
const linked = new URLSearchParams(location.search).get('room');
if (linked) {
  rm.room = linked;
  showView();
}

// For the browser tests.
window.__ludusRoom = rm;
