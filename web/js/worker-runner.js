// Every Web Worker the page starts (kplace-worker.js, a classic worker with kplace-core): one runs large scenarios
// for the app, a second explains a background run's pods on demand (so an explanation never cancels a run), a third
// answers the Disruption tab (Karpenter's disruption dry run, which the app does not link), and a
// short-lived one per import or YAML export runs the core's conversion. Answers go back into the app by its edit generation (seq).
import { mod, withString } from './app.js';
import { showProgress } from './overlay.js';

let worker = null;      // the Web Worker running kplace-core for large scenarios, created on first use
let workerBusy = false;
let explainWorker = null;  // a second one for on-demand explanations, so they never cancel a run
let explainBusy = false;
let taskSeq = 0;

// Large scenarios: the app hands the text here (seq = its edit generation) and takes the answer back with
// _kplace_app_complete, which drops answers to superseded edits. A run still going when a newer one starts is
// cancelled by terminating the worker (the core is synchronous inside it).
function complete(seq, envelope) {
  if (mod) withString(envelope, (p) => mod._kplace_app_complete(seq, p));
}
function startWorker() {
  const w = new Worker('kplace-worker.js');
  w.onmessage = (e) => {
    if (w !== worker) return;
    if (e.data.type === 'progress') {
      showProgress(e.data.done, e.data.total);
      return;
    }
    workerBusy = false;
    showProgress(null);
    complete(e.data.seq, e.data.envelope);
  };
  w.onerror = (e) => {
    e.preventDefault();
    if (w !== worker) return;
    workerBusy = false;
    showProgress(null);
    const message = `the background run failed: ${e.message || 'worker error'}`;
    complete(w.seq, JSON.stringify({ status: 'failure', errors: [{ message, internal: true }] }));
  };
  return w;
}
// The app's onKplaceExplainAsync: records pod's explanation in a re-run of text; _kplace_app_explained takes it.
export function explainInWorker(seq, text, pod) {
  if (explainWorker && explainBusy) {
    explainWorker.terminate();
    explainWorker = null;
  }
  if (!explainWorker) {
    const w = new Worker('kplace-worker.js');
    w.onmessage = (e) => {
      if (w !== explainWorker || e.data.type === 'progress') return;
      explainBusy = false;
      const { seq: s, pod: p, envelope } = e.data;
      if (mod) withString(p, (pp) => withString(envelope, (ep) => mod._kplace_app_explained(s, pp, ep)));
    };
    w.onerror = (e) => {
      e.preventDefault();
      if (w === explainWorker) explainBusy = false;
    };
    explainWorker = w;
  }
  explainBusy = true;
  explainWorker.postMessage({ seq, text, pod });
}
// The app's onKplaceDisruptionAsync: Karpenter's disruption dry run of text (and node's explanation when node is not
// ""); _kplace_app_disrupted takes the answer. A newer question cancels one still going.
let disruptionWorker = null;
let disruptionBusy = false;
export function disruptionInWorker(seq, text, node) {
  if (disruptionWorker && disruptionBusy) {
    disruptionWorker.terminate();
    disruptionWorker = null;
  }
  if (!disruptionWorker) {
    const w = new Worker('kplace-worker.js');
    w.onmessage = (e) => {
      if (w !== disruptionWorker || e.data.type === 'progress') return;
      disruptionBusy = false;
      const { seq: s, node: n, envelope } = e.data;
      if (mod) withString(n, (np) => withString(envelope, (ep) => mod._kplace_app_disrupted(s, np, ep)));
    };
    w.onerror = (e) => {
      e.preventDefault();
      if (w === disruptionWorker) disruptionBusy = false;
    };
    disruptionWorker = w;
  }
  disruptionBusy = true;
  disruptionWorker.postMessage({ seq, text, disruption: true, node });
}
// The app's onKplaceRunAsync.
export function runInWorker(seq, text) {
  if (worker && workerBusy) {
    worker.terminate();
    worker = null;
  }
  if (!worker) worker = startWorker();
  workerBusy = true;
  showProgress(0, 0);
  worker.seq = seq;
  worker.postMessage({ seq, text });
}

// One-off jobs for the core in a short-lived worker, off the main thread: "import" (a cluster dump's text ->
// {scenario, import}: kplace_import) and "yaml" (a scenario -> {yaml}: kplace_to_yaml). Resolves with the worker's
// answer, or {error}.
export function coreTask(type, text) {
  return new Promise((resolve) => {
    const w = new Worker('kplace-worker.js');
    const id = ++taskSeq;
    w.onmessage = (e) => {
      if (e.data.type !== type || e.data.id !== id) return;
      w.terminate();
      resolve(e.data);
    };
    w.onerror = (e) => {
      e.preventDefault();
      w.terminate();
      resolve({ error: e.message || `the ${type} worker failed` });
    };
    w.postMessage({ type, id, text });
  });
}
