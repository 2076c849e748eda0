// Short sound effects made with WebAudio (no sound files to fetch), and a
// mute switch remembered in localStorage. The audio context starts on the
// first sound, which always follows a key press or click.

let context = null;
let muted = localStorage.getItem('ludus.muted') === '1';

const TUNES = {
  push: [[220, 0.05, 'square', 0.04]],
  // Sokoban
  step: [[700, 0.015, 'triangle', 0.03]],
  goal: [[659, 0.06, 'triangle', 0.1], [988, 0.12, 'triangle', 0.1]],
  undo: [[440, 0.04, 'sine', 0.06], [330, 0.05, 'sine', 0.06]],
  bump: [[90, 0.06, 'sine', 0.08]],
  solved: [[523, 0.12, 'triangle', 0.12], [659, 0.12, 'triangle', 0.12], [784, 0.25, 'triangle', 0.12]],
  // Tetris
  shift: [[330, 0.025, 'square', 0.025]],
  rotate: [[520, 0.035, 'square', 0.03]],
  hold: [[392, 0.05, 'triangle', 0.08], [523, 0.05, 'triangle', 0.08]],
  lock: [[110, 0.07, 'triangle', 0.14]],
  clear: [[523, 0.07, 'square', 0.05], [784, 0.12, 'square', 0.05]],
  tetris: [[523, 0.08, 'square', 0.06], [659, 0.08, 'square', 0.06], [784, 0.08, 'square', 0.06], [1047, 0.25, 'square', 0.06]],
  tspin: [[440, 0.06, 'sawtooth', 0.05], [659, 0.06, 'sawtooth', 0.05], [880, 0.2, 'sawtooth', 0.05]],
  levelup: [[392, 0.09, 'triangle', 0.12], [523, 0.09, 'triangle', 0.12], [659, 0.09, 'triangle', 0.12], [784, 0.3, 'triangle', 0.12]],
  gameover: [[392, 0.2, 'triangle', 0.12], [311, 0.2, 'triangle', 0.12], [262, 0.2, 'triangle', 0.12], [196, 0.5, 'triangle', 0.12]],
};

export function sound(name) {
  if (muted) return;
  const notes = TUNES[name];
  if (!notes) return;
  try {
    context = context || new AudioContext();
    let t = context.currentTime;
    for (const [freq, length, wave, volume] of notes) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.type = wave;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(volume, t);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
      osc.connect(gain).connect(context.destination);
      osc.start(t);
      osc.stop(t + length);
      t += length;
    }
  } catch {
    // No audio on this machine: play on in silence.
  }
}

function showMute(button) {
  button.textContent = muted ? 'Sound off' : 'Sound on';
  button.setAttribute('aria-pressed', String(muted));
}

const button = document.getElementById('sound');
if (button) {
  showMute(button);
  button.addEventListener('click', () => {
    muted = !muted;
    localStorage.setItem('ludus.muted', muted ? '1' : '0');
    showMute(button);
  });
}
