// The web shell: checks the browser, loads the fonts and the wasm app (kplace-app.js), glues the clipboard and
// exposes window.kplace, the embedding API. The canvas's CSS size comes from index.html; the app sizes its backing
// store itself. No simulation logic lives here.
//
// window.kplace:
//   ready             Promise, resolved when the app runs
//   load(text)        replace the scenario and re-run; returns the result, or null on an input error (see error())
//                     or when the scenario is large and runs in the background (running(); onResult fires later)
//   text()            the scenario text in the editor
//   result()          the last good result: the same JSON as `kplace run --format json` (null before one)
//   error()           the current input error message, or null
//   stale()           true while the result on screen belongs to an older, valid text
//   setMode(m)        "scheduler" | "karpenter" | "cluster": sets the Simulation's spec.mode in the text
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
//   undo()                            restores the text before the last direct edit or setMode
//   explanation(pod)  after a background run, the pod's explanation fetched on demand by the inspector's
//                     "Explain this pod" (a second worker re-runs the scenario recording that pod), else null
//   targets()         the last frame's clickable edit targets in CSS pixels, {"taint:<node>:<i>" | "cordon:<node>" |
//                     "tolerate:<node>" | "tab:events" | "tab:pod": [x0, y0, x1, y1]} (tests click them)
//   frames()          frames drawn so far (tests wait on it)
//   timing()          {ready, firstFrame}: ms since navigation when the app started and drew its first frame
(function () {
  'use strict';
  const canvas = document.getElementById('canvas');
  const message = document.getElementById('message');
  const listeners = new Set();
  let mod = null;
  let worker = null;      // the Web Worker running kplace-core for large scenarios, created on first use
  let workerBusy = false;
  let explainWorker = null;  // a second one for on-demand explanations, so they never cancel a run
  let explainBusy = false;
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

  // Copies a string into the module's heap (the stack is too small for large scenarios) for the call's duration.
  function withString(text, fn) {
    const size = mod.lengthBytesUTF8(text) + 1;
    const ptr = mod._malloc(size);
    try {
      mod.stringToUTF8(text, ptr, size);
      return fn(ptr);
    } finally {
      mod._free(ptr);
    }
  }
  const str = (ptr) => mod.UTF8ToString(ptr);
  function need() {
    if (!mod) throw new Error('kplace is not ready yet: await kplace.ready');
  }
  function edit(kind, node, i, effect, pod) {
    need();
    return withString(String(kind), (k) => withString(String(node), (n) => withString(String(effect), (e) =>
      withString(String(pod), (p) => mod._kplace_app_edit(k, n, Number(i) | 0, e, p))))) === 1;
  }

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
      workerBusy = false;
      complete(e.data.seq, e.data.envelope);
    };
    w.onerror = (e) => {
      e.preventDefault();
      if (w !== worker) return;
      workerBusy = false;
      const message = `the background run failed: ${e.message || 'worker error'}`;
      complete(w.seq, JSON.stringify({ status: 'failure', errors: [{ message, internal: true }] }));
    };
    return w;
  }
  function explainInWorker(seq, text, pod) {
    if (explainWorker && explainBusy) {
      explainWorker.terminate();
      explainWorker = null;
    }
    if (!explainWorker) {
      const w = new Worker('kplace-worker.js');
      w.onmessage = (e) => {
        if (w !== explainWorker) return;
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
  function runInWorker(seq, text) {
    if (worker && workerBusy) {
      worker.terminate();
      worker = null;
    }
    if (!worker) worker = startWorker();
    workerBusy = true;
    worker.seq = seq;
    worker.postMessage({ seq, text });
  }

  const api = {
    ready: new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; }),
    load(text) {
      need();
      // 1: ran, 0: input error, 2: runs in the background (onResult fires when it lands)
      return withString(String(text), (p) => mod._kplace_app_load(p)) === 1 ? api.result() : null;
    },
    text() { need(); return str(mod._kplace_app_text()); },
    result() {
      need();
      const json = str(mod._kplace_app_result());
      return json ? JSON.parse(json) : null;
    },
    error() { need(); return str(mod._kplace_app_error()) || null; },
    stale() { need(); return mod._kplace_app_stale() === 1; },
    running() { need(); return mod._kplace_app_running() === 1; },
    setTaintEffect(node, i, effect) { return edit('taintEffect', node, i, effect || '', ''); },
    removeTaint(node, i) { return edit('removeTaint', node, i, '', ''); },
    cordon(node, on = true) { return edit(on ? 'cordon' : 'uncordon', node, 0, '', ''); },
    addToleration(pod, node, i) { return edit('addToleration', node, i, '', pod); },
    undo() { need(); return mod._kplace_app_undo() === 1; },
    explanation(pod) {
      need();
      const json = withString(String(pod), (p) => str(mod._kplace_app_explanation(p)));
      return json ? JSON.parse(json) : null;
    },
    targets() { need(); return JSON.parse(str(mod._kplace_app_targets())); },
    setMode(m) { need(); return withString(String(m), (p) => mod._kplace_app_set_mode(p)) === 1; },
    onResult(cb) {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    presets() { need(); return JSON.parse(str(mod._kplace_app_presets())); },
    loadPreset(name) { need(); return withString(String(name), (p) => mod._kplace_app_load_preset(p)) === 1; },
    select(pod) { need(); withString(String(pod || ''), (p) => mod._kplace_app_select(p)); },
    frames() { return mod ? mod._kplace_app_frames() : 0; },
    timing() { return { ...timing }; },
  };
  window.kplace = api;

  function notify() {
    if (listeners.size === 0) return;
    const result = api.result();
    for (const cb of listeners) {
      try { cb(result); } catch (e) { console.error(e); }
    }
  }

  // Emscripten's GLFW has no clipboard. Copy goes out through navigator.clipboard (from the app); paste comes in
  // here: the paste event fires before the next frame, where the app handles the Ctrl+V / Cmd+V it saw.
  document.addEventListener('paste', (e) => {
    if (!mod || !e.clipboardData) return;
    withString(e.clipboardData.getData('text/plain'), (p) => mod._kplace_app_paste(p));
    e.preventDefault();
  });

  canvas.addEventListener('webglcontextlost', (e) => {
    e.preventDefault();
    show('The graphics context was lost. Reload the page to continue.', true);
  });

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
        onKplaceRunAsync: (seq, text) => runInWorker(seq, text),
        onKplaceExplainAsync: (seq, text, pod) => explainInWorker(seq, text, pod),
      }),
    ]);
    mod = m;
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

  start().then(() => resolveReady(api), (e) => {
    show(e.message || String(e), true);
    console.error(e);
    rejectReady(e);
  });
})();
