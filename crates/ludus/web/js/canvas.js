// Canvases drawn in CSS pixels on any screen: the backing store is the CSS
// size times the device pixel ratio, so lines and text stay sharp.

// Returns the context of `canvas`, scaled so that drawing is in CSS pixels.
// With `size` ([w, h]) the canvas is given that CSS size; without, it keeps
// the size the style sheet gives it. The backing store is reallocated (which
// clears it) only when its size changes.
export function scaledContext(canvas, size) {
  const ratio = window.devicePixelRatio || 1;
  const [w, h] = size || [canvas.clientWidth, canvas.clientHeight];
  if (size) {
    canvas.style.width = `${w}px`;
    canvas.style.height = `${h}px`;
  }
  const bw = Math.round(w * ratio), bh = Math.round(h * ratio);
  if (canvas.width !== bw) canvas.width = bw;
  if (canvas.height !== bh) canvas.height = bh;
  const g = canvas.getContext('2d');
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  return g;
}
