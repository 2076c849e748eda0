// The Sokoban page: level browser, play view and editor over one game
// WebSocket. The server holds the game; this page draws what it says, maps
// keys and clicks to requests, and animates paths one step at a time.

import { GameSocket } from './net.js';
import { scaledContext } from './canvas.js';
import { drawBoard, drawGoalHint, drawThumb } from './sprites.js';
import { Editor } from './editor.js';
import { sound } from './sound.js';
import { playing, stateSounds } from './sokoban-sound.js';
import { useSkin, currentSkin, skinEnabled, setSkinEnabled } from './skin.js';

const $ = (id) => document.getElementById(id);

// The same keys as the terminal UI (README, `tui/sokoban/play.rs`).
export const KEYS = [
  ['← ↑ → ↓  W A S D  h j k l', 'move / push'],
  ['u  z  Backspace', 'undo (right click too)'],
  ['y  Ctrl-R', 'redo'],
  ['r', 'restart (undoable)'],
  ['n  p', 'next / previous level'],
  ['H', 'hint: the solver makes the next push'],
  ['A', 'solve and show'],
  ['g', "goals: a line from each box to the goal the solver's bound gives it"],
  ['v  V', 'replay your best by moves / by pushes'],
  ['S  L', 'save / load a snapshot'],
  ['Esc', 'stop an animation, a replay; back to the levels'],
  ['?', 'this help'],
];

const DIRS = {
  ArrowLeft: 'left', ArrowUp: 'up', ArrowRight: 'right', ArrowDown: 'down',
  a: 'left', w: 'up', d: 'right', s: 'down', h: 'left', k: 'up', l: 'right', j: 'down',
};
const DELTA = { left: [-1, 0], up: [0, -1], right: [1, 0], down: [0, 1] };

const page = {
  state: null,          // the last `state` from the server
  collections: [],     // the summaries of `/api/sokoban/collections`
  collection: 0,
  levels: null,         // the chosen collection's levels, as fetched
  queue: [],            // steps still to animate: {dir, bySolver}
  animating: false,
  fast: false,          // finish the animation at once
  selected: null,       // a box picked with a click
  drag: null,
  hover: null,
  replay: null,
  clock: { ms: 0, at: 0, running: false }, // the server's level clock, as of `at`
  fromEditor: false,
};

const socket = new GameSocket('/ws/sokoban', {
  onMessage: (msg) => onMessage(msg),
  onOpen: () => resume(),
  onStatus: (s) => { $('conn').textContent = s === 'open' ? '' : 'reconnecting…'; },
});

const editor = new Editor({
  socket,
  onPlayTest: (text, title) => playTest(text, title),
  message: (text, kind) => setMessage($('editor-message'), text, kind),
});

// ---------- views ----------

function show(view) {
  for (const v of ['levels', 'play', 'editor']) $(`view-${v}`).hidden = v !== view;
  for (const v of ['levels', 'play', 'editor']) $(`nav-${v}`).classList.toggle('active', v === view);
  page.view = view;
  playing(view === 'play');
  window.scrollTo(0, 0);
  if (view === 'levels') loadCollections();
  if (view === 'play') requestAnimationFrame(render);
  if (view === 'editor') editor.shown();
  if (location.hash !== `#${view}`) history.replaceState(null, '', `#${view}`);
}

$('nav-levels').onclick = () => show('levels');
$('nav-play').onclick = () => show('play');
$('nav-editor').onclick = () => show('editor');

// ---------- level browser ----------
// The list of collections is light (a summary each); the levels of the
// chosen collection are fetched when it is chosen, and their previews are
// drawn as they scroll into view.

async function loadCollections() {
  let data;
  try {
    const response = await fetch('/api/sokoban/collections');
    data = await response.json();
  } catch (e) {
    $('collection-info').textContent = `cannot list levels: ${e}`;
    return;
  }
  page.collections = data.collections;
  // Level files that could not be read, data files moved aside: said once, here.
  page.problems = data.problems || [];
  const chosen = page.collectionChosen ? page.collection : (data.last ? data.last.collection : 0);
  page.collection = Math.max(0, Math.min(chosen, data.collections.length - 1));
  renderShelves();
  await loadLevels(page.collection);
}

// Fetches the levels of collection `index`; a later choice wins over an
// answer still on its way.
async function loadLevels(index) {
  const asked = (page.levelsAsked = (page.levelsAsked || 0) + 1);
  let data;
  try {
    const response = await fetch(`/api/sokoban/collections/${index}`);
    data = await response.json();
    if (!response.ok) throw new Error(data.error || response.status);
  } catch (e) {
    if (asked === page.levelsAsked) $('collection-info').textContent = `cannot list the levels: ${e.message || e}`;
    return;
  }
  if (asked !== page.levelsAsked) return;
  page.levels = data;
  page.levelProblems = data.problems || [];
  renderLevels();
}

function chooseCollection(index) {
  page.collection = index;
  page.collectionChosen = true;
  renderShelves();
  loadLevels(index);
}

const filterText = () => $('filter').value.trim().toLowerCase();
const showing = () => $('show').value;
// A collection matches by its title or its author's name.
const nameMatches = (c, text) => !text || [c.name, c.author || '', c.group].some((t) => t.toLowerCase().includes(text));

// Whether a collection is listed under the filter: a title that matches
// (when any collection's does), and something solved or unsolved to show.
function collectionShown(c, text, anyName) {
  if (c.index === page.collection) return true;
  if (anyName && !nameMatches(c, text)) return false;
  if (showing() === 'unsolved') return c.solved < c.levels;
  if (showing() === 'solved') return c.solved > 0;
  return true;
}

// The collections grouped by author (or Map packs, Your levels), each
// with its count solved.
function renderShelves() {
  const nav = $('shelves');
  const focused = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.collection : undefined;
  nav.innerHTML = '';
  const text = filterText();
  const anyName = !!text && page.collections.some((c) => nameMatches(c, text));
  let group = null;
  for (const c of page.collections) {
    if (!collectionShown(c, text, anyName)) continue;
    if (c.group !== group) {
      group = c.group;
      const h = document.createElement('h2');
      h.textContent = group;
      nav.append(h);
    }
    const item = document.createElement('button');
    item.type = 'button';
    item.className = 'shelf-item' + (c.levels > 0 && c.solved === c.levels ? ' done' : '');
    item.dataset.collection = c.index;
    if (c.index === page.collection) item.setAttribute('aria-current', 'true');
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = c.name;
    const count = document.createElement('span');
    count.className = 'count';
    count.textContent = `${c.solved}/${c.levels}`;
    count.title = `${c.solved} of ${c.levels} solved`;
    item.append(name, count);
    item.title = c.origin === 'built in' ? c.name : `${c.name} (${c.origin})`;
    item.onclick = () => chooseCollection(c.index);
    nav.append(item);
  }
  if (focused !== undefined) {
    const again = nav.querySelector(`[data-collection="${focused}"]`);
    if (again) again.focus();
  }
  // The chosen collection is in sight, however far down the list it is.
  const current = nav.querySelector('[aria-current="true"]');
  if (current) {
    const top = current.offsetTop - nav.offsetTop;
    if (top < nav.scrollTop || top + current.offsetHeight > nav.scrollTop + nav.clientHeight) {
      nav.scrollTop = top - nav.clientHeight / 3;
    }
  }
}

// Up and down move between collections, as in a list.
$('shelves').addEventListener('keydown', (e) => {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
  const items = [...$('shelves').querySelectorAll('.shelf-item')];
  const at = items.indexOf(document.activeElement);
  const next = items[at + (e.key === 'ArrowDown' ? 1 : -1)];
  if (next) { e.preventDefault(); next.focus(); next.click(); }
});

// What a card says of the level's par and difficulty: "par 32 · Medium".
function ratingText(level) {
  const parts = [];
  if (level.par) parts.push(level.par.proven ? `par ${level.par.pushes}` : `par ${level.par.pushes} (best found)`);
  if (level.difficulty) parts.push(level.difficulty);
  return parts.join(' · ');
}

function levelShown(level, text, setMatches) {
  if (showing() === 'solved' && !level.solved) return false;
  if (showing() === 'unsolved' && (level.solved || level.error)) return false;
  if (!text || setMatches) return true;
  // Only real titles match, as in the terminal (an untitled level is named by its size).
  return !level.error && level.name === level.title && level.title.toLowerCase().includes(text);
}

// Previews are drawn when their card comes into view.
const previews = new IntersectionObserver((entries) => {
  for (const entry of entries) {
    if (!entry.isIntersecting) continue;
    const canvas = entry.target;
    previews.unobserve(canvas);
    if (canvas.dataset.xsb) drawThumb(canvas, canvas.dataset.xsb);
  }
}, { rootMargin: '200px' });

function renderLevels() {
  const data = page.levels;
  const list = $('levels');
  previews.disconnect();
  list.innerHTML = '';
  const set = page.collections[page.collection];
  if (!data || !set || data.collection.index !== page.collection) return;
  const summary = data.collection;
  $('collection-name').textContent = summary.name;
  $('collection-author').textContent = summary.author ? `by ${summary.author}` : summary.origin;
  const info = [`${summary.solved} of ${summary.levels} solved`];
  if (summary.updated) info.push(`${summary.updated} updated`);
  $('collection-info').textContent = [...info, ...(page.problems || []), ...(page.levelProblems || [])].join(' · ');
  $('collection-credit').textContent = summary.credit || '';
  $('first-unsolved').disabled = summary.first_unsolved == null;
  const text = filterText();
  const setMatches = nameMatches(summary, text) && !!text;
  let shown = 0;
  for (const level of data.levels) {
    if (!levelShown(level, text, setMatches)) continue;
    shown += 1;
    const card = document.createElement('button');
    card.type = 'button';
    card.className = 'level-card' + (level.solved ? ' solved' : '') + (level.error ? ' broken' : '') + (level.updated ? ' updated' : '');
    card.dataset.level = level.index;
    const canvas = document.createElement('canvas');
    const name = document.createElement('span');
    name.className = 'name';
    // The server names a level as the terminal does (its title, or its size for an untitled one).
    name.textContent = level.error ? `#${level.index + 1} (cannot be read)` : `${level.index + 1}. ${level.name}`;
    name.title = name.textContent;
    const meta = document.createElement('span');
    meta.className = 'meta';
    if (level.error) meta.textContent = level.error;
    else if (level.solved) {
      const m = level.best_moves, p = level.best_pushes;
      meta.innerHTML = '<span class="done">✓ solved</span>';
      if (m) meta.append(` best ${m.moves}m/${m.pushes}p` + (p && (p.pushes !== m.pushes) ? ` · ${p.moves}m/${p.pushes}p` : ''));
    } else meta.textContent = 'not solved yet';
    card.append(canvas, name, meta);
    const rating = !level.error && ratingText(level);
    if (rating) {
      const r = document.createElement('span');
      r.className = 'rating';
      r.textContent = rating;
      card.append(r);
    }
    if (level.updated) {
      const u = document.createElement('span');
      u.className = 'updated';
      u.textContent = `⟳ updated: ${data.level_updated}`;
      card.title = data.level_updated;
      card.append(u);
    }
    if (!level.error) {
      card.onclick = () => openLevel(page.collection, level.index);
      canvas.dataset.xsb = level.xsb;
      previews.observe(canvas);
    }
    list.append(card);
  }
  $('levels-empty').hidden = shown > 0 || data.levels.length === 0;
}

// Scrolls to the collection's first unsolved level and puts the focus on
// it (Enter plays it), clearing a filter that hides it.
function firstUnsolved() {
  const data = page.levels;
  const at = data && data.collection.first_unsolved;
  if (at == null) return;
  let card = $('levels').querySelector(`.level-card[data-level="${at}"]`);
  if (!card) {
    $('filter').value = '';
    $('show').value = 'all';
    renderShelves();
    renderLevels();
    card = $('levels').querySelector(`.level-card[data-level="${at}"]`);
  }
  if (!card) return;
  for (const c of $('levels').querySelectorAll('.target')) c.classList.remove('target');
  card.classList.add('target');
  card.scrollIntoView({ block: 'center' });
  card.focus();
}

// Arrow keys move between the level cards, row by row; Enter plays.
$('levels').addEventListener('keydown', (e) => {
  const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: 'up', ArrowDown: 'down' }[e.key];
  if (!step) return;
  const cards = [...$('levels').querySelectorAll('.level-card')];
  const at = cards.indexOf(document.activeElement);
  if (at < 0) return;
  const columns = getComputedStyle($('levels')).gridTemplateColumns.split(' ').length || 1;
  const next = cards[at + (step === 'up' ? -columns : step === 'down' ? columns : step)];
  if (next) { e.preventDefault(); next.focus(); }
});

$('first-unsolved').onclick = () => firstUnsolved();
$('filter').oninput = () => { renderShelves(); renderLevels(); };
$('show').onchange = () => { renderShelves(); renderLevels(); };

// The browser's keys: / filters, f jumps to the first unsolved level.
document.addEventListener('keydown', (e) => {
  if (page.view !== 'levels' || e.altKey || e.metaKey || e.ctrlKey) return;
  if (document.querySelector('dialog[open]')) return;
  const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement
    || e.target instanceof HTMLSelectElement;
  if (e.key === 'Escape' && e.target === $('filter')) {
    $('filter').value = '';
    $('filter').dispatchEvent(new Event('input'));
    return;
  }
  if (typing) return;
  if (e.key === '/') { e.preventDefault(); $('filter').focus(); }
  else if (e.key === 'f') { e.preventDefault(); firstUnsolved(); }
});

$('upload').onchange = async (e) => {
  const file = e.target.files[0];
  e.target.value = '';
  if (!file) return;
  clearAlert();
  if (/\.zip$/i.test(file.name)) { installPack(file); return; }
  const text = await file.text();
  const reply = await socket.send({ type: 'upload', text, name: file.name });
  if (reply.type === 'error') alertMessage(`${file.name}: ${reply.message}`);
  else show('play');
};

// A map pack: sent to the server, installed, then its first level opened.
async function installPack(file) {
  let answer;
  try {
    const response = await fetch(`/api/sokoban/packs?name=${encodeURIComponent(file.name)}`, { method: 'POST', body: file });
    answer = await response.json();
  } catch (e) {
    answer = { error: String(e) };
  }
  if (answer.error) { alertMessage(`${file.name}: ${answer.error}`); return; }
  page.collection = answer.collection;
  page.collectionChosen = true;
  await loadCollections();
  if (answer.collection != null) openLevel(answer.collection, 0);
}

$('skin-on').checked = skinEnabled();
$('skin-on').onchange = (e) => { setSkinEnabled(e.target.checked); render(); };

async function openLevel(collection, level) {
  page.fromEditor = false;
  clearAlert();
  const reply = await socket.send({ type: 'open', collection, level });
  if (reply.type === 'error') { alertMessage(reply.message); return; }
  show('play');
}

async function playTest(text, title) {
  // Set before the reply: its state is drawn as it arrives, back button included.
  page.fromEditor = true;
  const reply = await socket.send({ type: 'upload', text, name: `${title || 'play-test'}.sok`, play_test: true });
  if (reply.type === 'error') { page.fromEditor = false; return reply; }
  show('play');
  return reply;
}

// A refusal the player must see: on the play view's message line, and on
// the level list in a red box that stays until dismissed or the next try.
function alertMessage(text) {
  setMessage($('message'), text, 'warn');
  $('levels-alert-text').textContent = text;
  $('levels-alert').hidden = false;
}

function clearAlert() {
  $('levels-alert').hidden = true;
}

$('levels-alert-close').onclick = clearAlert;

// ---------- the game connection ----------

async function resume() {
  const session = sessionStorage.getItem('ludus.sokoban.session');
  if (!session) return;
  const reply = await socket.sendNow({ type: 'resume', session });
  if (reply.type === 'error') {
    // The server restarted or forgot the game: back to the level list, saying why.
    sessionStorage.removeItem('ludus.sokoban.session');
    // Nothing to go back to: Play waits for the next level opened.
    $('nav-play').disabled = true;
    if (page.view === 'play') {
      page.state = null;
      show('levels');
      alertMessage('The server no longer has the game you were playing (it was restarted, or the game was left too long): open the level again.');
    }
  }
}

function onMessage(msg) {
  if (['solution', 'unsolvable', 'notice'].includes(msg.type)) page.thinking = false;
  switch (msg.type) {
    case 'state': onState(msg); break;
    case 'solved': onSolved(msg); break;
    case 'path': enqueue(msg.steps); break;
    case 'solution':
      setMessage($('message'), msg.text, 'info');
      // The hint's push is the player's to take; the whole solution is the solver's.
      enqueue(msg.steps, msg.purpose !== 'hint');
      break;
    case 'unsolvable':
      setMessage($('message'), msg.message, 'warn');
      $('b-rewind').hidden = false;
      break;
    case 'thinking':
      // The server says what the solver is doing, in the terminal's words.
      if (msg.purpose === 'check') editor.thinking(msg.doing);
      else {
        page.thinking = msg.doing;
        setMessage($('message'), `${msg.doing}… (Esc stops)`, 'info');
      }
      break;
    case 'solver_progress':
      if (page.view === 'editor') editor.progress(msg.text);
      else if (page.thinking) setMessage($('message'), `${page.thinking}… ${msg.text} (Esc stops)`, 'info');
      break;
    case 'notice': setMessage($('message'), msg.message, 'info'); break;
    case 'replay': startReplay(msg); break;
    case 'error':
      if (msg.code === 'blocked' || msg.code === 'closed') {
        page.queue = [];
        if (msg.code === 'blocked' && !page.animating) setMessage($('message'), msg.message, 'info');
      } else if (page.view === 'editor') {
        setMessage($('editor-message'), msg.message, 'warn');
      } else {
        setMessage($('message'), msg.message, 'warn');
      }
      break;
    default:
      editor.onMessage(msg);
  }
}

function onState(state) {
  const previous = page.state;
  page.state = state;
  sessionStorage.setItem('ludus.sokoban.session', state.session);
  $('nav-play').disabled = false;
  if (!previous || previous.key !== state.key || previous.session !== state.session) {
    page.selected = null;
    page.queue = [];
    stopReplay();
    $('solved-dialog').open && $('solved-dialog').close();
    setMessage($('message'), state.solved_before ? 'You have solved this level before; try to beat your best.' : '', 'muted');
  }
  // The server keeps the time (a reload goes on from it); the page counts on while it runs.
  useSkin(state.skin, () => render());
  page.clock = { ms: state.elapsed_ms || 0, at: performance.now(), running: !!state.clock_running };
  // A move or an undo drops the solver's run.
  if (!state.thinking) page.thinking = false;
  stateSounds(previous, state);
  startSlide(previous, state);
  if (state.blocked && !page.animating) sound('bump');
  updatePanel();
  render();
}

function updatePanel() {
  const s = page.state;
  if (!s) return;
  if (!page.thinking) $('b-rewind').hidden = true;
  $('title').textContent = s.heading;
  $('set-name').textContent = s.set;
  $('moves').textContent = s.moves;
  $('pushes').textContent = s.pushes;
  $('boxes').textContent = `${s.boxes_on_goals}/${s.box_count}`;
  const best = s.best && s.best.moves;
  $('best-wrap').hidden = !best;
  if (best) $('best').textContent = `${best.moves}m/${best.pushes}p`;
  // The level's par ("best found" when not proven) and difficulty, when known.
  $('par-wrap').hidden = !s.par && !s.difficulty;
  $('par-label').textContent = s.par ? (s.par.proven ? 'par' : 'par (best found)') : 'difficulty';
  $('par').textContent = [s.par && `${s.par.pushes}`, s.difficulty].filter(Boolean).join(' · ');
  $('b-undo').disabled = !s.can_undo;
  $('b-redo').disabled = !s.can_redo;
  $('b-prev').disabled = s.level === 0;
  $('b-next').disabled = s.level + 1 >= s.count;
  $('b-back-editor').hidden = !page.fromEditor;
  if (!$('b-rewind').hidden) return; // keep the "cannot be solved" line
  if (s.deadlock && !page.replay) setMessage($('message'), `${s.deadlock.message} Undo with u.`, 'warn');
  else if ($('message').classList.contains('warn') && !s.deadlock) setMessage($('message'), '', 'muted');
  $('b-goals').setAttribute('aria-pressed', String(!!s.goals));
  if (s.goals && !s.deadlock) setMessage($('message'), s.goals.message, 'info');
  else if (!s.goals && $('message').dataset.goals) setMessage($('message'), '', 'muted');
  $('message').dataset.goals = s.goals && !s.deadlock ? '1' : '';
}

function setMessage(el, text, kind = 'muted') {
  el.textContent = text || '';
  el.className = `message ${text ? kind : ''}`;
}

function onSolved(msg) {
  sound('solved');
  const records = [];
  if (msg.assisted) records.push('The solver made these moves, so they are not counted as yours.');
  else if (msg.play_test) records.push('A play-test: your progress is not recorded.');
  else if (msg.first_solve) records.push('First solve of this level!');
  else {
    if (msg.moves_record) records.push('New best by moves!');
    if (msg.pushes_record) records.push('New best by pushes!');
  }
  if (msg.all_solved) records.push(`You have solved every level of ${page.state.set}!`);
  for (const p of msg.problems || []) records.push(p);
  $('solved-title').textContent = msg.assisted ? 'Solved by the solver' : 'Solved!';
  $('solved-stats').textContent = `Moves ${msg.moves} · pushes ${msg.pushes} · time ${clockText()}`;
  // "par 32 pushes, you 35", when the level has a par.
  const par = msg.against_par || '';
  $('solved-par').textContent = par && par[0].toUpperCase() + par.slice(1);
  $('solved-par').hidden = !par;
  $('solved-records').textContent = records.join(' ') || 'Your best stays as it was.';
  $('solved-records').className = msg.assisted ? 'muted' : 'record';
  page.nextLevel = msg.next;
  $('solved-next').disabled = msg.next == null;
  page.queue = [];
  // Let the last push be seen before the dialog covers the board.
  setTimeout(() => { if (page.state && page.state.solved && !$('solved-dialog').open) $('solved-dialog').showModal(); }, 250);
}

$('solved-next').onclick = () => { $('solved-dialog').close(); socket.send({ type: 'goto', level: page.nextLevel }); };
$('solved-replay').onclick = () => { $('solved-dialog').close(); socket.send({ type: 'replay' }); };
$('solved-again').onclick = () => { $('solved-dialog').close(); socket.send({ type: 'restart' }); };
$('solved-levels').onclick = () => { $('solved-dialog').close(); show('levels'); };
$('solved-dialog').addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !$('solved-next').disabled) { e.preventDefault(); $('solved-next').click(); }
  // Handled here only: once the dialog closes, the page's own handler would undo again.
  if (e.key === 'u' || e.key === 'z' || e.key === 'Backspace') { e.preventDefault(); e.stopPropagation(); $('solved-dialog').close(); act('undo'); }
});

// ---------- animation ----------

function enqueue(steps, bySolver = false) {
  if (!steps || !steps.length) return;
  page.queue.push(...steps.map((dir) => ({ dir, bySolver })));
  if (!page.animating) animate();
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function animate() {
  page.animating = true;
  page.fast = false;
  page.stopShow = false;
  while (page.queue.length) {
    const { dir, bySolver } = page.queue.shift();
    const reply = await socket.send(bySolver ? { type: 'move', dir, by_solver: true } : { type: 'move', dir });
    if (reply.type !== 'state' || reply.blocked || reply.solved) { page.queue = []; break; }
    if (!page.fast) await sleep(page.state ? Math.max(30, page.state.animation_ms) : 60);
  }
  // Esc during "solve and show": the server takes the solver's moves back
  // and says so, as in the terminal (a hint's push stays).
  if (page.stopShow) await socket.send({ type: 'cancel' });
  page.animating = false;
}

// ---------- replay (drawn here, from the level's start; the game is untouched) ----------

function startReplay(msg) {
  const steps = [...msg.lurd].map((c) => ({ l: 'left', u: 'up', r: 'right', d: 'down' })[c.toLowerCase()]).filter(Boolean);
  page.queue = [];
  page.replay = {
    label: msg.label, steps, position: 0, paused: false, stepMs: 120,
    view: { ...msg.start, width: page.state.width, height: page.state.height, map: page.state.map, facing: 'down' },
    history: [],
  };
  $('replay-bar').hidden = false;
  replayTick();
}

function replayForward() {
  const r = page.replay;
  if (!r || r.position >= r.steps.length) return false;
  const dir = r.steps[r.position];
  const [dx, dy] = DELTA[dir];
  const w = r.view.width;
  const p = r.view.player;
  const next = p + dx + dy * w;
  const boxes = r.view.boxes.slice();
  const i = boxes.indexOf(next);
  r.history.push({ player: p, boxes: r.view.boxes, facing: r.view.facing });
  if (i >= 0) boxes[i] = next + dx + dy * w;
  r.view = { ...r.view, player: next, boxes, facing: dir };
  r.position++;
  return true;
}

function replayBack() {
  const r = page.replay;
  if (!r || !r.history.length) return;
  const h = r.history.pop();
  r.view = { ...r.view, ...h };
  r.position--;
}

function replayTick() {
  const r = page.replay;
  if (!r) return;
  if (!r.paused && !replayForward()) r.paused = true;
  $('replay-label').textContent = `Replaying ${r.label}: step ${r.position}/${r.steps.length}${r.paused ? ' (paused)' : ''}`;
  render();
  clearTimeout(r.timer);
  r.timer = setTimeout(replayTick, r.stepMs);
}

function stopReplay() {
  if (page.replay) clearTimeout(page.replay.timer);
  page.replay = null;
  $('replay-bar').hidden = true;
  render();
}

$('replay-back').onclick = () => { if (page.replay) { page.replay.paused = true; replayBack(); } };
$('replay-fwd').onclick = () => { if (page.replay) { page.replay.paused = true; replayForward(); } };
$('replay-pause').onclick = () => { if (page.replay) page.replay.paused = !page.replay.paused; };
$('replay-faster').onclick = () => { if (page.replay) page.replay.stepMs = Math.max(10, Math.round(page.replay.stepMs * 2 / 3)); };
$('replay-slower').onclick = () => { if (page.replay) page.replay.stepMs = Math.min(2000, Math.round(page.replay.stepMs * 3 / 2)); };
$('replay-stop').onclick = () => stopReplay();

// ---------- drawing ----------

// A forward step one cell away slides over a short time instead of jumping.
function startSlide(previous, state) {
  page.slide = null;
  if (!previous || previous.key !== state.key || state.moves !== previous.moves + 1) return;
  const w = state.width;
  const dx = (state.player % w) - (previous.player % w);
  const dy = Math.floor(state.player / w) - Math.floor(previous.player / w);
  if (Math.abs(dx) + Math.abs(dy) !== 1) return;
  const pushed = state.pushes === previous.pushes + 1 ? state.player + dx + dy * w : -1;
  const ms = Math.min(90, Math.max(30, (state.animation_ms || 120) * 0.7));
  page.slide = { dx, dy, box: pushed, start: performance.now(), ms };
}

function slideNow() {
  const sl = page.slide;
  if (!sl) return null;
  const t = (performance.now() - sl.start) / sl.ms;
  if (t >= 1) { page.slide = null; return null; }
  requestAnimationFrame(render);
  return { dx: sl.dx * (1 - t), dy: sl.dy * (1 - t), box: sl.box };
}

const board = $('board');
let cellSize = 32;

function render() {
  const s = page.state;
  if (!s || page.view !== 'play') return;
  const wrap = $('board-wrap');
  const availW = Math.max(100, wrap.clientWidth - 4), availH = Math.max(100, wrap.clientHeight - 4);
  cellSize = Math.max(8, Math.min(72, Math.floor(Math.min(availW / s.width, availH / s.height))));
  const g = scaledContext(board, [cellSize * s.width, cellSize * s.height]);
  const view = page.replay ? page.replay.view : s;
  drawBoard(g, view, cellSize, {
    skin: currentSkin(),
    danger: !page.replay && s.deadlock ? new Set(s.deadlock.boxes) : null,
    selected: page.replay ? null : page.selected,
    hover: page.replay ? null : page.hover,
    slide: page.replay ? null : slideNow(),
  });
  if (!page.replay && s.goals) drawGoalHint(g, s.width, cellSize, s.goals);
}

window.addEventListener('resize', () => { render(); editor.render(); });
new ResizeObserver(() => render()).observe($('board-wrap'));

function clockText() {
  const c = page.clock;
  const ms = c.ms + (c.running ? performance.now() - c.at : 0);
  const secs = Math.floor(ms / 1000);
  return `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}`;
}
setInterval(() => { if (page.state) $('time').textContent = clockText(); }, 500);

// ---------- mouse ----------

function cellAt(event) {
  const s = page.state;
  if (!s) return null;
  const rect = board.getBoundingClientRect();
  const x = Math.floor((event.clientX - rect.left) / cellSize);
  const y = Math.floor((event.clientY - rect.top) / cellSize);
  if (x < 0 || y < 0 || x >= s.width || y >= s.height) return null;
  return y * s.width + x;
}

const walkable = (cell) => {
  const s = page.state;
  const ch = (s.map[Math.floor(cell / s.width)] || '')[cell % s.width];
  return ch === '-' || ch === '.';
};

board.addEventListener('pointerdown', (e) => {
  if (e.button !== 0 || !page.state || page.replay) return;
  const cell = cellAt(e);
  if (cell === null) return;
  page.drag = page.state.boxes.includes(cell) ? { from: cell } : null;
});

board.addEventListener('pointerup', (e) => {
  if (e.button !== 0 || !page.state || page.replay) return;
  const cell = cellAt(e);
  const drag = page.drag;
  page.drag = null;
  if (cell === null) return;
  if (drag && drag.from !== cell) { push(drag.from, cell); return; }
  if (page.state.boxes.includes(cell)) {
    page.selected = page.selected === cell ? null : cell;
    render();
    return;
  }
  if (!walkable(cell)) return;
  if (page.selected !== null) push(page.selected, cell);
  else walk(cell);
});

board.addEventListener('pointermove', (e) => {
  const cell = cellAt(e);
  if (cell !== page.hover) { page.hover = cell; render(); }
});
board.addEventListener('pointerleave', () => { page.hover = null; render(); });
board.addEventListener('contextmenu', (e) => { e.preventDefault(); act('undo'); });

async function walk(cell) {
  if (page.animating) { page.fast = true; return; }
  const reply = await socket.send({ type: 'walk', to: cell });
  if (reply.type === 'error') setMessage($('message'), reply.message, 'info');
}

async function push(from, to) {
  page.selected = null;
  if (page.animating) { page.fast = true; return; }
  const reply = await socket.send({ type: 'push', from, to });
  if (reply.type === 'error') setMessage($('message'), reply.message, 'info');
  render();
}

// ---------- keys and buttons ----------

function act(action, extra = {}) {
  page.queue = [];
  page.selected = null;
  if (page.replay && action !== 'replay') stopReplay();
  if ($('solved-dialog').open) $('solved-dialog').close();
  return socket.send({ type: action, ...extra });
}

function move(dir) {
  if (page.state && page.state.solved) return;
  if (!$('message').classList.contains('warn')) setMessage($('message'), '', 'muted');
  socket.send({ type: 'move', dir });
}

document.addEventListener('keydown', (e) => {
  if (page.view !== 'play' || e.altKey || e.metaKey) return;
  if (document.querySelector('dialog[open]')) return;
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
  const key = e.key;
  if (page.replay) {
    const r = page.replay;
    const handled = {
      ' ': () => { r.paused = !r.paused; },
      ArrowRight: () => { r.paused = true; replayForward(); },
      ArrowLeft: () => { r.paused = true; replayBack(); },
      '+': () => $('replay-faster').click(), '=': () => $('replay-faster').click(),
      '-': () => $('replay-slower').click(),
      Escape: () => stopReplay(), v: () => stopReplay(), V: () => stopReplay(), q: () => stopReplay(),
    }[key];
    if (handled) { e.preventDefault(); handled(); render(); }
    return;
  }
  // A key during an animation finishes it at once, as in the terminal.
  if (page.animating && key !== 'Escape') { page.fast = true; e.preventDefault(); return; }
  if (e.ctrlKey) {
    if (key === 'r' || key === 'R') { e.preventDefault(); act('redo'); }
    else if (key === 's') { e.preventDefault(); act('save_snapshot'); }
    else if (key === 'l') { e.preventDefault(); act('load_snapshot'); }
    return;
  }
  if (DIRS[key] && !e.shiftKey) { e.preventDefault(); move(DIRS[key]); return; }
  if (DIRS[key] && key.startsWith('Arrow')) { e.preventDefault(); move(DIRS[key]); return; }
  const actions = {
    u: () => act('undo'), z: () => act('undo'), Backspace: () => act('undo'),
    y: () => act('redo'), r: () => act('restart'),
    n: () => act('next'), p: () => act('prev'),
    H: () => act('hint'), A: () => act('solve'), g: () => act('goals'),
    v: () => act('replay', { by_pushes: false }), V: () => act('replay', { by_pushes: true }),
    S: () => act('save_snapshot'), L: () => act('load_snapshot'),
    '?': () => openHelp(),
    Enter: () => { if (!$('b-rewind').hidden) rewind(); },
    Escape: () => {
      if (page.animating) { page.stopShow = true; page.queue = []; return; }
      if (page.thinking) { page.thinking = false; act('cancel'); return; }
      show('levels');
    },
  };
  const f = actions[key];
  if (f) { e.preventDefault(); f(); }
});

function rewind() {
  $('b-rewind').hidden = true;
  act('rewind');
}
$('b-rewind').onclick = () => rewind();
$('b-undo').onclick = () => act('undo');
$('b-redo').onclick = () => act('redo');
$('b-restart').onclick = () => act('restart');
$('b-prev').onclick = () => act('prev');
$('b-next').onclick = () => act('next');
$('b-hint').onclick = () => act('hint');
$('b-goals').onclick = () => act('goals');
$('b-solve').onclick = () => act('solve');
$('b-replay').onclick = () => act('replay', { by_pushes: false });
$('b-help').onclick = () => openHelp();
$('b-edit').onclick = () => {
  const s = page.state;
  if (!s) return;
  editor.loadXsb(s.xsb, s.title);
  show('editor');
};
$('b-back-editor').onclick = () => show('editor');

function fillKeys(el) {
  el.innerHTML = '';
  for (const [keys, what] of KEYS) {
    const k = document.createElement('span');
    k.innerHTML = keys.split('  ').map((x) => `<kbd>${x}</kbd>`).join(' ');
    const w = document.createElement('span');
    w.textContent = what;
    el.append(k, w);
  }
}
fillKeys($('keys'));
fillKeys($('help-keys'));
function openHelp() { $('help-dialog').showModal(); }
$('help-close').onclick = () => $('help-dialog').close();

// ---------- start ----------

function route() {
  const wanted = location.hash.replace('#', '');
  if (wanted === page.view) return;
  if (wanted === 'editor') show('editor');
  else if (wanted === 'play' && sessionStorage.getItem('ludus.sokoban.session')) show('play');
  else show('levels');
}
window.addEventListener('hashchange', route);
route();

// For the browser tests and the curious: the page's state, read-only by convention.
window.__ludus = page;
