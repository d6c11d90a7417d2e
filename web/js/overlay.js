// The HTML overlay over the canvas (#kp-ui in index.html): its message box (say, with action buttons), the progress
// line of background runs, the guard that keeps keys typed into the overlay (and, in a read-only embed, every key)
// away from the app, and the size formatting of its texts. Its buttons are wired in controls.js.
import { editable, ui } from './page.js';

let currentMessage = null;

// The overlay's current message, or null.
export const message = () => currentMessage;

export function inOverlay(target) {
  return !!(target && target.closest && target.closest('#kp-ui, #kp-import-dialog'));
}
// Keys typed into the overlay's fields must not reach the app (GLFW listens on window, capture phase: these
// listeners are registered before the app starts, so they run first). A read-only embed gives the app no keys.
export function guardKeys() {
  for (const type of ['keydown', 'keypress', 'keyup']) {
    window.addEventListener(type, (e) => {
      if (inOverlay(e.target) || (!editable && !e.ctrlKey && !e.metaKey)) e.stopImmediatePropagation();
    }, true);
  }
}

export function showProgress(done, total) {
  const el = ui('kp-progress');
  if (!el) return;
  if (done === null) {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  el.textContent = total > 0 ? `Running in the background\u2026 ${Math.min(100, Math.floor((done / total) * 100))}%`
                             : 'Running in the background\u2026';
}

// A message in the overlay (never a blank page); actions: [{label, run}].
export function say(text, { error = false, actions = [] } = {}) {
  currentMessage = text;
  const box = ui('kp-msg');
  if (!box) return;
  box.hidden = !text;
  box.className = error ? 'error' : '';
  box.textContent = text || '';
  for (const a of actions) {
    const b = document.createElement('button');
    b.textContent = a.label;
    b.addEventListener('click', a.run);
    box.append(' ', b);
  }
  if (text) {
    const close = document.createElement('button');
    close.textContent = '\u00d7';
    close.title = 'Dismiss';
    close.className = 'kp-close';
    close.addEventListener('click', () => say(null));
    box.append(' ', close);
  }
}

export function utf8Size(s) { return new TextEncoder().encode(s).length; }
export function kb(n) { return n < 1024 ? `${n} bytes` : `${(n / 1024).toFixed(1)} KB`; }
