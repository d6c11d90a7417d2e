// The web shell's entry (an ES module; index.html loads kplace-app.js, a classic script, first): checks the
// browser, loads the fonts and the wasm app (the global createKplaceApp), glues the clipboard, wires the modules
// below and exposes window.kplace, the embedding API. The canvas's CSS size comes from index.html; the app sizes its
// backing store itself. No simulation logic lives here. The modules, one concern each (web/js/):
//   page.js           the query's embed flags, the page's address, the elements of index.html
//   app.js            the running wasm app: its handle, strings in and out, its C API as functions, onResult
//   overlay.js        the HTML overlay's message box and progress line, keys kept from the app, size formatting
//   worker-runner.js  the Web Workers (kplace-worker.js): large runs, on-demand explanations, imports
//   share.js          link encode/decode, applying a link, shareLink, presetLink, embedLink, embedSnippet
//   autosave.js       localStorage autosave, "Restore my last edit"
//   import-export.js  importText/importFile (kubectl JSON/YAML, kwok), exportScenario/exportResult
//   embed.js          embed mode: height messages, read-only pinning, "Open in kplace"
//   controls.js       the overlay's buttons, Import dialog, Export menu, file drop
//
// window.kplace (set when this module runs: after the document is parsed, before DOMContentLoaded):
//   ready             Promise, resolved when the app runs
//   load(text)        replace the scenario and re-run; returns the result, or null on an input error (see error())
//                     or when the scenario is large and runs in the background (running(); onResult fires later)
//   text()            the scenario text in the editor
//   result()          the last good result: the same JSON as `kplace run --format json` (null before one)
//   error()           the current input error message, or null
//   stale()           true while the result on screen belongs to an older, valid text
//   setMode(m)        "scheduler" | "karpenter" | "cluster": sets the Simulation's spec.mode in the text
//   setKubernetesVersion(v)  "1.33" ... "1.37": sets spec.kubernetesVersion (the top bar's release picker)
//   onResult(cb)      cb(result) after every new result; returns a function that unsubscribes
//   presets()         [{name, title, description}];  loadPreset(name);  select("namespace/pod")
//   running()         true while a large scenario runs in the Web Worker (kplace-worker.js); a newer edit
//                     supersedes it (the worker is restarted, stale answers are dropped)
//   Direct edits (what clicks in the cluster view and the inspector do; each re-runs and is one undo step; each
//   returns true when the text changed):
//   setTaintEffect(node, i, effect?)  spec.taints[i].effect of the node; without effect: the next one in the cycle
//                                     NoSchedule -> PreferNoSchedule -> NoExecute -> NoSchedule
//   removeTaint(node, i)              drops spec.taints[i]
//   cordon(node, on = true)           spec.unschedulable: true; cordon(node, false) removes the field
//   addToleration(pod, node, i)       appends a toleration of the node's taint i to the pod's (or its workload
//                                     template's) spec.tolerations
//   undo()                            restores the text before the last direct edit, setMode or setKubernetesVersion
//   explanation(pod)  after a background run, the pod's explanation fetched on demand by the inspector's
//                     "Explain this pod" (a second worker re-runs the scenario recording that pod), else null
//   disruption(node?) Karpenter's disruption dry run of the result on screen, {disruption, disruptionApplied} as in
//                     the result JSON (a cluster Karpenter manages, karpenter or cluster mode; the Disruption tab asks
//                     a worker for it), with node: that node's explanation as "node" once the tab's what-if asked
//                     for it; null until the worker has answered
//   changes()         what the last edit changed (the Changes tab): the result on screen against the one before it,
//                     as `kplace diff --format json` prints it ({pods, nodeClaims, cost, summary}); an undo gives the
//                     reverse; null for the first result and after an import
//   pin()             pins the result on screen as A (the Compare tab); every later result is B; false before one
//   compare(settings) compares the scenario as it is (A) with itself under settings (B), "mode=karpenter",
//                     "kubernetesVersion=1.33,scoringStrategy=MostAllocated" (kplace diff's --b); null, or the error
//   comparison()      the comparison as `kplace diff --format json` prints it (sides: {source: "pinned" | "on screen"
//                     | "as it is" | "settings", settings}), with "error" instead when B could not run; null when none.
//                     A scenario whose Simulation has the kplace.dev/compare annotation opens compared under it
//   stopComparing()
//   timeline()        the run step by step (the Timeline tab; scheduler and cluster modes, runs in the page's frame):
//                     {boundAtStart, nominatedAtStart, steps: [{step, kind: round | pass | attempt | preempt | nominate
//                     | clearNomination | provision | launch | initialize, pod, node, attempt, message, clusterEvents,
//                     queue (pass), ...}], step: the step the cluster view shows}; null when there is none
//   step(n?)          step(n) shows the cluster as it stood after n steps (null or past the end: the whole run) and
//                     brings the Timeline tab to the front; step() tells where it is. Returns {step, of, description,
//                     round, pass, queue: [{pod, queue: activeQ | backoffQ | unschedulablePods | gated, clusterEvents,
//                     moved, message, gates}], bound, nominated, deleted, launched, initialized}; null without one
//   targets()         the last frame's clickable edit targets in CSS pixels, {"taint:<node>:<i>" | "cordon:<node>" |
//                     "tolerate:<node>" | "pod:<ns/name>" (a chip on a node card) | "tab:<id>" (a details tab:
//                     pod, events, changes, compare, rounds, queue, timeline, disruption; app/ui/panels.cpp) | "compare:pin" | "compare:settings" | "compare:stop" | "disruption-node:<node>" (a
//                     row of the Disruption tab's table: its what-if) | "change:<ns/name>" / "compare:<ns/name>" (a pod's row of the Changes / Compare tab) | "timeline:prev" | "timeline:next" | "timeline:end" | "timeline:step:<n>" (a row of the Timeline tab) | "queue:<ns/name>" (its queue at the step) | "explain-node" (asks again): [x0, y0, x1, y1]} (tests click them)
//   frames(rendered)  frames drawn so far (tests wait on it); frames(true): those of them rasterised (a frame redraws
//                     only what changed, and nothing when nothing did)
//   redraw()          the next frame redraws the whole canvas (tests compare it with the changes drawn alone)
//   frameWork()       ms the app spent drawing them (its own work, not the browser's rendering): per frame over a
//                     span, (frameWork() - w0) / (frames() - f0)
//   timing()          {ready, firstFrame}: ms since navigation when the app started and drew its first frame
//   Share links, embeds, import and export (the HTML overlay in index.html drives the same functions):
//   shareLink()       Promise<url>: this page + "#k1:" + base64url(deflate-raw({s: scenario text, p: selected pod}));
//                     the prefix is the link format's version. Opening it restores the scenario (mode included)
//                     and the selected pod. ?preset=NAME, ?mode=..., ?pod=NS/NAME override the fragment.
//   presetLink(name)  the link to a preset by name (?preset=NAME)
//   loadLink(url)     Promise<{ok, message}>: applies a link's state here; a corrupt, truncated or unknown-version
//                     link opens the default scenario and says why (message, also shown on the page)
//   embedLink({edit}) Promise<url> with ?embed=1 (&edit=1);  embedSnippet({edit, height}) Promise<iframe HTML>
//   importText(text, filename?)  Promise<{ok, summary, error}>: kubectl get -o json|yaml output (a List, typed
//                     lists, single objects), multi-document YAML manifests, Karpenter kwok instance_types.json;
//                     converted by the core in a Web Worker (kplace_import: the List `kplace convert kubectl`
//                     prints); summary: the core's (nodes, podsBound, podsPending, finishedPods, ..., message: the
//                     sentence shown, as the CLI prints it)
//   importFile(file)  the same for a File (the Import dialog, or a file dropped on the page)
//   exportScenario(fmt = "json" | "yaml", {save = true})  Promise<text>, downloaded as kplace-scenario.<fmt> (YAML:
//                     written by the core in a Web Worker, kplace_to_yaml)
//   exportResult({save = true})  the result JSON (text), downloaded as kplace-result.json
//   restoreLastEdit() loads the local work a shared or preset link replaced;  lastEdit() {text, pod, time} | null
//   selected()        the selected pod as far as the page knows ("" for none)
//   message()         the overlay's current message, or null
//   embedded()        {embed, editable}; a read-only embed refuses direct edits and setMode (they return false)
//   contentHeight()   CSS px the content needs, as the last frame laid it out: the top bar, every card of the
//                     cluster view at the current width, an inspector below (320..1600); independent of the
//                     page's height
//   Autosave: the scenario being edited is kept in localStorage ("kplace:autosave") and restored on reload; not in
//   embeds. An embed posts {type: "kplace:height", height} (CSS px, contentHeight()) to its parent after the frame
//   that laid out a change of it (a new scenario or result, another width, the editor folded or shown).
/* global createKplaceApp */
import * as app from './js/app.js';
import { attach, mod, notify, takeTextBeingLoaded, withString } from './js/app.js';
import { afterOpen, autosaveSoon, lastEdit, readAutosave, restoreLastEdit } from './js/autosave.js';
import { wireControls } from './js/controls.js';
import { contentHeight, enterEmbed, postHeight, revertReadOnlyEdit, startEmbed, updateOpenLink } from './js/embed.js';
import { exportResult, exportScenario, importFile, importText } from './js/import-export.js';
import { guardKeys, inOverlay, message as overlayMessage } from './js/overlay.js';
import { canvas, editable, embedMode } from './js/page.js';
import { applyLink, embedLink, embedSnippet, loadDefault, loadLink, presetLink, rememberDefault, shareLink }
  from './js/share.js';
import { disruptionInWorker, explainInWorker, runInWorker } from './js/worker-runner.js';

const message = document.getElementById('message');
const timing = { ready: null, firstFrame: null };
let resolveReady, rejectReady;

function show(text, isError) {
  message.textContent = text;
  message.className = isError ? 'error' : '';
  message.hidden = false;
}

function unsupported() {
  if (typeof WebAssembly !== 'object') return 'kplace needs WebAssembly, which this browser does not provide.';
  const probe = document.createElement('canvas');
  if (!probe.getContext('webgl2')) {
    return 'kplace draws with WebGL2, which this browser (or its settings) does not provide.';
  }
  return null;
}

const api = {
  ready: new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; }),
  load: app.load,
  text: app.text,
  result: app.result,
  error: app.error,
  stale: app.stale,
  running: app.running,
  setTaintEffect: app.setTaintEffect,
  removeTaint: app.removeTaint,
  cordon: app.cordon,
  addToleration: app.addToleration,
  undo: app.undo,
  explanation: app.explanation,
  disruption: app.disruption,
  changes: app.changes,
  pin: app.pin,
  compare: app.compare,
  comparison: app.comparison,
  stopComparing: app.stopComparing,
  timeline: app.timeline,
  step: app.step,
  targets: app.targets,
  setMode: app.setMode,
  setKubernetesVersion: app.setKubernetesVersion,
  onResult: app.onResult,
  presets: app.presets,
  loadPreset: app.loadPreset,
  select: app.select,
  frames: app.frames,
  frameWork: app.frameWork,
  redraw: app.redraw,
  shareLink: () => shareLink(),
  presetLink,
  loadLink,
  embedLink,
  embedSnippet,
  importText,
  importFile,
  exportScenario,
  exportResult,
  restoreLastEdit,
  lastEdit,
  selected: app.selected,
  message: () => overlayMessage(),
  embedded: () => ({ embed: embedMode, editable }),
  contentHeight: () => contentHeight(),
  timing() { return { ...timing }; },
};
window.kplace = api;

// Emscripten's GLFW has no clipboard. Copy goes out through navigator.clipboard (from the app); paste comes in
// here: the paste event fires before the next frame, where the app handles the Ctrl+V / Cmd+V it saw.
document.addEventListener('paste', (e) => {
  if (!mod || !e.clipboardData || inOverlay(e.target)) return;
  withString(e.clipboardData.getData('text/plain'), (p) => mod._kplace_app_paste(p));
  e.preventDefault();
});

canvas.addEventListener('webglcontextlost', (e) => {
  e.preventDefault();
  show('The graphics context was lost. Reload the page to continue.', true);
});

// Before the app starts, so these key listeners run before GLFW's.
guardKeys();

async function fetchBytes(url) {
  try {
    const r = await fetch(url);
    return r.ok ? new Uint8Array(await r.arrayBuffer()) : null;
  } catch (e) {
    return null;
  }
}

async function start() {
  const problem = unsupported();
  if (problem) throw new Error(problem);
  const [fonts, m] = await Promise.all([
    Promise.all([fetchBytes('DejaVuSans.ttf'), fetchBytes('DejaVuSansMono.ttf')]),
    createKplaceApp({
      canvas,
      print: (t) => console.log(t),
      printErr: (t) => console.warn(t),
      onKplaceResult: () => notify(),
      onKplaceRunAsync: (seq, textOf) => runInWorker(seq, takeTextBeingLoaded() ?? textOf()),
      onKplaceExplainAsync: (seq, text, pod) => explainInWorker(seq, text, pod),
      onKplaceDisruptionAsync: (seq, text, node) => disruptionInWorker(seq, text, node),
      onKplaceHeight: () => postHeight(),
    }),
  ]);
  attach(m);
  const ptrs = fonts.map((bytes) => {
    if (!bytes) return 0;
    const p = mod._malloc(bytes.length);
    mod.writeArrayToMemory(bytes, p);
    return p;
  });
  let ok;
  try {
    ok = mod._kplace_app_start(ptrs[0], fonts[0] ? fonts[0].length : 0, ptrs[1], fonts[1] ? fonts[1].length : 0);
  } finally {
    ptrs.forEach((p) => p && mod._free(p));
  }
  if (!ok) throw new Error('kplace could not create its WebGL2 canvas.');
  message.hidden = true;
  timing.ready = performance.now();
  const firstFrame = () => {
    if (mod._kplace_app_frames() > 0) timing.firstFrame = performance.now();
    else requestAnimationFrame(firstFrame);
  };
  requestAnimationFrame(firstFrame);
  canvas.focus();
  notify();
}

// Once the app runs: the overlay, then the address (link, preset) or the autosaved work, then embed mode.
async function afterStart() {
  rememberDefault();
  enterEmbed();
  wireControls();
  const saved = readAutosave();
  let opened = { ok: false, message: null };
  try {
    opened = await applyLink(location.href);
  } catch (e) {
    opened = { ok: false, message: `This link could not be opened (${e.message}). Showing the default scenario instead.` };
    loadDefault();
  }
  afterOpen(opened, saved);
  startEmbed();
  app.onResult(() => {
    if (revertReadOnlyEdit()) return;
    if (embedMode) {
      updateOpenLink();  // the height follows from the app after the frame that lays this result out
    } else {
      autosaveSoon();
    }
  });
}

start().then(afterStart).then(() => resolveReady(api), (e) => {
  show(e.message || String(e), true);
  console.error(e);
  rejectReady(e);
});
