// The page's WebAssembly core timed where the page runs it: a Web Worker in Chromium (bench/bench.mjs serves this at
// /__core-runner.js next to the site, and the scenarios under /__bench/). As bench.mjs does under node: one module
// compiled once and kept (its code tiers up across the runs, as in the page's long-lived worker), a fresh instance per
// run, the scenario's bytes copied in before the clock starts (by the page's own js/utf8.js), kplace_run timed alone.
//   in:  {file}             a scenario under /__bench/ to run once
//   out: {seconds, sha256}  the run's time, the answer's SHA-256 (hex)
//        {error}
// The core posts {type: "progress"} messages while it runs, as it does in the page's worker: bench.mjs skips them.
/* global createKplaceCore, importScripts */
'use strict';
importScripts('/kplace-core.js', '/js/utf8.js');

let compiled = null;
let scenario = { file: null, bytes: null };  // the last file's bytes, fetched once for its runs

self.onmessage = async (e) => {
  try {
    const { file } = e.data;
    if (!compiled) compiled = WebAssembly.compile(await (await fetch('/kplace-core.wasm')).arrayBuffer());
    const module = await compiled;
    if (scenario.file !== file)
      scenario = { file, bytes: new Uint8Array(await (await fetch(`/__bench/${file}`)).arrayBuffer()) };
    const { bytes } = scenario;
    const core = await createKplaceCore({
      instantiateWasm: (imports, receive) => {
        const instance = new WebAssembly.Instance(module, imports);
        receive(instance, module);
        return instance.exports;
      },
    });
    const buf = self.kplaceToHeap(core, bytes);
    const start = performance.now();
    const answer = core._kplace_run(buf, 0);
    const seconds = (performance.now() - start) / 1000;
    const end = core.HEAPU8.indexOf(0, answer);
    const digest = await crypto.subtle.digest('SHA-256', core.HEAPU8.slice(answer, end));
    core._kplace_free(answer);
    const sha256 = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
    self.postMessage({ seconds, sha256 });
  } catch (err) {
    self.postMessage({ error: String(err && err.message || err) });
  }
};
