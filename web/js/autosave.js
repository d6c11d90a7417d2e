// Autosave (not in embeds): the scenario being edited and its selected pod kept in localStorage and restored on
// reload; the local work a shared or preset link replaced kept one click away ("Restore my last edit"); the address
// dropped once what is on screen is an edit rather than what the link opened.
import { mod, need, text, textBytes, load, select, selected } from './app.js';
import { say } from './overlay.js';
import { canvas, embedMode, pageBase, params, ui } from './page.js';

const AUTOSAVE_KEY = 'kplace:autosave';  // {text, pod, source: "edit" | "link", time}
// localStorage holds about 5 million characters per site (Chromium: 10 MiB of UTF-16): a larger scenario can never
// be saved, and copying it out of the app and into JSON only to fail costs the page a second (a 67 MB import).
const AUTOSAVE_MAX_BYTES = 5 * 1024 * 1024;
const PREVIOUS_KEY = 'kplace:previous';  // the local work a shared or preset link replaced
let linkText = null;      // the scenario a link opened with (autosave marks it "link" until edited)
let lastSaved = null;
let warnedTooLarge = false;
let saveTimer = 0;

// A link's scenario is on screen (loadLink); an import replaced it (forgetLink).
export function linkOpened() { linkText = text(); }
export function forgetLink() { linkText = null; }

function readStore(k) {
  try {
    const v = JSON.parse(localStorage.getItem(k) || 'null');
    return v && typeof v.text === 'string' ? v : null;
  } catch (e) {
    return null;
  }
}
function writeStore(k, v) {
  try {
    localStorage.setItem(k, JSON.stringify(v));
    return true;
  } catch (e) {
    return false;
  }
}
function tooLarge() {
  if (!warnedTooLarge) say('This scenario is too large to autosave in the browser; export it to keep it.');
  warnedTooLarge = true;
}
function autosave() {
  if (embedMode || !mod) return;
  if (textBytes() > AUTOSAVE_MAX_BYTES) {
    tooLarge();
    return;
  }
  const t = text();
  const pod = selected();
  if (lastSaved && lastSaved.text === t && lastSaved.pod === pod) return;
  const source = t === linkText ? 'link' : 'edit';
  const entry = { text: t, pod, source, time: Date.now() };
  if (!writeStore(AUTOSAVE_KEY, entry)) {
    tooLarge();
    return;
  }
  lastSaved = entry;
  // Once edited, the address no longer describes what is on screen: drop the link so a reload restores the edit.
  if (source === 'edit' && linkText !== null) {
    linkText = null;
    if (location.hash || params.has('preset')) history.replaceState(null, '', pageBase());
  }
  updateRestore();
}
export function autosaveSoon() {
  if (embedMode) return;
  clearTimeout(saveTimer);
  saveTimer = setTimeout(autosave, 400);
}
export function lastEdit() {
  const prev = readStore(PREVIOUS_KEY);
  return prev ? { text: prev.text, pod: prev.pod || '', time: prev.time } : null;
}
function updateRestore() {
  const b = ui('kp-restore');
  if (!b || !mod) return;
  const prev = lastEdit();
  b.hidden = embedMode || !prev || prev.text === (lastSaved ? lastSaved.text : text());
}
export function restoreLastEdit() {
  need();
  const prev = lastEdit();
  if (!prev) return false;
  linkText = null;
  if (location.hash || location.search) history.replaceState(null, '', pageBase());
  load(prev.text);
  select(prev.pod);
  autosave();
  say(null);
  updateRestore();
  return true;
}

// At startup, before the address is applied: the autosaved work (null in embeds).
export function readAutosave() {
  return embedMode ? null : readStore(AUTOSAVE_KEY);
}
// At startup, after the address was applied (opened: applyLink's {ok, message}): a link wins and the local work it
// replaced becomes the last edit; a broken link says why; no link restores the autosaved work.
export function afterOpen(opened, saved) {
  if (opened.ok) {
    linkText = text();
    // The link wins, but the local work it replaced stays one click away.
    if (saved && saved.source === 'edit' && saved.text !== linkText) writeStore(PREVIOUS_KEY, saved);
    lastSaved = embedMode ? null : { text: linkText, pod: selected(), source: 'link' };
    if (!embedMode) writeStore(AUTOSAVE_KEY, { ...lastSaved, time: Date.now() });
  } else if (opened.message) {
    say(opened.message, { error: true });
    if (saved && saved.source === 'edit') writeStore(PREVIOUS_KEY, saved);
  } else if (saved) {
    load(saved.text);
    select(saved.pod || '');
    lastSaved = saved;
  }
  updateRestore();
}

// Saves when the page goes away or hides, and shortly after keys and clicks.
export function watchEdits() {
  window.addEventListener('pagehide', autosave);
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') autosave(); });
  canvas.addEventListener('keyup', autosaveSoon);
  window.addEventListener('keyup', autosaveSoon);
  canvas.addEventListener('pointerup', autosaveSoon);
}
