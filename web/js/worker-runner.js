// Every Web Worker the page starts (kplace-worker.js, a classic worker with kplace-core): one runs large scenarios
// for the app, a second explains a background run's pods on demand (so an explanation never cancels a run), a third
// answers the Disruption tab (Karpenter's disruption dry run, which the app does not link), and a
// short-lived one per import or YAML export runs the core's conversion. Answers go back into the app by its edit generation (seq).
import { mod, withString } from './app.js';
import { showProgress } from './overlay.js';

let worker = null;      // the Web Worker running kplace-core for large scenarios, created on first use
let workerBusy = false;
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
// A worker for questions asked on demand, one at a time: a newer question cancels one still going. deliver(data)
// takes each answer.
function onDemandWorker(deliver) {
  let w = null;
  let busy = false;
  return (message) => {
    if (w && busy) {
      w.terminate();
      w = null;
    }
    if (!w) {
      const mine = new Worker('kplace-worker.js');
      mine.onmessage = (e) => {
        if (mine !== w || e.data.type === 'progress') return;
        busy = false;
        deliver(e.data);
      };
      mine.onerror = (e) => {
        e.preventDefault();
        if (mine === w) busy = false;
      };
      w = mine;
    }
    busy = true;
    w.postMessage(message);
  };
}

// The app's onKplaceExplainAsync: records pod's explanation in a re-run of text; _kplace_app_explained takes it.
const askExplanation = onDemandWorker(({ seq, pod, envelope }) => {
  if (mod) withString(pod, (pp) => withString(envelope, (ep) => mod._kplace_app_explained(seq, pp, ep)));
});
export function explainInWorker(seq, text, pod) { askExplanation({ seq, text, pod }); }

// The app's onKplaceDisruptionAsync: Karpenter's disruption dry run of text (and node's explanation when node is not
// ""); _kplace_app_disrupted takes the answer.
const askDisruption = onDemandWorker(({ seq, node, envelope }) => {
  if (mod) withString(node, (np) => withString(envelope, (ep) => mod._kplace_app_disrupted(seq, np, ep)));
});
export function disruptionInWorker(seq, text, node) { askDisruption({ seq, text, disruption: true, node }); }

// The app's onKplaceRunAsync. text: a string, or UTF-8 bytes (an import's, which the page no longer needs: moved to the
// worker, not copied).
export function runInWorker(seq, text) {
  if (worker && workerBusy) {
    worker.terminate();
    worker = null;
  }
  if (!worker) worker = startWorker();
  workerBusy = true;
  showProgress(0, 0);
  worker.seq = seq;
  const whole = text instanceof Uint8Array && text.byteOffset === 0 && text.byteLength === text.buffer.byteLength;
  worker.postMessage({ seq, text }, whole ? [text.buffer] : []);
}

// One-off jobs for the core in a short-lived worker, off the main thread: "import" (a cluster dump's text ->
// {scenarioBytes, import}: kplace_import) and "yaml" (a scenario -> {yaml}: kplace_to_yaml). Resolves with the
// worker's answer, or {error}. A long text goes over in parts, a task each: posting 67 MB at once is a structured
// clone that holds the page's thread for a quarter of a second.
export function coreTask(type, text, part = 1 << 22) {
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
    (async () => {
      let at = 0;
      for (; typeof text === 'string' && text.length - at > part; at += part) {
        w.postMessage({ type: 'part', id, text: text.substring(at, at + part) });
        await new Promise((next) => setTimeout(next, 0));
      }
      w.postMessage({ type, id, text: at ? text.substring(at) : text });
    })();
  });
}
