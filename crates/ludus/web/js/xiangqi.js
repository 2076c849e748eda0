// The Xiangqi page: the game lives on the server (/ws/xiangqi, see
// docs/web-protocol.md); this draws its state, sends moves (click or drag),
// shows the engine's thinking and an evaluation graph, the move list in a
// chosen notation (click a move to look at that position), import/export,
// a games database (saved games and imported collections) and a position editor.

import { GameSocket } from './net.js';
import { scaledContext } from './canvas.js';
import {
  CHARS, setCharacters, parseFen, boardFen, isRed, fitBoard, drawBoard, drawPiece, fontsReady, slideBetween, BoardMotion,
} from './xiangqi-board.js';

const $ = (id) => document.getElementById(id);
const SESSION_KEY = 'ludus.xiangqi.session';
const START_FEN = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

// Shortcuts shown in the side panel: [keys (two spaces apart), what, wide].
const KEYS = [
  ['click / drag', 'pick a piece, then a green mark', true],
  ['n', 'new game'], ['u  Backspace', 'undo'],
  ['h', 'hint'], ['m', 'move now'],
  ['f', 'flip board'], ['d', 'offer a draw'],
  ['r r', 'resign'], ['s', 'save'],
  ['x', 'export'], ['i', 'import'],
  ['l', 'games database'], ['e', 'editor'],
  ['← →', 'step'], ['Esc', 'drop piece'],
  ['a  p', 'analysis, pause'], ['w  o', 'engines play, one move'],
  ['Home  End', 'first position / back to the game', true],
];
const KEYS_OPEN = 'ludus.xiangqi.keys';

const app = {
  state: null,
  options: null,
  view: null, // a ply number when looking at an earlier position
  flipped: false,
  flipKey: null,
  selected: null,
  drag: null,
  hint: null,
  info: null, // the latest thinking message with a depth, or { book, purpose, ply | text } for a book move
  live: new Map(), // ply → score seen while thinking (Red's view)
  notation: 'chinese',
  confirm: null, // 'resign' or 'draw' waiting for a second press
  overShown: null,
  editor: { cells: new Map(), turn: 'w', tool: 'R', geo: null },
  exportFormat: 'pgn',
  animate: true, // slide the pieces (the remembered choice, else the browser's motion preference)
  animateChoice: null, // the player's remembered choice, null until made
  drawn: null, // the position drawn last, { state, ply }: where a slide starts
  carried: null, // a move the player dragged into place (no slide for it)
  moving: null, // the sliding piece as drawn last (for the tests), see drawBoard
};
window.__ludus = app;
// For the browser tests: the piece shown on a square.
app.pieceAt = (sq) => shown().cells.get(sq) || null;

function setStatus(text, tone = 'info') {
  const el = $('xq-status');
  el.textContent = text;
  el.className = `message ${tone}`;
}

const sideName = (side) => (side === 'red' ? 'Red' : 'Black');

function humanToMove() {
  const s = app.state;
  if (!s || s.over || app.view !== null || s.mode === 'engines') return false;
  // While analysing, the player moves either side.
  return s.mode === 'humans' || s.turn === s.human || !!s.analysis;
}

// The position on the board: the current one, or the one after `view` plies.
function shown() {
  const s = app.state;
  if (!s) return { ...parseFen(START_FEN), last: null, ply: 0 };
  const ply = app.view ?? s.moves.length;
  const fen = ply === 0 ? s.start_fen : s.moves[ply - 1].fen;
  return { ...parseFen(fen), last: ply > 0 ? s.moves[ply - 1].uci : null, ply };
}

function generalOf(cells, red) {
  for (const [sq, p] of cells) if (p === (red ? 'K' : 'k')) return sq;
  return null;
}

// ---------------------------------------------------------------- drawing

let geo = null;

// The board of a state after `ply` plies.
function cellsAt(s, ply) {
  return parseFen(ply === 0 ? s.start_fen : s.moves[ply - 1].fen).cells;
}

// The slides from ply `from` of game state `old` to ply `to` of `now`, at
// most `max` plies apart along one line of moves; none otherwise.
function slidesAlong(old, from, now, to, max) {
  if (from === to || Math.abs(to - from) > max) return [];
  if (old.session !== now.session || old.start_fen !== now.start_fen) return [];
  const longer = old.moves.length >= now.moves.length ? old : now;
  const shorter = longer === old ? now : old;
  if (shorter.moves.some((m, i) => m.uci !== longer.moves[i].uci)) return [];
  const dir = Math.sign(to - from);
  const steps = [];
  for (let ply = from; ply !== to; ply += dir) {
    const uci = longer.moves[dir > 0 ? ply : ply - 1].uci;
    const slide = slideBetween(cellsAt(longer, ply), cellsAt(longer, ply + dir), uci, dir > 0);
    if (!slide) return [];
    if (!(dir > 0 && app.carried === uci)) steps.push(slide);
  }
  return steps;
}

// Starts the slides from the position drawn last to the one shown at `ply`:
// one ply stepping through the game, up to two (an undo against Ludus) when
// the server's game changed; none for a jump, another game, or with the
// animation off. The same position again leaves a slide under way alone.
function slideInto(ply) {
  const was = app.drawn;
  const s = app.state;
  if (!s) return;
  app.drawn = { state: s, ply };
  if (!was || (was.state === s && was.ply === ply)) return;
  if (was.ply === ply && was.state.session === s.session && cellsKey(was.state, ply) === cellsKey(s, ply)) return;
  const steps = app.animate ? slidesAlong(was.state, was.ply, s, ply, was.state === s ? 1 : 2) : [];
  app.carried = null;
  if (steps.length) motion.start(steps); else motion.finish(false);
}

function cellsKey(s, ply) {
  return ply <= s.moves.length ? (ply === 0 ? s.start_fen : s.moves[ply - 1].fen) : null;
}

function renderBoard() {
  const wrap = $('board-wrap');
  const [g, geometry] = fitBoard($('board'), wrap.clientWidth, wrap.clientHeight, app.flipped);
  geo = geometry;
  app.geo = geometry;
  const pos = shown();
  slideInto(pos.ply);
  const slide = motion.current();
  const live = app.view === null && app.state;
  const targets = app.selected && live ? app.state.legal.filter((m) => m.startsWith(app.selected)).map((m) => m.slice(2, 4)) : [];
  const inCheck = live ? app.state.check : false;
  app.moving = drawBoard(g, geo, {
    cells: slide ? slide.cells : pos.cells,
    slide,
    last: pos.last,
    selected: live ? app.selected : null,
    targets,
    check: inCheck ? generalOf(pos.cells, pos.turn === 'w') : null,
    hint: (live && app.hint) || analysisBest(pos.ply),
    drag: app.drag,
  });
}
const motion = new BoardMotion($('board'), () => renderBoard());

// The first move of the analysis's best line, if the analysis is of `ply`.
function analysisBest(ply) {
  const a = app.state && app.state.analysis;
  if (!a || a.ply !== ply || !a.lines.length) return null;
  return a.lines[0].uci[0] || null;
}

function scoreY(v, h) {
  const t = Math.tanh(v / 500);
  return h / 2 - t * (h / 2 - 4);
}

function renderGraph() {
  const canvas = $('graph');
  const w = canvas.clientWidth, h = canvas.clientHeight;
  const g = scaledContext(canvas);
  g.fillStyle = '#0e121b'; g.fillRect(0, 0, w, h);
  g.fillStyle = '#b5222a22'; g.fillRect(0, 0, w, h / 2);
  g.strokeStyle = '#ffffff30'; g.beginPath(); g.moveTo(0, h / 2); g.lineTo(w, h / 2); g.stroke();
  const s = app.state;
  if (!s) return;
  const n = Math.max(s.moves.length, 10);
  const x = (ply) => 4 + (ply / n) * (w - 8);
  // Book moves have no score: drawn at 0.0 as hollow points.
  const points = [];
  for (let ply = 0; ply <= s.moves.length; ply++) {
    const v = s.evals[ply] ?? app.live.get(ply);
    if (v != null) points.push([x(ply), scoreY(v, h), false]);
    else if (s.moves[ply] && s.moves[ply].book) points.push([x(ply), scoreY(0, h), true]);
  }
  const ply = app.view ?? s.moves.length;
  g.strokeStyle = '#e6be5080'; g.beginPath(); g.moveTo(x(ply), 0); g.lineTo(x(ply), h); g.stroke();
  if (points.length) {
    g.strokeStyle = '#e6be50'; g.lineWidth = 2; g.beginPath();
    points.forEach(([px, py], i) => (i ? g.lineTo(px, py) : g.moveTo(px, py)));
    g.stroke();
    g.fillStyle = '#e6be50';
    g.lineWidth = 1.5;
    for (const [px, py, book] of points) {
      g.beginPath(); g.arc(px, py, book ? 3 : 2.5, 0, Math.PI * 2);
      if (book) { g.fillStyle = '#0e121b'; g.fill(); g.stroke(); g.fillStyle = '#e6be50'; } else g.fill();
    }
    if (points.some((p) => p[2])) {
      g.fillStyle = '#9aa3b5'; g.font = '11px system-ui'; g.textAlign = 'left'; g.textBaseline = 'top';
      g.fillText('\u25cb book move (0.0)', 6, 4);
    }
  } else {
    g.fillStyle = '#9aa3b5'; g.font = '12px system-ui'; g.textAlign = 'center';
    g.fillText('Ludus\u2019s scores appear here as it thinks', w / 2, h / 2 - 8);
  }
}

function renderMoves() {
  const s = app.state;
  const list = $('moves');
  const scrolled = list.scrollTop;
  list.textContent = '';
  // The ECCO opening heads the list, written for the chosen notation.
  $('opening').textContent = s && s.opening ? s.opening[app.notation] || s.opening.iccs : '';
  if (!s) return;
  const blackFirst = parseFen(s.start_fen).turn === 'b';
  const startNo = Number(s.start_fen.trim().split(/\s+/)[5]) || 1;
  const current = app.view ?? s.moves.length;
  let row = null;
  s.moves.forEach((m, i) => {
    const red = (i % 2 === 0) !== blackFirst;
    if (red || !row) {
      row = document.createElement('div');
      row.className = 'xq-move-row';
      const no = document.createElement('span');
      no.className = 'no';
      no.textContent = `${startNo + Math.floor((i + (blackFirst ? 1 : 0)) / 2)}.`;
      row.append(no);
      if (!red) row.append(Object.assign(document.createElement('span'), { textContent: '…' }));
      list.append(row);
    }
    const b = document.createElement('button');
    b.type = 'button';
    b.className = `xq-move${current === i + 1 ? ' current' : ''}`;
    b.dataset.ply = String(i + 1);
    b.textContent = m[app.notation] || m.iccs;
    b.addEventListener('click', () => goTo(i + 1));
    row.append(b);
  });
  // Scrolls the list only (never the page, as scrollIntoView would on a
  // phone): the latest move at the bottom, an earlier one whole in view.
  const cur = list.querySelector('.current');
  if (app.view === null) list.scrollTop = list.scrollHeight;
  else if (cur) {
    const row = cur.parentElement;
    const pad = 4;
    list.scrollTop = scrolled;
    if (row.offsetTop - pad < list.scrollTop) list.scrollTop = row.offsetTop - pad;
    else if (row.offsetTop + row.offsetHeight + pad > list.scrollTop + list.clientHeight) {
      list.scrollTop = row.offsetTop + row.offsetHeight + pad - list.clientHeight;
    }
  }
  $('b-live').hidden = app.view === null;
}

function renderAnalysis(el, a) {
  const head = document.createElement('div');
  const state = a.paused ? 'paused' : a.finished ? 'searched to the end' : a.lines.length ? `${Math.round(a.nps / 1000)} kN/s` : 'thinking…';
  head.innerHTML = `depth <b>${a.depth}</b> · ${state}`;
  el.textContent = '';
  el.append(head);
  for (const line of a.lines) {
    const row = document.createElement('div');
    row.className = 'xq-pv xq-line';
    row.dataset.rank = String(line.rank);
    const moves = line[app.notation] || line.iccs;
    row.innerHTML = `<b>${line.rank}.</b> <b>${line.score}</b> <span class="muted">d${line.depth}</span> `;
    row.append(document.createTextNode(moves.join(' ')));
    el.append(row);
  }
}

// Which player (0 Red, 1 Black) a thinking line is of: the side to move
// while searching, the side that played a book move.
function moverIndex(s, info) {
  if (!info.book || info.ply == null) return s.turn === 'red' ? 0 : 1;
  const blackFirst = parseFen(s.start_fen).turn === 'b';
  return (info.ply % 2 === 0) !== blackFirst ? 0 : 1;
}

function renderThinking() {
  const el = $('thinking');
  const s = app.state;
  const info = app.info;
  $('thinking-title').textContent = s && s.analysis ? 'Analysis' : s && s.mode === 'engines' ? 'Engines think' : 'Ludus thinks';
  if (s && s.analysis) { renderAnalysis(el, s.analysis); return; }
  if (!info) {
    el.textContent = s && s.thinking ? (s.thinking === 'hint' ? 'Looking for a hint…' : 'Ludus is thinking…') : '—';
    return;
  }
  const who = info.purpose === 'hint' ? 'Hint' : s && s.mode === 'engines' ? s.names[moverIndex(s, info)] : 'Ludus';
  const head = document.createElement('div');
  const pv = document.createElement('div');
  pv.className = 'xq-pv';
  const foot = document.createElement('div');
  foot.className = 'xq-foot';
  if (info.book) {
    const m = info.ply != null && s ? s.moves[info.ply] : null;
    head.innerHTML = `<b>${who}</b> · <b>book move</b>`;
    pv.textContent = m ? m[app.notation] || m.iccs : info.text || '';
    foot.textContent = 'from the opening book: no search, no score';
  } else {
    head.innerHTML = `<b>${who}</b> · depth <b>${info.depth}</b> · <b>${info.score_text}</b>`;
    pv.textContent = info.pv.join(' ');
    foot.textContent = `${s && s.thinking ? 'thinking' : 'last search'} · ${Math.round(info.nps / 1000)} kN/s`;
  }
  el.textContent = '';
  el.append(head, pv, foot);
}

// What the endgame tables say about the position shown (the server's
// `tablebase` text), under the engine's thinking; hidden when not covered.
function renderTablebase() {
  let el = $('tablebase');
  if (!el) {
    el = document.createElement('div');
    el.id = 'tablebase';
    el.className = 'xq-tablebase';
    $('thinking').after(el);
  }
  const text = app.state && app.state.tablebase;
  el.textContent = text || '';
  el.hidden = !text;
}

function render() {
  const s = app.state;
  renderTablebase();
  if (s) {
    const watching = s.mode === 'engines';
    $('xq-title').textContent = s.title || (s.mode === 'engine' ? 'You vs Ludus' : watching ? 'Engines play each other' : 'Two players');
    $('xq-sub').textContent = s.mode === 'engine'
      ? `You play ${sideName(s.human)} · Ludus: ${s.level_name}`
      : `${s.names[0]} (Red) vs ${s.names[1]} (Black)`;
    const engine = s.mode === 'engine';
    const running = watching && !s.over && !s.watch_paused;
    $('b-undo').disabled = !s.moves.length || running;
    $('b-hint').disabled = !!s.over || !!s.thinking || !humanToMove() || !!s.analysis;
    $('b-hint').hidden = watching;
    $('b-stop').hidden = !engine;
    $('b-stop').disabled = s.thinking !== 'move';
    $('b-draw').disabled = !!s.over;
    $('b-resign').disabled = !!s.over;
    $('b-draw').hidden = watching;
    $('b-resign').hidden = watching;
    $('b-analysis').setAttribute('aria-pressed', String(!!s.analysis));
    $('b-analysis').classList.toggle('active', !!s.analysis);
    $('b-analysis').hidden = watching && !s.over;
    const pausable = (watching && !s.over) || !!s.analysis;
    $('b-pause').hidden = !pausable;
    const paused = s.analysis ? s.analysis.paused : s.watch_paused;
    $('b-pause').textContent = paused ? '▶ Go on' : '⏸ Pause';
    $('b-step').hidden = !(watching && !s.over && s.watch_paused);
    $('b-watch').hidden = watching;
  }
  renderBoard();
  renderMoves();
  renderThinking();
  renderGraph();
  renderClocks();
}

function statusOfState() {
  const s = app.state;
  if (!s) return;
  if (app.view !== null) {
    const at = app.view === 0 ? 'the start' : `the position ${s.moves[app.view - 1].after}`;
    setStatus(`Looking at ${at}: → forward, End back to the game.`, 'info');
    return;
  }
  if (s.over) { setStatus(s.over.text, 'warn'); return; }
  let text = `${sideName(s.turn)} to move`;
  if (s.mode === 'engine' && !s.analysis) text += s.turn === s.human ? ' (you)' : ' (Ludus is thinking…)';
  if (s.mode === 'engines') text += s.watch_paused ? ` (${s.names[s.turn === 'red' ? 0 : 1]}) · paused: p goes on, o plays one move` : ` (${s.names[s.turn === 'red' ? 0 : 1]} is thinking…)`;
  if (s.check) text = `Check! ${text}`;
  if (s.recorded) text += ` · recorded result ${s.recorded}`;
  setStatus(text, s.check ? 'warn' : 'info');
}

// ---------------------------------------------------------------- clocks

// Time left for each side now: the server's figures, less the time since
// that state for the side to move while its clock runs.
function clockLeft(s, side) {
  const i = side === 'red' ? 0 : 1;
  const left = s.clocks.left_ms[i];
  return s.clocks.running && s.turn === side ? left - (performance.now() - app.stateAt) : left;
}

function clockText(ms) {
  const tenths = Math.max(0, Math.ceil(ms / 100));
  const m = Math.floor(tenths / 600), sec = Math.floor(tenths / 10) % 60;
  // Tenths in the last ten seconds, as on a real clock.
  return tenths < 100 ? `${sec}.${tenths % 10}` : `${m}:${String(sec).padStart(2, '0')}`;
}

function renderClocks() {
  const s = app.state;
  $('xq-clocks').hidden = !s || !s.clocks;
  if (!s || !s.clocks) return;
  for (const side of ['red', 'black']) {
    const el = $(`clock-${side}`);
    const left = clockLeft(s, side);
    el.textContent = `${sideName(side)} ${clockText(left)}`;
    el.classList.toggle('running', s.clocks.running && s.turn === side);
    el.classList.toggle('low', left < 10000);
  }
  // The flag fell on the page: the server checks and ends the game on time.
  if (s.clocks.running && clockLeft(s, s.turn) <= 0 && app.flagAsked !== s) {
    app.flagAsked = s;
    socket.send({ type: 'clock' });
  }
}
setInterval(renderClocks, 100);

// ---------------------------------------------------------------- network

function onMessage(msg) {
  switch (msg.type) {
    case 'state': {
      const fresh = !app.state || app.state.session !== msg.session;
      if (fresh) { app.live.clear(); app.info = null; app.view = msg.view ?? null; app.overShown = null; }
      if (!msg.thinking && app.state && app.state.thinking) app.info = app.info && { ...app.info };
      // A new move of Ludus's from its book: say so (there was no search).
      const last = msg.moves.length - 1;
      if (!msg.thinking && last >= 0 && msg.moves[last].book && (fresh || app.state.moves.length !== msg.moves.length)) {
        app.info = { book: true, purpose: 'move', ply: last };
      }
      app.state = msg;
      app.stateAt = performance.now();
      sessionStorage.setItem(SESSION_KEY, msg.session);
      const key = `${msg.session}:${msg.mode}:${msg.human}`;
      if (app.flipKey !== key) { app.flipKey = key; app.flipped = msg.mode === 'engine' && msg.human === 'black'; }
      if (app.view !== null && app.view >= msg.moves.length) app.view = null;
      for (const ply of [...app.live.keys()]) if (ply > msg.moves.length) app.live.delete(ply);
      app.selected = null;
      app.hint = null;
      app.confirm = null;
      statusOfState();
      render();
      if (msg.over && app.overShown !== msg.over.text) {
        app.overShown = msg.over.text;
        $('over-text').textContent = `${msg.over.text} (${msg.over.result})`;
        if (!$('over-dialog').open) $('over-dialog').showModal();
      }
      if (!msg.over) app.overShown = null;
      break;
    }
    case 'thinking':
      if (msg.depth != null) {
        app.info = msg;
        app.live.set(msg.ply, msg.score);
        renderThinking();
        renderGraph();
      } else {
        app.info = null;
        if (app.state) app.state.thinking = msg.purpose;
        renderThinking();
      }
      break;
    case 'analysis':
      if (app.state) { app.state.analysis = msg; renderThinking(); renderBoard(); }
      break;
    case 'hint':
      app.hint = msg.move;
      if (app.state) app.state.thinking = null;
      if (msg.book) app.info = { book: true, purpose: 'hint', text: msg.text };
      setStatus(`Hint: ${msg.text} (${msg.iccs}) · ${msg.book ? 'book move' : msg.score}`, 'info');
      render();
      break;
    case 'notice':
      setStatus(msg.message, 'info');
      break;
    case 'saved':
      setStatus(`Saved as ${msg.folder}/${msg.name}`, 'info');
      if (app.state) app.state.saved_as = msg.name;
      break;
    case 'error':
      if (msg.code === 'closed') break;
      // A lost game (the resume's answer) is rebuilt or replaced by onOpen.
      if (msg.code === 'not_found' && /gone/.test(msg.message)) { sessionStorage.removeItem(SESSION_KEY); break; }
      setStatus(msg.message, 'warn');
      break;
    default:
      break;
  }
}

const socket = new GameSocket('/ws/xiangqi', {
  onMessage,
  onStatus: (s) => { $('conn').textContent = s === 'open' ? '' : 'reconnecting…'; },
  onOpen: async () => {
    const options = await socket.sendNow({ type: 'options' });
    if (options.type === 'options') applyOptions(options);
    const session = sessionStorage.getItem(SESSION_KEY);
    if (session) {
      const reply = await socket.sendNow({ type: 'resume', session });
      if (reply.type === 'state') return;
      // The server lost the game (restarted): bring it back from the moves this page holds.
      if (app.state && app.state.moves.length) {
        const s = app.state;
        const moves = s.moves.map((m) => m.uci).join(' ');
        const pgn = `[FEN "${s.start_fen}"]\n[Red "${s.names[0]}"]\n[Black "${s.names[1]}"]\n\n${moves} *\n`;
        const back = await socket.sendNow({
          type: 'import', text: pgn, format: 'pgn', mode: s.mode, human: s.human || undefined, level: s.level ?? undefined,
        });
        if (back.type === 'state') {
          setStatus('The server had lost this game (it was restarted); it is back, rebuilt from the moves on this page.', 'warn');
          return;
        }
        setStatus(`The server lost this game and it could not be rebuilt: ${back.message}`, 'warn');
      }
    }
    if (!app.state) { setStatus('Choose a new game (n), import one (i) or open a saved one (l).', 'info'); openNewDialog(); }
  },
});

function applyOptions(o) {
  app.options = o;
  const select = $('new-level');
  select.textContent = '';
  o.levels.forEach((name, i) => select.append(new Option(name, String(i))));
  select.value = String(o.level);
  const clocks = $('new-clock');
  clocks.textContent = '';
  (o.clocks || []).forEach((name, i) => clocks.append(new Option(i === 0 ? 'none' : name, String(i))));
  clocks.value = String(o.clock || 0);
  $('new-side').value = o.human;
  for (const [i, id] of [[0, 'new-red'], [1, 'new-black']]) {
    const seat = $(id);
    seat.textContent = '';
    (o.seats || []).forEach((name, j) => seat.append(new Option(name, String(j))));
    seat.value = String((o.watch_seats || [6, 7])[i]);
  }
  document.querySelector(`input[name="mode"][value="${o.vs_engine ? 'engine' : 'humans'}"]`).checked = true;
  modeChanged();
  app.notation = o.notation;
  $('notation').value = o.notation;
  setCharacters(o.characters);
  $('characters').value = o.characters || 'traditional';
  app.animateChoice = o.animate ?? null;
  applyAnimate();
}

// Slides on unless the player said otherwise or, not having said, the
// browser asks for reduced motion.
const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');
function applyAnimate() {
  app.animate = app.animateChoice ?? !reducedMotion.matches;
  $('animate').checked = app.animate;
  if (!app.animate) motion.finish();
}
reducedMotion.addEventListener('change', applyAnimate);

// ---------------------------------------------------------------- actions

async function sendMove(from, to, carried = false) {
  app.selected = null;
  app.hint = null;
  app.carried = carried ? `${from}${to}` : null;
  const reply = await socket.send({ type: 'move', move: `${from}${to}` });
  if (reply.type === 'error') { app.carried = null; render(); }
}

function goTo(ply) {
  const s = app.state;
  if (!s) return;
  const n = Math.max(0, Math.min(ply, s.moves.length));
  const view = n === s.moves.length ? null : n;
  // The server's session follows the position shown (its analysis does).
  if (view !== app.view) socket.send({ type: 'show', ply: n });
  app.view = view;
  app.selected = null;
  statusOfState();
  render();
}

function step(delta) {
  const s = app.state;
  if (!s) return;
  goTo((app.view ?? s.moves.length) + delta);
}

function undo() { app.view = null; socket.send({ type: 'undo' }); }
function hint() { if (humanToMove()) socket.send({ type: 'hint' }); }
function moveNow() { socket.send({ type: 'stop' }); }
function flip() { app.flipped = !app.flipped; render(); }

function resign() {
  if (!app.state || app.state.over) return;
  if (app.confirm !== 'resign') {
    app.confirm = 'resign';
    setStatus('Resign? Press r (or the button) again to confirm.', 'warn');
    return;
  }
  app.confirm = null;
  socket.send({ type: 'resign' });
}

function draw() {
  const s = app.state;
  if (!s || s.over) return;
  if (s.mode === 'humans' && app.confirm !== 'draw') {
    app.confirm = 'draw';
    const other = s.turn === 'red' ? 'Black' : 'Red';
    setStatus(`${sideName(s.turn)} offers a draw. ${other}: press d (or the button) to accept; any move declines.`, 'info');
    return;
  }
  app.confirm = null;
  socket.send({ type: 'draw' });
}

function save() { if (app.state) socket.send({ type: 'save' }); }

function toggleAnalysis() {
  const s = app.state;
  if (!s) return;
  socket.send({ type: 'analysis', on: !s.analysis });
}

// Pauses or resumes the analysis, or the engines playing each other.
function pause() {
  const s = app.state;
  if (!s) return;
  if (s.analysis) socket.send({ type: 'analysis_pause', paused: !s.analysis.paused });
  else if (s.mode === 'engines' && !s.over) socket.send({ type: 'watch_pause', paused: !s.watch_paused });
}

function oneMove() {
  const s = app.state;
  if (s && s.mode === 'engines' && s.watch_paused && !s.over) socket.send({ type: 'watch_step' });
}

// Engines play on from the position shown (the players last chosen).
function watchFromHere() {
  const s = app.state;
  if (!s || s.mode === 'engines' || !app.options) return;
  const [red, black] = app.options.watch_seats || [6, 7];
  socket.send({ type: 'watch', ply: app.view ?? s.moves.length, red, black });
}

function openNewDialog() {
  const d = $('new-dialog');
  if (!d.open) d.showModal();
}

function startNew(fen) {
  const mode = document.querySelector('input[name="mode"]:checked').value;
  const request = { type: 'new', mode };
  if (mode === 'engine') { request.human = $('new-side').value; request.level = Number($('new-level').value); }
  if (mode === 'engines') { request.red = Number($('new-red').value); request.black = Number($('new-black').value); }
  request.clock = Number($('new-clock').value || 0);
  if (fen) request.fen = fen;
  app.view = null;
  return socket.send(request);
}

async function openExport(format = app.exportFormat) {
  if (!app.state) return;
  app.exportFormat = format;
  $('export-pgn').classList.toggle('active', format === 'pgn');
  $('export-fen').classList.toggle('active', format === 'fen');
  const reply = await socket.send({ type: 'export', format, notation: app.notation });
  if (reply.type !== 'exported') return;
  $('export-text').value = reply.text;
  $('export-text').dataset.filename = reply.filename;
  if (!$('export-dialog').open) $('export-dialog').showModal();
}

function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    setStatus('Copied.', 'info');
  } catch {
    $('export-text').select();
    setStatus('Select and copy the text (the clipboard is not available here).', 'info');
  }
}

async function doImport() {
  const text = $('import-text').value;
  if (!text.trim()) return;
  if ($('import-keep').checked) {
    if (await addCollection('pasted.pgn', { text }, importError)) { $('import-dialog').close(); openGames(); }
    return;
  }
  const reply = await socket.send({ type: 'import', text });
  if (reply.type === 'error') {
    importError(reply.message);
    return;
  }
  $('import-error').hidden = true;
  $('import-dialog').close();
  app.view = null;
}

function importError(message) {
  $('import-error').hidden = false;
  $('import-error').textContent = message;
}

// ---------------------------------------------------------------- games database

// The most a file may weigh to go in one message (64 KiB, base64 takes 4/3).
const MAX_TEXT_FILE = 60000;
const MAX_BINARY_FILE = 45000;
const DB_PAGE = 100;
const db = { entries: [], matched: 0, timer: null };

// A record file as the server takes it: UTF-8 PGN as text; XQF (binary),
// or text that is not UTF-8 (the server says where), as base64.
async function fileRecord(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const xqf = /\.xqf$/i.test(file.name) || (bytes[0] === 0x58 && bytes[1] === 0x51);
  const limit = xqf ? MAX_BINARY_FILE : MAX_TEXT_FILE;
  if (file.size > limit) return { error: `${file.name} is larger than ${limit} bytes: import it with "ludus xiangqi import".` };
  if (!xqf) {
    try {
      return { xqf, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
    } catch {
      if (file.size > MAX_BINARY_FILE) return { error: `${file.name} is not UTF-8 text.` };
    }
  }
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return { xqf, data: btoa(binary) };
}

// Keeps a record file in the database; says why not through `onError`.
async function addCollection(name, record, onError) {
  const request = { type: 'add_collection', name, text: record.text, data: record.data };
  // The server reads messages of at most 64 KiB; escapes in the text count too.
  if (new TextEncoder().encode(JSON.stringify(request)).length > 65000) {
    onError(`${name} is too large to send from the page: import it with "ludus xiangqi import".`);
    return null;
  }
  const reply = await socket.send(request);
  if (reply.type === 'error') { onError(reply.message); return null; }
  setStatus(`Kept ${reply.name} in the games database: ${reply.games} ${reply.games === 1 ? 'game' : 'games'}.`, 'info');
  return reply;
}

async function openGames() {
  $('db-error').hidden = true;
  if (!$('games-dialog').open) $('games-dialog').showModal();
  await searchDatabase();
  $('db-search').focus();
}

// Asks for the first page of what the search finds, or the next page (`more`).
async function searchDatabase(more = false) {
  const reply = await socket.send({
    type: 'database', search: $('db-search').value, result: $('db-result').value, sort: $('db-sort').value,
    offset: more ? db.entries.length : 0, limit: DB_PAGE,
  });
  if (reply.type === 'error') {
    $('db-error').hidden = false;
    $('db-error').textContent = reply.message;
    return;
  }
  $('db-error').hidden = true;
  db.entries = more ? db.entries.concat(reply.entries) : reply.entries;
  db.matched = reply.matched;
  $('db-count').textContent = `${reply.matched} of ${reply.total} ${reply.total === 1 ? 'game' : 'games'}`;
  const problems = $('db-problems');
  problems.hidden = !reply.problems.length;
  problems.textContent = reply.problems.map((p) => `${p.file} cannot be read: ${p.message}`).join('\n');
  renderDatabase(more ? reply.entries : db.entries, more);
  $('db-more').hidden = db.entries.length >= db.matched;
}

function renderDatabase(entries, append) {
  const rows = $('db-rows');
  if (!append) rows.textContent = '';
  for (const e of entries) {
    const tr = document.createElement('tr');
    tr.tabIndex = 0;
    tr.dataset.key = e.key;
    const opening = e.opening ? `${e.opening.code} ${e.opening.english}` : '—';
    const cells = [e.date || '—', e.red || '?', e.black || '?', e.result, opening, String(e.moves), e.source];
    for (const text of cells) {
      const td = document.createElement('td');
      td.textContent = text;
      td.title = text;
      tr.append(td);
    }
    if (e.event) tr.title = e.event;
    const open = async () => {
      const r = await socket.send({ type: 'open_entry', key: e.key });
      if (r.type === 'state') { $('games-dialog').close(); app.view = null; }
      else if (r.type === 'error') { $('db-error').hidden = false; $('db-error').textContent = r.message; }
    };
    tr.addEventListener('click', open);
    tr.addEventListener('keydown', (k) => { if (k.key === 'Enter') { k.preventDefault(); open(); } });
    rows.append(tr);
  }
}

// ---------------------------------------------------------------- board input

function pointerSquare(e) {
  if (!geo) return null;
  const rect = $('board').getBoundingClientRect();
  return geo.square(e.clientX - rect.left, e.clientY - rect.top);
}

function isTarget(from, to) {
  return !!app.state && app.state.legal.includes(`${from}${to}`);
}

function ownPiece(sq) {
  const s = app.state;
  const p = shown().cells.get(sq);
  return p && isRed(p) === (s.turn === 'red');
}

$('board').addEventListener('pointerdown', (e) => {
  if (e.button !== 0) return;
  motion.finish();
  const sq = pointerSquare(e);
  if (!sq) return;
  if (!humanToMove()) {
    if (app.view !== null) setStatus('An earlier position: End (or Live ▶) goes back to the game.', 'info');
    else if (app.state && !app.state.over) setStatus('Ludus is thinking; wait for its move (m: move now).', 'info');
    return;
  }
  app.confirm = null;
  if (app.selected && isTarget(app.selected, sq)) { sendMove(app.selected, sq); return; }
  if (ownPiece(sq)) {
    if (!app.state.legal.some((m) => m.startsWith(sq))) { setStatus('That piece has no legal move.', 'warn'); app.selected = null; render(); return; }
    app.selected = sq;
    const rect = $('board').getBoundingClientRect();
    app.drag = { from: sq, x: e.clientX - rect.left, y: e.clientY - rect.top, sx: e.clientX, sy: e.clientY, moved: false };
    $('board').setPointerCapture(e.pointerId);
  } else {
    if (app.selected) setStatus('The piece cannot go there.', 'warn');
    app.selected = null;
  }
  render();
});

$('board').addEventListener('pointermove', (e) => {
  if (!app.drag) return;
  const rect = $('board').getBoundingClientRect();
  app.drag.x = e.clientX - rect.left;
  app.drag.y = e.clientY - rect.top;
  if (Math.hypot(e.clientX - app.drag.sx, e.clientY - app.drag.sy) > 5) app.drag.moved = true;
  if (app.drag.moved) renderBoard();
});

function endDrag(e) {
  const drag = app.drag;
  app.drag = null;
  if (!drag) return;
  if (drag.moved) {
    const to = pointerSquare(e);
    if (to && isTarget(drag.from, to)) { sendMove(drag.from, to, true); return; }
  }
  renderBoard();
}
$('board').addEventListener('pointerup', endDrag);
$('board').addEventListener('pointercancel', () => { app.drag = null; renderBoard(); });
$('board').addEventListener('contextmenu', (e) => { e.preventDefault(); app.selected = null; renderBoard(); });

$('graph').addEventListener('click', (e) => {
  const s = app.state;
  if (!s) return;
  const rect = $('graph').getBoundingClientRect();
  const n = Math.max(s.moves.length, 10);
  goTo(Math.round(((e.clientX - rect.left - 4) / (rect.width - 8)) * n));
});

// ---------------------------------------------------------------- editor

const PALETTE = ['K', 'A', 'B', 'N', 'R', 'C', 'P', 'k', 'a', 'b', 'n', 'r', 'c', 'p', 'x'];

function showEditor(on) {
  $('view-editor').hidden = !on;
  $('view-play').hidden = on;
  if (on) {
    const pos = shown();
    app.editor.cells = new Map(pos.cells);
    app.editor.turn = pos.turn;
    $('ed-turn').value = pos.turn;
    editorChanged();
  } else render();
}

function editorFen() { return `${boardFen(app.editor.cells)} ${app.editor.turn}`; }

async function editorChanged() {
  const fen = editorFen();
  $('ed-fen').value = fen;
  renderEditor();
  const reply = await socket.send({ type: 'validate', fen });
  if (reply.type !== 'validation' || editorFen() !== fen) return;
  const ok = reply.ok && !reply.mate;
  $('editor-message').textContent = (reply.ok ? (reply.mate ? 'Legal, but the side to move has no legal move.' : 'A legal position: ready to play.') : reply.message)
    + (reply.ok && reply.tablebase ? ` ${reply.tablebase}.` : '');
  app.editor.marked = reply.ok ? [] : reply.squares || [];
  renderEditor();
  $('editor-message').className = `message ${ok ? 'info' : 'warn'}`;
  $('ed-humans').disabled = !ok;
  $('ed-engine').disabled = !ok;
}

function renderEditor() {
  const wrap = $('editor-wrap');
  const [g, geometry] = fitBoard($('editor-board'), wrap.clientWidth, wrap.clientHeight, false);
  app.editor.geo = geometry;
  // The first square an error names is marked as a check is.
  drawBoard(g, geometry, { cells: app.editor.cells, check: (app.editor.marked || [])[0] });
  for (const b of $('palette').children) b.classList.toggle('active', b.dataset.piece === app.editor.tool);
}

function buildPalette() {
  for (const p of PALETTE) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.piece = p;
    b.title = p === 'x' ? 'Remove' : `${isRed(p) ? 'Red' : 'Black'} ${CHARS[p]}`;
    if (p === 'x') b.textContent = '✕';
    else {
      const c = document.createElement('canvas');
      c.width = 52; c.height = 52;
      const g = c.getContext('2d');
      g.scale(2, 2);
      drawPiece(g, 13, 13, 28, p);
      b.append(c);
    }
    b.addEventListener('click', () => { app.editor.tool = p; renderEditor(); });
    $('palette').append(b);
  }
}

$('editor-board').addEventListener('pointerdown', (e) => {
  const geo = app.editor.geo;
  if (!geo) return;
  const rect = $('editor-board').getBoundingClientRect();
  const sq = geo.square(e.clientX - rect.left, e.clientY - rect.top);
  if (!sq) return;
  const cells = app.editor.cells;
  if (e.button === 2 || app.editor.tool === 'x' || cells.get(sq) === app.editor.tool) cells.delete(sq);
  else {
    // One general per side: placing it moves it.
    if (app.editor.tool.toLowerCase() === 'k') for (const [s2, p] of cells) if (p === app.editor.tool) cells.delete(s2);
    cells.set(sq, app.editor.tool);
  }
  editorChanged();
});
$('editor-board').addEventListener('contextmenu', (e) => e.preventDefault());
$('ed-turn').addEventListener('change', () => { app.editor.turn = $('ed-turn').value; editorChanged(); });
$('ed-fen').addEventListener('change', async () => {
  // A FEN that cannot be read stays as typed, with the reason; only a
  // position the server reads replaces the board.
  const typed = $('ed-fen').value;
  const reply = await socket.send({ type: 'validate', fen: typed });
  if (reply.type !== 'validation') return;
  if (!reply.ok && !reply.readable) {
    $('editor-message').textContent = reply.message;
    $('editor-message').className = 'message warn';
    $('ed-humans').disabled = true;
    $('ed-engine').disabled = true;
    return;
  }
  const pos = parseFen(typed);
  app.editor.cells = pos.cells;
  app.editor.turn = pos.turn;
  $('ed-turn').value = pos.turn;
  editorChanged();
});
$('ed-start').addEventListener('click', () => { const p = parseFen(START_FEN); app.editor.cells = p.cells; app.editor.turn = 'w'; $('ed-turn').value = 'w'; editorChanged(); });
// The generals on different files: facing each other is not a legal position.
$('ed-clear').addEventListener('click', () => { app.editor.cells = new Map([['e0', 'K'], ['f9', 'k']]); editorChanged(); });
$('ed-cancel').addEventListener('click', () => showEditor(false));
async function playFromEditor(mode) {
  document.querySelector(`input[name="mode"][value="${mode}"]`).checked = true;
  const reply = await startNew(editorFen());
  if (reply.type === 'state') showEditor(false);
  else $('editor-message').textContent = reply.message;
}
$('ed-humans').addEventListener('click', () => playFromEditor('humans'));
$('ed-engine').addEventListener('click', () => playFromEditor('engine'));

// ---------------------------------------------------------------- wiring

$('nav-new').addEventListener('click', openNewDialog);
$('nav-games').addEventListener('click', openGames);
$('nav-import').addEventListener('click', () => { $('import-error').hidden = true; $('import-dialog').showModal(); });
$('nav-editor').addEventListener('click', () => showEditor(true));
$('new-ok').addEventListener('click', async () => { $('new-dialog').close(); showEditor(false); await startNew(); });
$('new-cancel').addEventListener('click', () => $('new-dialog').close());
// The new-game dialog shows the choices of the chosen opponent only.
function modeChanged() {
  const mode = document.querySelector('input[name="mode"]:checked').value;
  for (const id of ['new-side', 'new-level']) {
    $(id).disabled = mode !== 'engine';
    $(id).parentElement.hidden = mode === 'engines';
  }
  for (const id of ['new-red', 'new-black']) $(id).parentElement.hidden = mode !== 'engines';
}
for (const input of document.querySelectorAll('input[name="mode"]')) input.addEventListener('change', modeChanged);
$('b-analysis').addEventListener('click', toggleAnalysis);
$('b-pause').addEventListener('click', pause);
$('b-step').addEventListener('click', oneMove);
$('b-watch').addEventListener('click', watchFromHere);
$('import-ok').addEventListener('click', doImport);
$('import-cancel').addEventListener('click', () => $('import-dialog').close());
$('import-file').addEventListener('change', async () => {
  const file = $('import-file').files[0];
  if (!file) return;
  $('import-file').value = '';
  const record = await fileRecord(file);
  if (record.error) { importError(record.error); return; }
  // XQF is binary, and a file to keep may hold many games: both go to the database.
  if (record.data || $('import-keep').checked) {
    const kept = await addCollection(file.name, record, importError);
    if (!kept) return;
    $('import-dialog').close();
    if (kept.games > 1) { openGames(); return; }
    await socket.send({ type: 'open_entry', key: `collection/${kept.name}/0` });
    app.view = null;
    return;
  }
  $('import-text').value = record.text;
  doImport();
});
$('export-pgn').addEventListener('click', () => openExport('pgn'));
$('export-fen').addEventListener('click', () => openExport('fen'));
$('export-download').addEventListener('click', () => download($('export-text').dataset.filename || 'xiangqi.txt', $('export-text').value));
$('export-copy').addEventListener('click', () => copy($('export-text').value));
$('export-close').addEventListener('click', () => $('export-dialog').close());
$('games-close').addEventListener('click', () => $('games-dialog').close());
$('db-search').addEventListener('input', () => {
  clearTimeout(db.timer);
  db.timer = setTimeout(() => searchDatabase(), 200);
});
$('db-search').addEventListener('keydown', (e) => {
  if (e.key === 'Enter') { e.preventDefault(); clearTimeout(db.timer); searchDatabase(); }
});
$('db-result').addEventListener('change', () => searchDatabase());
$('db-sort').addEventListener('change', () => searchDatabase());
$('db-more').addEventListener('click', () => searchDatabase(true));
$('db-file').addEventListener('change', async () => {
  const file = $('db-file').files[0];
  if (!file) return;
  $('db-file').value = '';
  const showError = (message) => { $('db-error').hidden = false; $('db-error').textContent = message; };
  const record = await fileRecord(file);
  if (record.error) { showError(record.error); return; }
  if (await addCollection(file.name, record, showError)) {
    $('db-search').value = '';
    await searchDatabase();
    $('db-count').textContent += ` · kept ${file.name}`;
  }
});
$('over-new').addEventListener('click', () => { $('over-dialog').close(); openNewDialog(); });
$('over-save').addEventListener('click', () => { $('over-dialog').close(); save(); });
$('over-close').addEventListener('click', () => $('over-dialog').close());
$('b-undo').addEventListener('click', undo);
$('b-hint').addEventListener('click', hint);
$('b-stop').addEventListener('click', moveNow);
$('b-flip').addEventListener('click', flip);
$('b-draw').addEventListener('click', draw);
$('b-resign').addEventListener('click', resign);
$('b-save').addEventListener('click', save);
$('b-export').addEventListener('click', () => openExport());
$('b-live').addEventListener('click', () => goTo(Infinity));
$('characters').addEventListener('change', () => {
  setCharacters($('characters').value);
  socket.send({ type: 'characters', characters: $('characters').value });
  renderBoard();
});
$('animate').addEventListener('change', () => {
  app.animateChoice = $('animate').checked;
  applyAnimate();
  socket.send({ type: 'animate', animate: app.animateChoice });
});
$('notation').addEventListener('change', () => {
  app.notation = $('notation').value;
  socket.send({ type: 'notation', notation: app.notation });
  renderMoves();
  renderThinking();
});

for (const [k, what, wide] of KEYS) {
  const item = document.createElement('div');
  item.className = `xq-key${wide ? ' wide' : ''}`;
  const keys = document.createElement('span');
  for (const part of k.split('  ')) {
    keys.append(Object.assign(document.createElement('kbd'), { textContent: part }), ' ');
  }
  item.append(keys, Object.assign(document.createElement('span'), { textContent: what }));
  $('keys').append(item);
}
// The keys stay open unless the player folded them away.
$('keys-box').open = localStorage.getItem(KEYS_OPEN) !== 'closed';
$('keys-box').addEventListener('toggle', () => {
  localStorage.setItem(KEYS_OPEN, $('keys-box').open ? 'open' : 'closed');
  render();
});
buildPalette();

// Draws whichever view is showing: the game or the position editor.
function renderView() {
  if (!$('view-play').hidden) render(); else renderEditor();
}
// The canvases drew with a fallback face until the shipped ones arrived.
fontsReady.then(() => {
  $('palette').replaceChildren();
  buildPalette();
  renderView();
});

document.addEventListener('keydown', (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (document.querySelector('dialog[open]')) {
    if (e.key === 'Enter' && $('new-dialog').open && e.target.tagName !== 'SELECT') { e.preventDefault(); $('new-ok').click(); }
    return;
  }
  if (['INPUT', 'TEXTAREA', 'SELECT'].includes(e.target.tagName)) return;
  if (!$('view-editor').hidden) { if (e.key === 'Escape') showEditor(false); return; }
  const actions = {
    n: openNewDialog, u: undo, Backspace: undo, h: hint, m: moveNow, f: flip, d: draw, r: resign,
    s: save, x: () => openExport(), i: () => $('nav-import').click(), l: openGames, e: () => showEditor(true),
    a: toggleAnalysis, p: pause, o: oneMove, w: watchFromHere,
    ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: () => goTo(0), End: () => goTo(Infinity),
    Escape: () => { app.selected = null; app.drag = null; renderBoard(); },
  };
  const action = actions[e.key];
  if (!action) return;
  e.preventDefault();
  if (e.key !== 'r' && e.key !== 'd') app.confirm = null;
  action();
});

new ResizeObserver(renderView).observe(document.querySelector('main'));
render();
