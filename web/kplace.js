// The web shell: checks the browser, loads the fonts and the wasm app (kplace-app.js), glues the clipboard and
// exposes window.kplace, the embedding API. The canvas's CSS size comes from index.html; the app sizes its backing
// store itself. No simulation logic lives here.
//
// window.kplace:
//   ready             Promise, resolved when the app runs
//   load(text)        replace the scenario and re-run; returns the result, or null on an input error (see error())
//   text()            the scenario text in the editor
//   result()          the last good result: the same JSON as `kplace run --format json` (null before one)
//   error()           the current input error message, or null
//   stale()           true while the result on screen belongs to an older, valid text
//   setMode(m)        "scheduler" | "karpenter" | "cluster": sets the Simulation's spec.mode in the text
//   onResult(cb)      cb(result) after every new result; returns a function that unsubscribes
//   presets()         [{name, title, description}];  loadPreset(name);  select("namespace/pod")
//   frames()          frames drawn so far (tests wait on it)
//   timing()          {ready, firstFrame}: ms since navigation when the app started and drew its first frame
(function () {
  'use strict';
  const canvas = document.getElementById('canvas');
  const message = document.getElementById('message');
  const listeners = new Set();
  let mod = null;
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

  const api = {
    ready: new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; }),
    load(text) {
      need();
      return withString(String(text), (p) => mod._kplace_app_load(p)) ? api.result() : null;
    },
    text() { need(); return str(mod._kplace_app_text()); },
    result() {
      need();
      const json = str(mod._kplace_app_result());
      return json ? JSON.parse(json) : null;
    },
    error() { need(); return str(mod._kplace_app_error()) || null; },
    stale() { need(); return mod._kplace_app_stale() === 1; },
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
