// The running wasm app (kplace-app.js, Emscripten's module): its handle, strings copied in and out of its heap, its
// C API (wasm/exports/app.json) as the functions window.kplace forwards, and the onResult listeners. A read-only
// embed's edits are refused here. No DOM.
import { editable } from './page.js';
import './utf8.js';  // self.kplaceToUTF8

export let mod = null;  // the app's module, once createKplaceApp resolved (attach)
const listeners = new Set();
let selectedPod = '';

export function attach(m) {
  mod = m;
}

// Copies a string into the module's heap as UTF-8 (the stack is too small for large scenarios) for the call's
// duration (js/utf8.js, the worker's encoding too).
export function withString(text, fn) {
  const ptr = self.kplaceToUTF8(mod, text);
  try {
    return fn(ptr);
  } finally {
    mod._free(ptr);
  }
}
export const str = (ptr) => mod.UTF8ToString(ptr);
export function need() {
  if (!mod) throw new Error('kplace is not ready yet: await kplace.ready');
}
function edit(kind, node, i, effect, pod) {
  need();
  if (!editable) return false;  // a read-only embed
  return withString(String(kind), (k) => withString(String(node), (n) => withString(String(effect), (e) =>
    withString(String(pod), (p) => mod._kplace_app_edit(k, n, Number(i) | 0, e, p))))) === 1;
}

// The text load() is handing to the app, while it does. A large one goes straight on to the Web Worker: the worker
// takes this string (or these UTF-8 bytes) instead of a copy out of wasm memory (the same text; both convert it to
// UTF-8 the same way).
let loading = null;
// The text being loaded, once: bytes handed on are moved away.
export function takeTextBeingLoaded() {
  const t = loading;
  loading = null;
  return t;
}
// Hands text, already in the app's heap at ptr, to the app (takeTextBeingLoaded() gives text meanwhile) and frees ptr.
function loadAt(t, ptr) {
  loading = t;
  try {
    // 1: ran, 0: input error, 2: runs in the background (onResult fires when it lands)
    return mod._kplace_app_load(ptr) === 1 ? result() : null;
  } finally {
    loading = null;
    mod._free(ptr);
  }
}
export function load(text) {
  need();
  const t = String(text);
  return loadAt(t, self.kplaceToUTF8(mod, t));
}
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
// load() of an imported cluster's UTF-8 bytes (a Uint8Array): they reach the app's heap a slice per task, so the page
// keeps drawing while tens of MB are copied, into a buffer the app then takes over (no copy, no encoding), and are
// moved on to the run's Web Worker; resolves with what load() returns.
export async function loadSliced(bytes, slice = 1 << 22) {
  need();
  const at = mod._kplace_app_stage(bytes.length);
  if (!at) throw new Error(`no memory for a text of ${bytes.length} bytes`);
  let loaded = false;
  try {
    for (let i = 0; i < bytes.length; i += slice) {
      if (i > 0) await nextTask();
      const part = bytes.subarray(i, i + slice);
      if (!mod._kplace_app_stage_grow(at, part.length)) throw new Error('the staged text went away');
      mod.HEAPU8.set(part, at + i);  // HEAPU8 read anew: the heap may have grown
    }
    loading = bytes;
    loaded = true;
    return mod._kplace_app_load_staged(at, 0) === 1 ? result() : null;
  } finally {
    loading = null;
    if (!loaded) mod._kplace_app_load_staged(at, 1);  // frees it
  }
}
export function text() { need(); return str(mod._kplace_app_text()); }
export function textBytes() { return mod ? mod._kplace_app_text_bytes() : 0; }
export function result() {
  need();
  const json = str(mod._kplace_app_result());
  return json ? JSON.parse(json) : null;
}
export function error() { need(); return str(mod._kplace_app_error()) || null; }
export function stale() { need(); return mod._kplace_app_stale() === 1; }
export function running() { need(); return mod._kplace_app_running() === 1; }
export function setTaintEffect(node, i, effect) { return edit('taintEffect', node, i, effect || '', ''); }
export function removeTaint(node, i) { return edit('removeTaint', node, i, '', ''); }
export function cordon(node, on = true) { return edit(on ? 'cordon' : 'uncordon', node, 0, '', ''); }
export function addToleration(pod, node, i) { return edit('addToleration', node, i, '', pod); }
export function undo() { need(); return mod._kplace_app_undo() === 1; }
export function explanation(pod) {
  need();
  const json = withString(String(pod), (p) => str(mod._kplace_app_explanation(p)));
  return json ? JSON.parse(json) : null;
}
// Karpenter's disruption dry run for the result on screen ({disruption, disruptionApplied}), with node's explanation
// as "node" when one was asked for (the Disruption tab's what-if); null until the Web Worker has answered.
export function disruption(node = '') {
  need();
  const json = withString(String(node), (p) => str(mod._kplace_app_disruption(p)));
  return json ? JSON.parse(json) : null;
}
// What the result on screen changed against the one before it (kplace diff's JSON: pods, nodeClaims, cost, summary),
// null for the first result and after an import.
export function changes() {
  need();
  const json = str(mod._kplace_app_changes());
  return json ? JSON.parse(json) : null;
}
// The Compare tab's comparison (kplace diff's JSON, sides named; "error" when it has no diff), null when none.
export function comparison() {
  need();
  const json = str(mod._kplace_app_comparison());
  return json ? JSON.parse(json) : null;
}
// Pins the result on screen as A; true when there was one.
export function pin() { need(); return mod._kplace_app_pin() === 1; }
// Compares the scenario as it is (A) with itself under settings (B): "mode=karpenter,kubernetesVersion=1.33". Returns
// null, or the settings' error.
export function compare(settings) {
  need();
  return withString(String(settings), (p) => mod._kplace_app_compare(p)) === 1 ? null
    : str(mod._kplace_app_compare_error());
}
export function pinnedText() { need(); return str(mod._kplace_app_pinned_text()); }
export function stopComparing() { need(); mod._kplace_app_stop_comparing(); }
// The run step by step ({boundAtStart, nominatedAtStart, steps, step: what the cluster view shows}), null when the
// result has none (karpenter mode, a run in the background).
export function timeline() {
  need();
  const json = str(mod._kplace_app_timeline());
  return json ? JSON.parse(json) : null;
}
// step(n): shows the cluster after n steps (null or past the end: the whole run); step(): where it is. Returns the
// state then ({step, of, description, round, pass, queue, bound, nominated, deleted, launched, initialized}), null
// without a timeline.
export function step(n) {
  need();
  if (n !== undefined) {
    const at = n === null ? -1 : Math.trunc(Number(n));
    if (mod._kplace_app_set_step(Number.isFinite(at) ? at : -1) !== 1) return null;
  }
  const t = timeline();
  if (!t) return null;
  return JSON.parse(str(mod._kplace_app_timeline_at(t.step)));
}
export function targets() { need(); return JSON.parse(str(mod._kplace_app_targets())); }
export function setMode(m) {
  need();
  return editable && withString(String(m), (p) => mod._kplace_app_set_mode(p)) === 1;
}
export function setKubernetesVersion(v) {
  need();
  return editable && withString(String(v), (p) => mod._kplace_app_set_kubernetes_version(p)) === 1;
}
export function onResult(cb) {
  listeners.add(cb);
  return () => listeners.delete(cb);
}
export function presets() { need(); return JSON.parse(str(mod._kplace_app_presets())); }
export function loadPreset(name) { need(); return withString(String(name), (p) => mod._kplace_app_load_preset(p)) === 1; }
export function select(pod) {
  need();
  selectedPod = String(pod || '');
  withString(selectedPod, (p) => mod._kplace_app_select(p));
}
// The selected pod as far as the page knows (the app's own selection when it exports one).
export function selected() {
  if (mod && typeof mod._kplace_app_selected === 'function') return str(mod._kplace_app_selected());
  return selectedPod;
}
export function frames(rendered) { return mod ? mod._kplace_app_frames(rendered) : 0; }
export function redraw() { if (mod) mod._kplace_app_redraw(); }
export function frameWork() { return mod ? mod._kplace_app_frame_work() : 0; }

// Called by the app (onKplaceResult) after every new result.
export function notify() {
  if (listeners.size === 0) return;
  const r = result();
  for (const cb of listeners) {
    try { cb(r); } catch (e) { console.error(e); }
  }
}
