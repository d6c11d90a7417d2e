// kplace's Web Worker: the same wasm core as the page (kplace-core.js/.wasm, the C API in wasm/api.cpp) for runs
// too large for a frame, the cluster import and the YAML export. Messages are JSON-friendly objects:
//   in:  {seq, text, pod?}             a scenario to run (seq: the app's edit generation; text: a string, or its
//                                      UTF-8 bytes, a Uint8Array); with pod: record that pod's explanation
//                                      (kplace_explain)
//   out: {type: "progress", done, total}  while a run goes (at most every 50 ms; posted by the core itself)
//        {seq, pod?, envelope}         the answer as text: {"status":"success","result":{...}} or the failure
//   in:  {seq, text, disruption: true, node}  Karpenter's disruption dry run of text (kplace_disruption), with
//                                      node's explanation when node is not ""
//   out: {seq, disruption: true, node, envelope}
//   in:  {type: "part", id, text}      the start of the next message's text (a long text comes in parts)
//   in:  {type: "import", id, text}    a cluster dump (kubectl's JSON or YAML in any shape, Karpenter kwok's
//                                      instance_types.json) to turn into a scenario: the core's kplace_import
//   out: {type: "import", id, scenarioBytes, import} | {type: "import", id, error}  (scenarioBytes: the scenario's
//                                      UTF-8, transferred; import: the core's summary, with the sentence to show in
//                                      import.message)
//   in:  {type: "yaml", id, text}      a scenario to export as YAML: the core's kplace_to_yaml
//   out: {type: "yaml", id, yaml} | {type: "yaml", id, error}
// The page terminates and restarts the worker when a newer edit supersedes a run that is still going.
/* global createKplaceCore, importScripts */
'use strict';
importScripts('kplace-core.js', 'js/utf8.js');

let core = null;  // the wasm core, instantiated on first use
const getCore = () => core || (core = createKplaceCore());

// fn called with strings in the heap; its answer read by read(out) (as text by default), then freed.
function callCore(mod, fn, strings, read = (out) => mod.UTF8ToString(out)) {
  const ptrs = strings.map((s) => self.kplaceToHeap(mod, s));  // js/utf8.js, as the page encodes
  try {
    const out = fn(...ptrs);
    try {
      return read(out);
    } finally {
      mod._kplace_free(out);
    }
  } finally {
    ptrs.forEach((p) => mod._free(p));
  }
}

// kplace_import of text: {import, scenarioBytes} or {error}. The scenario's bytes follow the envelope's NUL, copied
// out as they are and moved to the page (a 67 MB string would be cloned on its thread), which puts them in the app's
// heap and hands them to the run's worker without encoding.
function importDump(mod, text) {
  return callCore(mod, mod._kplace_import, [text], (out) => {
    const envelope = JSON.parse(mod.UTF8ToString(out));
    if (envelope.status !== 'success') return { error: envelope.errors[0].message };
    const at = mod.HEAPU8.indexOf(0, out) + 1;
    return { import: envelope.import, scenarioBytes: mod.HEAPU8.slice(at, at + envelope.scenarioBytes) };
  });
}

const parts = [];  // of the text to come

self.onmessage = async (e) => {
  if (e.data && e.data.type === 'part') {
    parts.push(e.data.text);
    return;
  }
  if (e.data && (e.data.type === 'import' || e.data.type === 'yaml')) {
    // The core does the work (kplace_import / kplace_to_yaml); the page gets the envelope's fields, or its error.
    const { type, id } = e.data;
    const text = parts.length ? parts.splice(0).join('') + e.data.text : e.data.text;
    let answer;
    try {
      const mod = await getCore();
      if (type === 'import') {
        answer = importDump(mod, text);
      } else {
        const envelope = JSON.parse(callCore(mod, mod._kplace_to_yaml, [text]));
        answer = envelope.status === 'success' ? envelope : { error: envelope.errors[0].message };
      }
    } catch (err) {
      answer = { error: `the background ${type} failed: ${err && err.message || err}` };
    }
    delete answer.status;
    self.postMessage({ type, id, ...answer }, answer.scenarioBytes ? [answer.scenarioBytes.buffer] : []);
    return;
  }
  const { seq, text, pod, disruption, node } = e.data;
  let envelope;
  try {
    const mod = await getCore();
    if (disruption) envelope = callCore(mod, mod._kplace_disruption, [text, node || '']);
    else if (pod) envelope = callCore(mod, mod._kplace_explain, [text, pod]);
    else envelope = callCore(mod, (p) => mod._kplace_run(p, 0), [text]);
  } catch (err) {
    envelope = JSON.stringify({ status: 'failure',
                                errors: [{ message: `the background run failed: ${err}`, internal: true }] });
  }
  self.postMessage({ seq, pod, disruption, node, envelope });
};
