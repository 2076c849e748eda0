// A map pack's skin: the tile images the server serves for the set being
// played, drawn instead of the built-in sprites while the "Skin" switch is on
// (remembered in localStorage).

const KEY = 'ludus.sokoban.skin';

let base = null;      // the skin's URL folder, or null
let images = {};      // tile name -> loaded HTMLImageElement

export function skinEnabled() { return localStorage.getItem(KEY) !== 'off'; }
export function setSkinEnabled(on) { localStorage.setItem(KEY, on ? 'on' : 'off'); }

// Loads the tiles of a state's `skin` ({ url, tiles }); `redraw` runs as each
// arrives. Tiles the skin lacks stay drawn by the built-in sprites.
export function useSkin(skin, redraw) {
  const url = skin ? skin.url : null;
  if (url === base) return;
  base = url || null;
  images = {};
  if (!base) return;
  for (const name of skin.tiles) {
    const img = new Image();
    img.onload = () => { if (base === url) { images[name] = img; redraw(); } };
    img.src = `${url}${name}.png`;
  }
}

// The tiles to draw with now, or null (no skin, or switched off).
export function currentSkin() {
  if (!base || !skinEnabled() || !Object.keys(images).length) return null;
  return images;
}
