// Sokoban's sounds: an effect for each change of the position (step, push,
// box on goal, undo) and the background tune while a level is played, never
// before the player's first key or click (the browsers' autoplay rules).
// The switches are sound.js's and music.js's, remembered in localStorage.
import { sound } from './sound.js';
import { music } from './music.js';

let gesture = false;
let wanted = false;

function wake() {
  gesture = true;
  music.playing = wanted;
}
document.addEventListener('keydown', wake, { capture: true });
document.addEventListener('pointerdown', wake, { capture: true });

// The play view is shown (true) or left (false): the tune follows.
export function playing(on) {
  wanted = on;
  if (gesture) music.playing = on;
}

// The effect for going from `previous` to `state` on the same level.
export function stateSounds(previous, state) {
  if (!previous || previous.key !== state.key || previous.session !== state.session) return;
  if (state.moves < previous.moves) sound('undo');
  else if (state.boxes_on_goals > previous.boxes_on_goals) sound('goal');
  else if (state.pushes > previous.pushes) sound('push');
  else if (state.moves > previous.moves) sound('step');
}
