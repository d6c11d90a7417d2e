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
//                     "tolerate:<node>" | "pod:<ns/name>" (a chip on a node card) | "tab:events" | "tab:pod":
//                     [x0, y0, x1, y1]} (tests click them)
//   frames()          frames drawn so far (tests wait on it)
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
//                     noise is ignored, finished pods left out, workloads whose pods are listed not expanded again,
//                     a Simulation (mode cluster) added when absent; the dump is prepared in a Web Worker
//   importFile(file)  the same for a File (the Import dialog, or a file dropped on the page)
//   exportScenario(fmt = "json" | "yaml", {save = true})  Promise<text>, downloaded as kplace-scenario.<fmt>
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
    if (!editable) return false;  // a read-only embed
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
  function explainInWorker(seq, text, pod) {
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
  function runInWorker(seq, text) {
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
    setMode(m) {
      need();
      return editable && withString(String(m), (p) => mod._kplace_app_set_mode(p)) === 1;
    },
    onResult(cb) {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    presets() { need(); return JSON.parse(str(mod._kplace_app_presets())); },
    loadPreset(name) { need(); return withString(String(name), (p) => mod._kplace_app_load_preset(p)) === 1; },
    select(pod) {
      need();
      selectedPod = String(pod || '');
      withString(selectedPod, (p) => mod._kplace_app_select(p));
    },
    frames() { return mod ? mod._kplace_app_frames() : 0; },
    shareLink: () => shareLink(),
    presetLink: (name) => `${pageBase()}?preset=${encodeURIComponent(name)}`,
    async loadLink(url) {
      need();
      const r = await applyLink(url);
      if (r.message) say(r.message, { error: true });
      if (r.ok) linkText = api.text();
      return r;
    },
    embedLink: (o) => embedLink(o),
    embedSnippet: (o) => embedSnippet(o),
    importText: (text, filename) => importText(text, filename),
    importFile: (file) => importFile(file),
    exportScenario: (fmt, o) => exportScenario(fmt, o),
    exportResult: (o) => exportResult(o),
    restoreLastEdit: () => restoreLastEdit(),
    lastEdit: () => lastEdit(),
    selected: () => selected(),
    message: () => currentMessage,
    embedded: () => ({ embed: embedMode, editable }),
    contentHeight: () => contentHeight(),
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
    if (!mod || !e.clipboardData || inOverlay(e.target)) return;
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
        onKplaceHeight: () => postHeight(),
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

  // ---- Share links, embeds, autosave, import and export (the HTML overlay in index.html) ------------------------
  // Link format: <page>#k1:<base64url(deflate-raw(JSON {s: scenario text, p: selected pod}))>; "j1:" is the same
  // without compression (browsers without CompressionStream). The prefix is the format version: a later format gets a
  // new prefix and old ones keep decoding. Query parameters override the fragment, which overrides the defaults:
  // ?preset=NAME, ?mode=scheduler|karpenter|cluster, ?pod=NS/NAME, ?embed=1 (&edit=1).
  const LINK_FORMATS = ['k1', 'j1'];
  const LINK_BUDGET = 8 * 1024;  // links longer than this do not survive chats, mail and issue trackers
  const AUTOSAVE_KEY = 'kplace:autosave';  // {text, pod, source: "edit" | "link", time}
  const PREVIOUS_KEY = 'kplace:previous';  // the local work a shared or preset link replaced
  const params = new URLSearchParams(location.search);
  const embedMode = /^(1|true|yes)$/i.test(params.get('embed') || '');
  const editable = !embedMode || /^(1|true|yes)$/i.test(params.get('edit') || '');
  const ui = (id) => document.getElementById(id);
  let selectedPod = '';
  let defaultText = null;   // the app's default preset, what a broken link falls back to
  let linkText = null;      // the scenario a link opened with (autosave marks it "link" until edited)
  let pinnedText = null;    // read-only embeds: the text edits are reverted to
  let lastSaved = null;
  let importSeq = 0;
  let currentMessage = null;

  function inOverlay(target) {
    return !!(target && target.closest && target.closest('#kp-ui, #kp-import-dialog'));
  }
  // Keys typed into the overlay's fields must not reach the app (GLFW listens on window, capture phase: this
  // listener is registered first, so it runs first). A read-only embed gives the app no keys at all.
  for (const type of ['keydown', 'keypress', 'keyup']) {
    window.addEventListener(type, (e) => {
      if (inOverlay(e.target) || (!editable && !e.ctrlKey && !e.metaKey)) e.stopImmediatePropagation();
    }, true);
  }

  function showProgress(done, total) {
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
  function say(text, { error = false, actions = [] } = {}) {
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

  function toBase64Url(bytes) {
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }
  function fromBase64Url(text) {
    if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) throw new Error('not base64url');
    const s = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
    const bytes = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
    return bytes;
  }
  async function through(bytes, stream) {
    return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
  }
  async function encodeState(text, pod) {
    const json = new TextEncoder().encode(JSON.stringify(pod ? { s: text, p: pod } : { s: text }));
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
    return { text: json.s, pod: typeof json.p === 'string' ? json.p : '' };
  }

  const pageBase = () => location.origin + location.pathname;
  function selected() {
    if (mod && typeof mod._kplace_app_selected === 'function') return str(mod._kplace_app_selected());
    return selectedPod;
  }
  function utf8Size(s) { return new TextEncoder().encode(s).length; }
  function kb(n) { return n < 1024 ? `${n} bytes` : `${(n / 1024).toFixed(1)} KB`; }

  // Applies a link's state to this page. Returns {ok, message}; a bad link opens the default preset.
  async function applyLink(href) {
    const u = new URL(href, location.href);
    const q = u.searchParams;
    let text = null, pod = '', problem = null;
    const fragment = u.hash.replace(/^#/, '');
    if (fragment) {
      try {
        ({ text, pod } = await decodeState(fragment));
      } catch (e) {
        if (!(e instanceof LinkError)) throw e;
        problem = `This link could not be opened: ${e.message}. Showing the default scenario instead.`;
      }
    }
    const preset = q.get('preset');
    let presetOk = false;
    if (preset) {
      if (api.presets().some((p) => p.name === preset)) {
        presetOk = true;
        problem = null;
      } else {
        problem = `There is no preset named "${preset}". Showing the default scenario instead.`;
      }
    }
    if (presetOk) {
      api.loadPreset(preset);
    } else if (text !== null && !problem) {
      api.load(text);
    } else if (problem) {
      api.load(defaultText);
    } else {
      return { ok: false, message: null };  // nothing in the link
    }
    const mode = q.get('mode');
    if (mode && !problem) api.setMode(mode);
    const qpod = q.get('pod');
    if (qpod !== null) pod = qpod;
    if (!problem) api.select(pod);
    return { ok: !problem, message: problem };
  }

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
  let warnedTooLarge = false;
  function autosave() {
    if (embedMode || !mod) return;
    const text = api.text();
    const pod = selected();
    if (lastSaved && lastSaved.text === text && lastSaved.pod === pod) return;
    const source = text === linkText ? 'link' : 'edit';
    const entry = { text, pod, source, time: Date.now() };
    if (!writeStore(AUTOSAVE_KEY, entry)) {
      if (!warnedTooLarge) say('This scenario is too large to autosave in the browser; export it to keep it.');
      warnedTooLarge = true;
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
  let saveTimer = 0;
  function autosaveSoon() {
    if (embedMode) return;
    clearTimeout(saveTimer);
    saveTimer = setTimeout(autosave, 400);
  }
  function lastEdit() {
    const prev = readStore(PREVIOUS_KEY);
    return prev ? { text: prev.text, pod: prev.pod || '', time: prev.time } : null;
  }
  function updateRestore() {
    const b = ui('kp-restore');
    if (!b || !mod) return;
    const prev = lastEdit();
    b.hidden = embedMode || !prev || prev.text === (lastSaved ? lastSaved.text : api.text());
  }
  function restoreLastEdit() {
    need();
    const prev = lastEdit();
    if (!prev) return false;
    linkText = null;
    if (location.hash || location.search) history.replaceState(null, '', pageBase());
    api.load(prev.text);
    api.select(prev.pod);
    autosave();
    say(null);
    updateRestore();
    return true;
  }

  async function shareLink() {
    need();
    return pageBase() + '#' + await encodeState(api.text(), selected());
  }
  async function embedLink({ edit = false } = {}) {
    return pageBase() + (edit ? '?embed=1&edit=1' : '?embed=1') + '#' + await encodeState(api.text(), selected());
  }
  async function embedSnippet({ edit = false, height = 480 } = {}) {
    const src = await embedLink({ edit });
    const origin = new URL(src).origin;
    return `<iframe src="${src.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}" title="kplace scenario" width="100%" ` +
      `height="${height}" loading="lazy" style="border:0"></iframe>\n` +
      '<script>/* kplace embeds post {type: "kplace:height", height} to resize their iframe */\n' +
      `addEventListener("message", (e) => { if (e.origin !== "${origin}" || !e.data || e.data.type !== "kplace:height") return;\n` +
      '  for (const f of document.querySelectorAll("iframe")) if (f.contentWindow === e.source)\n' +
      '    f.style.height = Math.max(200, Math.min(2000, Number(e.data.height) || 0)) + "px"; });\n</' + 'script>';
  }

  function download(name, text, type) {
    const url = URL.createObjectURL(new Blob([text], { type }));
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }
  let yamlModule = null;
  const loadYaml = () => yamlModule || (yamlModule = import('./vendor/yaml.js').then((m) => m.default || m));
  async function exportScenario(format = 'json', { save = true } = {}) {
    need();
    let text = api.text();
    if (format === 'yaml') {
      const YAML = await loadYaml();
      text = YAML.stringify(JSON.parse(text));
    } else if (format !== 'json') {
      throw new Error(`unknown format "${format}" (json or yaml)`);
    }
    if (save) download(`kplace-scenario.${format}`, text, format === 'yaml' ? 'application/yaml' : 'application/json');
    return text;
  }
  function exportResult({ save = true } = {}) {
    need();
    const json = str(mod._kplace_app_result());
    if (!json) return null;
    const text = JSON.stringify(JSON.parse(json), null, 2) + '\n';
    if (save) download('kplace-result.json', text, 'application/json');
    return text;
  }

  // Import: kubectl output, manifests (JSON or YAML), Karpenter kwok instance types. The worker flattens and
  // trims the dump (a 150,000-pod dump is parsed off the main thread); the page then loads the scenario, which
  // runs in the background when large.
  function inImportWorker(message) {
    return new Promise((resolve) => {
      const w = new Worker('kplace-worker.js');
      const id = ++importSeq;
      w.onmessage = (e) => {
        if (e.data.type !== 'import' || e.data.id !== id) return;
        w.terminate();
        resolve(e.data);
      };
      w.onerror = (e) => {
        e.preventDefault();
        w.terminate();
        resolve({ error: e.message || 'the import worker failed' });
      };
      w.postMessage({ type: 'import', id, ...message });
    });
  }
  async function importText(text, filename = '') {
    need();
    text = String(text);
    const isYamlName = /\.ya?ml$/i.test(filename);
    const step = (s) => { ui('kp-progress').hidden = false; ui('kp-progress').textContent = s; };
    try {
      step(`Importing ${filename || 'pasted text'} (${kb(text.length)})\u2026`);
      let answer = null;
      if (!isYamlName && /^\s*[[{]/.test(text)) answer = await inImportWorker({ text, filename });
      if (answer && answer.yaml) {
        // It looks like JSON but does not parse: the JSON error says more than a YAML one would.
        throw new Error(`${filename || 'the pasted text'}: ${answer.error}`);
      }
      if (!answer) {
        step('Converting YAML\u2026');
        const YAML = await loadYaml();
        const docs = YAML.parseAllDocuments(text, { maxAliasCount: -1 });
        for (const d of docs) {
          if (d.errors && d.errors.length) throw new Error(`${filename || 'YAML'}: ${d.errors[0].message}`);
        }
        answer = await inImportWorker({ docs: docs.map((d) => d.toJS()).filter((d) => d != null), filename });
      }
      if (answer.error) throw new Error(`${filename || 'the pasted text'}: ${answer.error}`);
      const s = answer.summary;
      step(`Loading ${s.nodes} nodes, ${s.pods} pods\u2026`);
      await new Promise((r) => setTimeout(r, 0));
      linkText = null;
      api.load(answer.text);
      if (location.hash || location.search) history.replaceState(null, '', pageBase() + (embedMode ? location.search : ''));
      const parts = [`Imported ${s.nodes} nodes and ${s.pods} pods (${s.bound} bound`];
      if (s.daemonSetPods) parts.push(`${s.daemonSetPods} DaemonSet pods`);
      let msg = parts.join(', ') + ')';
      if (s.instanceTypes) msg += `, ${s.instanceTypes} instance types`;
      if (s.terminal) msg += `; ${s.terminal} finished pods (Succeeded/Failed) left out`;
      if (s.workloadsDropped) msg += `; ${s.workloadsDropped} workloads whose pods are listed not expanded again`;
      if (s.simulationAdded) msg += '; a Simulation item was added (mode cluster)';
      const error = api.error();
      if (error) msg += `. The scenario has an error: ${error}`;
      say(msg + '.', { error: !!error });
      autosaveSoon();
      return { ok: !error, summary: s, error };
    } catch (e) {
      say(`Import failed: ${e.message}`, { error: true });
      return { ok: false, error: e.message };
    } finally {
      if (!api.running()) ui('kp-progress').hidden = true;
    }
  }
  async function importFile(file) {
    return importText(await file.text(), file.name);
  }

  // ---- embeds: height for the parent page, read-only guard ----
  // The app measures the height its content needs after each frame's layout (the top bar, every card of the
  // cluster view at the current width, an inspector below; CSS px, 320..1600) and calls onKplaceHeight when it
  // changes: after the frame that laid out a new result, a new width or the folded / unfolded editor. It does not
  // depend on the iframe's height, so resizing the iframe to it is stable.
  const FALLBACK_HEIGHT = 480;  // only until the app has drawn its first frame
  let postedHeight = 0;
  let heightReady = false;      // set once the link's scenario is loaded: earlier heights belong to the default
  function contentHeight() {
    const h = mod ? mod._kplace_app_content_height() : 0;
    return h > 0 ? h : FALLBACK_HEIGHT;
  }
  function postHeight() {
    if (!embedMode || !heightReady || window.parent === window) return;
    const height = contentHeight();
    if (height === postedHeight) return;
    postedHeight = height;
    window.parent.postMessage({ type: 'kplace:height', height }, '*');
  }
  // Resolves after the app drew n more frames.
  function afterFrames(n = 1) {
    return new Promise((resolve) => {
      const target = api.frames() + n;
      const poll = () => (api.frames() >= target ? resolve() : requestAnimationFrame(poll));
      requestAnimationFrame(poll);
    });
  }
  let openLinkState = null;  // the text and pod "Open in kplace" carries
  let openLinkSeq = 0;
  async function updateOpenLink() {
    const a = ui('kp-open');
    if (!a || !embedMode || !mod) return;
    const state = api.text() + '\u0000' + selected();
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

  function wireOverlay() {
    const bar = ui('kp-ui');
    if (!bar) return;
    bar.hidden = false;
    document.body.classList.toggle('embed', embedMode);
    ui('kp-copy-link').addEventListener('click', async () => {
      const url = await shareLink();
      const size = utf8Size(url);
      let copied = true;
      try {
        await navigator.clipboard.writeText(url);
      } catch (e) {
        copied = false;
      }
      const what = copied ? `Link copied (${kb(size)})` : `Copy this link (${kb(size)}): ${url}`;
      if (size > LINK_BUDGET) {
        say(`${what}. It is over ${LINK_BUDGET / 1024} KB: chats, mail and issue trackers may cut it. ` +
            'Share the scenario file instead.', { actions: [{ label: 'Download the scenario', run: () => exportScenario('json') }] });
      } else {
        say(what + '.');
      }
      ui('kp-size').textContent = kb(size);
    });
    ui('kp-copy-embed').addEventListener('click', async () => {
      const snippet = await embedSnippet();
      try {
        await navigator.clipboard.writeText(snippet);
        say(`Embed snippet copied (${kb(utf8Size(snippet))}): an iframe with loading="lazy" and a resize listener.`);
      } catch (e) {
        say(`Copy this embed snippet: ${snippet}`);
      }
    });
    const dialog = ui('kp-import-dialog');
    ui('kp-import').addEventListener('click', () => {
      ui('kp-import-text').value = '';
      if (dialog.showModal) dialog.showModal(); else dialog.setAttribute('open', '');
    });
    ui('kp-import-cancel').addEventListener('click', () => dialog.close());
    ui('kp-import-go').addEventListener('click', async () => {
      const file = ui('kp-import-file').files[0];
      const text = ui('kp-import-text').value;
      dialog.close();
      if (file) await importFile(file);
      else if (text.trim()) await importText(text, '');
    });
    ui('kp-export').addEventListener('change', async (e) => {
      const v = e.target.value;
      e.target.value = '';
      try {
        if (v === 'result') {
          if (!exportResult()) say('There is no result to export yet.');
        } else if (v) {
          await exportScenario(v);
        }
      } catch (err) {
        say(`Export failed: ${err.message}`, { error: true });
      }
    });
    ui('kp-restore').addEventListener('click', () => restoreLastEdit());
    // Drop a file anywhere on the page to import it.
    window.addEventListener('dragover', (e) => {
      if (!editable || !e.dataTransfer || !Array.from(e.dataTransfer.types || []).includes('Files')) return;
      e.preventDefault();
      e.stopPropagation();
    }, true);
    window.addEventListener('drop', (e) => {
      if (!editable || !e.dataTransfer || !e.dataTransfer.files.length) return;
      e.preventDefault();
      e.stopPropagation();
      importFile(e.dataTransfer.files[0]);
    }, true);
    window.addEventListener('pagehide', autosave);
    document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') autosave(); });
    canvas.addEventListener('keyup', autosaveSoon);
    window.addEventListener('keyup', autosaveSoon);
    canvas.addEventListener('pointerup', autosaveSoon);
  }

  async function afterStart() {
    defaultText = api.text();
    if (embedMode) {
      document.body.classList.add('embed');
      if (mod && typeof mod._kplace_app_set_embed === 'function') mod._kplace_app_set_embed(editable ? 1 : 0);
    }
    wireOverlay();
    const saved = embedMode ? null : readStore(AUTOSAVE_KEY);
    let opened = { ok: false, message: null };
    try {
      opened = await applyLink(location.href);
    } catch (e) {
      opened = { ok: false, message: `This link could not be opened (${e.message}). Showing the default scenario instead.` };
      api.load(defaultText);
    }
    if (opened.ok) {
      linkText = api.text();
      // The link wins, but the local work it replaced stays one click away.
      if (saved && saved.source === 'edit' && saved.text !== linkText) writeStore(PREVIOUS_KEY, saved);
      lastSaved = embedMode ? null : { text: linkText, pod: selected(), source: 'link' };
      if (!embedMode) writeStore(AUTOSAVE_KEY, { ...lastSaved, time: Date.now() });
    } else if (opened.message) {
      say(opened.message, { error: true });
      if (saved && saved.source === 'edit') writeStore(PREVIOUS_KEY, saved);
    } else if (saved) {
      api.load(saved.text);
      api.select(saved.pod || '');
      lastSaved = saved;
    }
    updateRestore();
    if (embedMode) {
      pinnedText = editable ? null : api.text();
      ui('kp-open').hidden = false;
      updateOpenLink();
      // A pod selected by a click on the canvas travels in "Open in kplace" too.
      canvas.addEventListener('pointerup', () => afterFrames(1).then(updateOpenLink));
      // From here on the app's height notifications are posted; the first one after the link's scenario was laid out.
      heightReady = true;
      afterFrames(1).then(postHeight);
    }
    let reverting = false;
    api.onResult(() => {
      if (pinnedText !== null && !reverting && api.text() !== pinnedText) {
        reverting = true;  // read-only embed: a click edited the text; put it back
        try { api.load(pinnedText); } finally { reverting = false; }
        return;
      }
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
})();
