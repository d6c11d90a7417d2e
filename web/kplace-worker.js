// kplace's Web Worker: the same wasm core as the page (kplace-core.js/.wasm, the C API in wasm/api.cpp) for runs
// too large for a frame. Messages are JSON-friendly objects:
//   in:  {seq, text, pod?}             a scenario to run (seq: the app's edit generation); with pod: record that
//                                      pod's explanation (kplace_explain)
//   out: {seq, pod?, envelope}         the answer as text: {"status":"success","result":{...}} or the failure
// The page terminates and restarts the worker when a newer edit supersedes a run that is still going.
/* global createKplaceCore, importScripts */
'use strict';
importScripts('kplace-core.js');

const core = createKplaceCore();

self.onmessage = async (e) => {
  const { seq, text, pod } = e.data;
  let envelope;
  try {
    const mod = await core;
    const size = mod.lengthBytesUTF8(text) + 1;
    const input = mod._malloc(size);
    mod.stringToUTF8(text, input, size);
    let out;
    if (pod) {
      const podSize = mod.lengthBytesUTF8(pod) + 1;
      const podPtr = mod._malloc(podSize);
      mod.stringToUTF8(pod, podPtr, podSize);
      out = mod._kplace_explain(input, podPtr);
      mod._free(podPtr);
    } else {
      out = mod._kplace_run(input, 0);
    }
    mod._free(input);
    envelope = mod.UTF8ToString(out);
    mod._kplace_free(out);
  } catch (err) {
    envelope = JSON.stringify({ status: 'failure',
                                errors: [{ message: `the background run failed: ${err}`, internal: true }] });
  }
  self.postMessage({ seq, pod, envelope });
};
