// Background music: Korobeiniki (the Russian folk song, public domain) for
// Tetris, and a calm tune written here for Sokoban, from note tables played
// with WebAudio oscillators, a square-wave melody over a triangle bass. The
// page's #music button picks the tune (data-tune), where its on/off switch
// is remembered (data-store) and whether it starts on (data-default); the
// music only ever starts after a key press or click.

// [note, beats]; 'r' is a rest. Part A twice, part B, in E minor / A minor.
const PART_A = [
  ['E5', 1], ['B4', 0.5], ['C5', 0.5], ['D5', 1], ['C5', 0.5], ['B4', 0.5],
  ['A4', 1], ['A4', 0.5], ['C5', 0.5], ['E5', 1], ['D5', 0.5], ['C5', 0.5],
  ['B4', 1.5], ['C5', 0.5], ['D5', 1], ['E5', 1],
  ['C5', 1], ['A4', 1], ['A4', 2],
  ['r', 0.5], ['D5', 1], ['F5', 0.5], ['A5', 1], ['G5', 0.5], ['F5', 0.5],
  ['E5', 1.5], ['C5', 0.5], ['E5', 1], ['D5', 0.5], ['C5', 0.5],
  ['B4', 1], ['B4', 0.5], ['C5', 0.5], ['D5', 1], ['E5', 1],
  ['C5', 1], ['A4', 1], ['A4', 1], ['r', 1],
];
const PART_B = [
  ['E5', 2], ['C5', 2], ['D5', 2], ['B4', 2], ['C5', 2], ['A4', 2], ['G#4', 2], ['B4', 2],
  ['E5', 2], ['C5', 2], ['D5', 2], ['B4', 2], ['C5', 1], ['E5', 1], ['A5', 2], ['G#5', 4],
];
// One root per bar (4 beats), played as octave-jumping eighths.
const BASS_A = ['E2', 'A2', 'E2', 'A2', 'D2', 'C2', 'E2', 'A2'];
const BASS_B = ['A2', 'E2', 'A2', 'E2', 'A2', 'E2', 'A2', 'E2'];

// Sokoban's tune: a slow walk in C major, eight bars.
const WALK = [
  ['E4', 1], ['G4', 1], ['C5', 2], ['B4', 1], ['G4', 1], ['D4', 2],
  ['F4', 1], ['A4', 1], ['C5', 1], ['A4', 1], ['G4', 3], ['r', 1],
  ['E4', 1], ['G4', 1], ['C5', 2], ['D5', 1], ['B4', 1], ['G4', 2],
  ['A4', 1], ['F4', 1], ['D4', 1], ['B3', 1], ['C4', 3], ['r', 1],
];
const WALK_BASS = ['C2', 'G2', 'F2', 'C2', 'C2', 'G2', 'F2', 'C2'];

const TUNES = {
  korobeiniki: { melody: [...PART_A, ...PART_A, ...PART_B], bass: [...BASS_A, ...BASS_A, ...BASS_B], bpm: 140 },
  sokoban: { melody: WALK, bass: WALK_BASS, bpm: 96 },
};

const NAMES = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };
function frequency(note) {
  const m = /^([A-G])(#?)(\d)$/.exec(note);
  const midi = 12 * (Number(m[3]) + 1) + NAMES[m[1]] + (m[2] ? 1 : 0);
  return 440 * 2 ** ((midi - 69) / 12);
}

// A score as timed events: [beat, frequency, beats, voice].
function eventsOf({ melody, bass }) {
  const events = [];
  let beat = 0;
  for (const [note, length] of melody) {
    if (note !== 'r') events.push([beat, frequency(note), length * 0.9, 'melody']);
    beat += length;
  }
  bass.forEach((root, bar) => {
    const low = frequency(root), high = low * 2;
    for (let i = 0; i < 8; i++) events.push([bar * 4 + i / 2, i % 2 ? high : low, 0.45, 'bass']);
  });
  return events.sort((a, b) => a[0] - b[0]);
}

const button = document.getElementById('music');
const tune = TUNES[(button && button.dataset.tune) || 'korobeiniki'] || TUNES.korobeiniki;
const EVENTS = eventsOf(tune);
const LOOP_BEATS = tune.bass.length * 4;
const BASE_BPM = tune.bpm;
const AHEAD = 0.25; // seconds scheduled ahead of the audio clock
const STORE = (button && button.dataset.store) || 'ludus.music';
const START_ON = !(button && button.dataset.default === 'off');

let context = null;
let master = null;
const stored = localStorage.getItem(STORE);
let enabled = stored === null ? START_ON : stored === '1';
let playing = false;
let timer = null;
let tempo = 1;
let position = 0;      // beats into the loop at `anchor`
let anchor = 0;        // audio time of `position`
let nextEvent = 0;

function voice(freq, start, seconds, kind) {
  const osc = context.createOscillator();
  const gain = context.createGain();
  osc.type = kind === 'melody' ? 'square' : 'triangle';
  osc.frequency.value = freq;
  const volume = kind === 'melody' ? 0.045 : 0.09;
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(volume, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + seconds);
  osc.connect(gain).connect(master);
  osc.start(start);
  osc.stop(start + seconds + 0.02);
}

function beatsPerSecond() { return (BASE_BPM * tempo) / 60; }

// Schedules every note that starts before now + AHEAD.
function schedule() {
  const until = context.currentTime + AHEAD;
  for (;;) {
    const [beat, freq, length, kind] = EVENTS[nextEvent];
    const at = anchor + (beat - position) / beatsPerSecond();
    if (at > until) break;
    if (at >= context.currentTime - 0.05) voice(freq, Math.max(at, context.currentTime), length / beatsPerSecond(), kind);
    nextEvent++;
    if (nextEvent >= EVENTS.length) {
      // Next loop: move the anchor one loop on.
      anchor += (LOOP_BEATS - position) / beatsPerSecond();
      position = 0;
      nextEvent = 0;
    }
  }
}

function start() {
  try {
    context = context || new AudioContext();
    if (!master) {
      master = context.createGain();
      master.gain.value = 1;
      master.connect(context.destination);
    }
    if (context.state === 'suspended') context.resume();
    const [beat] = EVENTS[nextEvent];
    position = beat;
    anchor = context.currentTime + 0.05;
    timer = setInterval(schedule, 60);
    schedule();
  } catch {
    // No audio here: play on in silence.
  }
}

function stop() {
  clearInterval(timer);
  timer = null;
  if (master) {
    // Cut what is already scheduled: a fresh output node for the next start.
    master.disconnect();
    master = null;
  }
}

function update() {
  const want = enabled && playing;
  if (want && !timer) start();
  if (!want && timer) stop();
}

export const music = {
  // The game runs (true) or waits (false): the music follows.
  set playing(on) { playing = on; update(); },
  // From the start of the tune (a new game).
  restart() { stop(); nextEvent = 0; update(); },
  // Faster with the level: ×1 at level 1 up to ×1.5.
  level(level) {
    const next = Math.min(1.5, 1 + (Math.max(1, level) - 1) * 0.04);
    if (next === tempo) return;
    if (timer && context) {
      // Keep the beat where it is at the tempo change.
      position += (context.currentTime - anchor) * beatsPerSecond();
      anchor = context.currentTime;
    }
    tempo = next;
  },
};

function showButton(button) {
  button.textContent = enabled ? 'Music on' : 'Music off';
  button.setAttribute('aria-pressed', String(!enabled));
}

if (button) {
  showButton(button);
  button.addEventListener('click', () => {
    enabled = !enabled;
    localStorage.setItem(STORE, enabled ? '1' : '0');
    showButton(button);
    update();
  });
}
