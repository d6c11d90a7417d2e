// Share links: the state (scenario text, selected pod) encoded into the fragment and decoded back, applying a
// link's state (fragment and query) to the page, and the links and iframe snippet the overlay copies.
// Link format: <page>#k1:<base64url(deflate-raw(JSON {s: scenario text, p: selected pod, c: compare settings,
// a: pinned text, t: timeline step}))> (c, a only when the Compare tab compares: under settings the scenario does not
// name, or with a pinned result; t only when the cluster view shows a step of the timeline); "j1:" is the same
// without compression (browsers without CompressionStream). The prefix is the format version: a later format gets a
// new prefix and old ones keep decoding. Query parameters override the fragment, which overrides the defaults:
// ?preset=NAME, ?mode=scheduler|karpenter|cluster, ?pod=NS/NAME, ?compare=SETTINGS, ?step=N, ?embed=1 (&edit=1).
import { need, text, load, presets, loadPreset, setMode, select, selected, comparison, compare, pin, pinnedText,
  timeline, step } from './app.js';
import { linkOpened } from './autosave.js';
import { say } from './overlay.js';
import { pageBase } from './page.js';

const LINK_FORMATS = ['k1', 'j1'];
export const LINK_BUDGET = 8 * 1024;  // links longer than this do not survive chats, mail and issue trackers
let defaultText = null;   // the app's default preset, what a broken link falls back to

// At startup, before any link is applied: the scenario a broken link falls back to.
export function rememberDefault() { defaultText = text(); }
export function loadDefault() { load(defaultText); }

function toBase64Url(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
function fromBase64Url(t) {
  if (!/^[A-Za-z0-9_-]*$/.test(t) || t.length % 4 === 1) throw new Error('not base64url');
  const s = atob(t.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (t.length % 4)) % 4));
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  return bytes;
}
async function through(bytes, stream) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}
// The state to share: the text, the selected pod, and what the Compare tab compares (not what the text itself names).
function currentState() {
  const state = { s: text() };
  const pod = selected();
  if (pod) state.p = pod;
  const c = comparison();
  if (c && c.b.source === 'settings') state.c = c.b.settings;
  if (c && c.a.source === 'pinned') state.a = pinnedText();
  const t = timeline();
  if (t && t.step < t.steps.length) state.t = t.step;
  return state;
}
async function encodeState(state) {
  const json = new TextEncoder().encode(JSON.stringify(state));
  if (typeof CompressionStream !== 'function') return 'j1:' + toBase64Url(json);
  return 'k1:' + toBase64Url(await through(json, new CompressionStream('deflate-raw')));
}
class LinkError extends Error {}
async function decodeState(fragment) {
  const m = /^([a-z]+[0-9]+):(.*)$/s.exec(fragment);
  if (!m) throw new LinkError('it is not a kplace link');
  if (!LINK_FORMATS.includes(m[1])) {
    throw new LinkError(`it uses link format "${m[1]}", which this version of kplace does not know (a newer kplace made it?)`);
  }
  let json;
  try {
    let bytes = fromBase64Url(decodeURIComponent(m[2]));
    if (m[1] === 'k1') bytes = await through(bytes, new DecompressionStream('deflate-raw'));
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (e) {
    throw new LinkError('it is corrupt or truncated');
  }
  if (!json || typeof json.s !== 'string') throw new LinkError('it is corrupt or truncated');
  return { text: json.s, pod: typeof json.p === 'string' ? json.p : '',
           compare: typeof json.c === 'string' ? json.c : '', pinned: typeof json.a === 'string' ? json.a : null,
           step: Number.isInteger(json.t) && json.t >= 0 ? json.t : null };
}

// Applies a link's state to this page. Returns {ok, message}; a bad link opens the default preset.
export async function applyLink(href) {
  const u = new URL(href, location.href);
  const q = u.searchParams;
  let linked = null, pod = '', problem = null, settings = '', pinned = null, at = null;
  const fragment = u.hash.replace(/^#/, '');
  if (fragment) {
    try {
      ({ text: linked, pod, compare: settings, pinned, step: at } = await decodeState(fragment));
    } catch (e) {
      if (!(e instanceof LinkError)) throw e;
      problem = `This link could not be opened: ${e.message}. Showing the default scenario instead.`;
    }
  }
  const preset = q.get('preset');
  let presetOk = false;
  if (preset) {
    if (presets().some((p) => p.name === preset)) {
      presetOk = true;
      problem = null;
    } else {
      problem = `There is no preset named "${preset}". Showing the default scenario instead.`;
    }
  }
  if (presetOk) {
    loadPreset(preset);
  } else if (linked !== null && !problem) {
    if (pinned !== null && load(pinned) !== null) pin();  // A first, then the link's text is B
    load(linked);
  } else if (problem) {
    load(defaultText);
  } else {
    return { ok: false, message: null };  // nothing in the link
  }
  const mode = q.get('mode');
  if (mode && !problem) setMode(mode);
  const qpod = q.get('pod');
  if (qpod !== null) pod = qpod;
  if (!problem) select(pod);
  if (q.get('compare') !== null) settings = q.get('compare');
  if (settings && !problem) {
    const error = compare(settings);
    if (error) problem = `This link's comparison could not be set up: ${error}`;
  }
  if (q.get('step') !== null) at = /^[0-9]+$/.test(q.get('step')) ? Number(q.get('step')) : NaN;
  if (at !== null && !problem) {
    const t = timeline();
    if (!t) problem = 'This link opens at a step of the timeline, but this scenario has none (karpenter mode, or too ' +
      'large to run in the page\'s frame).';
    else if (!(at <= t.steps.length)) problem = `This link opens at step ${q.get('step') ?? at}, but the run has ${t.steps.length} steps.`;
    else step(at);
  }
  return { ok: !problem, message: problem };
}
// window.kplace.loadLink: applyLink, with its message shown on the page.
export async function loadLink(url) {
  need();
  const r = await applyLink(url);
  if (r.message) say(r.message, { error: true });
  if (r.ok) linkOpened();
  return r;
}

export async function shareLink() {
  need();
  return pageBase() + '#' + await encodeState(currentState());
}
export const presetLink = (name) => `${pageBase()}?preset=${encodeURIComponent(name)}`;
export async function embedLink({ edit = false } = {}) {
  return pageBase() + (edit ? '?embed=1&edit=1' : '?embed=1') + '#' + await encodeState(currentState());
}
export async function embedSnippet({ edit = false, height = 480 } = {}) {
  const src = await embedLink({ edit });
  const origin = new URL(src).origin;
  return `<iframe src="${src.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}" title="kplace scenario" width="100%" ` +
    `height="${height}" loading="lazy" style="border:0"></iframe>\n` +
    '<script>/* kplace embeds post {type: "kplace:height", height} to resize their iframe */\n' +
    `addEventListener("message", (e) => { if (e.origin !== "${origin}" || !e.data || e.data.type !== "kplace:height") return;\n` +
    '  for (const f of document.querySelectorAll("iframe")) if (f.contentWindow === e.source)\n' +
    '    f.style.height = Math.max(200, Math.min(2000, Number(e.data.height) || 0)) + "px"; });\n</' + 'script>';
}
