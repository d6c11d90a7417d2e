// Embeds (?embed=1, read-only unless &edit=1): the app told it is embedded, the height posted to the parent page,
// the read-only text pinned (clicks that edit it are put back), and "Open in kplace" carrying the state (text and
// selected pod) to the full page.
// The app measures the height its content needs after each frame's layout (the top bar, every card of the
// cluster view at the current width, an inspector below; CSS px, 320..1600) and calls onKplaceHeight when it
// changes: after the frame that laid out a new result, a new width or the folded / unfolded editor. It does not
// depend on the iframe's height, so resizing the iframe to it is stable.
import { mod, text, load, frames, selected } from './app.js';
import { canvas, editable, embedMode, ui } from './page.js';
import { shareLink } from './share.js';

const FALLBACK_HEIGHT = 480;  // only until the app has drawn its first frame
let postedHeight = 0;
let heightReady = false;      // set once the link's scenario is loaded: earlier heights belong to the default
let pinnedText = null;        // read-only embeds: the text edits are reverted to
let reverting = false;
let openLinkState = null;     // the text and pod "Open in kplace" carries
let openLinkSeq = 0;

export function contentHeight() {
  const h = mod ? mod._kplace_app_content_height() : 0;
  return h > 0 ? h : FALLBACK_HEIGHT;
}
// The app's onKplaceHeight.
export function postHeight() {
  if (!embedMode || !heightReady || window.parent === window) return;
  const height = contentHeight();
  if (height === postedHeight) return;
  postedHeight = height;
  window.parent.postMessage({ type: 'kplace:height', height }, '*');
}
// Resolves after the app drew n more frames.
function afterFrames(n = 1) {
  return new Promise((resolve) => {
    const target = frames() + n;
    const poll = () => (frames() >= target ? resolve() : requestAnimationFrame(poll));
    requestAnimationFrame(poll);
  });
}
export async function updateOpenLink() {
  const a = ui('kp-open');
  if (!a || !embedMode || !mod) return;
  const state = text() + '\u0000' + selected();
  if (state === openLinkState) return;
  openLinkState = state;
  const seq = ++openLinkSeq;  // links are encoded asynchronously: only the latest one lands
  try {
    const url = await shareLink();
    if (seq === openLinkSeq) a.href = url;
  } catch (e) {
    if (seq === openLinkSeq) openLinkState = null;  // keeps the previous link; the next change tries again
  }
}

// At startup, before the overlay is wired: the page and the app learn they are embedded.
export function enterEmbed() {
  if (!embedMode) return;
  document.body.classList.add('embed');
  if (mod && typeof mod._kplace_app_set_embed === 'function') mod._kplace_app_set_embed(editable ? 1 : 0);
}
// At startup, once the link's scenario is loaded: pins a read-only embed's text, shows "Open in kplace" and starts
// posting heights.
export function startEmbed() {
  if (!embedMode) return;
  pinnedText = editable ? null : text();
  ui('kp-open').hidden = false;
  updateOpenLink();
  // A pod selected by a click on the canvas travels in "Open in kplace" too.
  canvas.addEventListener('pointerup', () => afterFrames(1).then(updateOpenLink));
  // From here on the app's height notifications are posted; the first one after the link's scenario was laid out.
  heightReady = true;
  afterFrames(1).then(postHeight);
}
// On every result: in a read-only embed, a click edited the text; put it back. True when it did.
export function revertReadOnlyEdit() {
  if (pinnedText === null || reverting || text() === pinnedText) return false;
  reverting = true;
  try { load(pinnedText); } finally { reverting = false; }
  return true;
}
