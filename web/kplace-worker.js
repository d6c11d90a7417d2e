// kplace's Web Worker: the same wasm core as the page (kplace-core.js/.wasm, the C API in wasm/api.cpp) for runs
// too large for a frame, and the cluster import's heavy lifting. Messages are JSON-friendly objects:
//   in:  {seq, text, pod?}             a scenario to run (seq: the app's edit generation); with pod: record that
//                                      pod's explanation (kplace_explain)
//   out: {type: "progress", done, total}  while a run goes (at most every 50 ms; posted by the core itself)
//        {seq, pod?, envelope}         the answer as text: {"status":"success","result":{...}} or the failure
//   in:  {type: "import", id, text? | docs?, filename}   a cluster dump to turn into a scenario: text is JSON
//                                      (kubectl's List, one object, an array, Karpenter kwok's instance_types.json);
//                                      docs are objects the page already parsed from YAML
//   out: {type: "import", id, text, summary} | {type: "import", id, error, yaml?}  (yaml: the text is not JSON)
// The page terminates and restarts the worker when a newer edit supersedes a run that is still going.
/* global createKplaceCore, importScripts */
'use strict';
importScripts('kplace-core.js');

let core = null;  // the wasm core, instantiated on first use (an import without kwok types never needs it)
const getCore = () => core || (core = createKplaceCore());

function callCore(mod, fn, ...strings) {
  const ptrs = strings.map((s) => {
    const size = mod.lengthBytesUTF8(s) + 1;
    const p = mod._malloc(size);
    mod.stringToUTF8(s, p, size);
    return p;
  });
  try {
    const out = fn(...ptrs);
    const text = mod.UTF8ToString(out);
    mod._kplace_free(out);
    return text;
  } finally {
    ptrs.forEach((p) => mod._free(p));
  }
}

// ---- import: kubectl output / manifests -> one kplace scenario (a List, one item per line) -------------------
const WORKLOADS = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet']);
const TERMINAL = new Set(['Succeeded', 'Failed']);

// Flattens Lists (kubectl's List and typed lists such as PodList, whose items carry no kind) and arrays.
function collect(doc, out) {
  if (Array.isArray(doc)) {
    for (const d of doc) collect(d, out);
  } else if (doc && typeof doc === 'object') {
    const kind = typeof doc.kind === 'string' ? doc.kind : '';
    if (Array.isArray(doc.items) && (kind.endsWith('List') || !kind)) {
      const itemKind = kind.length > 4 && kind !== 'List' ? kind.slice(0, -4) : '';
      for (const item of doc.items) {
        if (item && typeof item === 'object' && !Array.isArray(item) && !item.kind && itemKind) {
          item.kind = itemKind;
          if (!item.apiVersion && doc.apiVersion) item.apiVersion = doc.apiVersion;
        }
        collect(item, out);
      }
    } else {
      out.push(doc);
    }
  }
}

// Karpenter's kwok provider instance_types.json: an array of {name, offerings, capacity, ...} without kind.
const isKwokTypes = (doc) => Array.isArray(doc) && doc.length > 0 &&
  doc.every((t) => t && typeof t === 'object' && !t.kind && typeof t.name === 'string' && Array.isArray(t.offerings));

const key = (kind, ns, name) => `${kind}/${ns || 'default'}/${name}`;

function normalize(objects) {
  const summary = { items: 0, nodes: 0, pods: 0, bound: 0, daemonSetPods: 0, terminal: 0, workloadsDropped: 0,
                    instanceTypes: 0, simulationAdded: false };
  const owned = new Set();       // workloads whose pods are listed (they must not expand again)
  const rsOwner = new Map();     // ReplicaSet key -> its Deployment key
  for (const o of objects) {
    if (o.kind === 'Pod' && !TERMINAL.has(o.status && o.status.phase)) {
      for (const r of (o.metadata && o.metadata.ownerReferences) || []) {
        if (r && WORKLOADS.has(r.kind)) owned.add(key(r.kind, o.metadata.namespace, r.name));
      }
    }
    if (o.kind === 'ReplicaSet' && o.metadata) {
      for (const r of o.metadata.ownerReferences || []) {
        if (r && r.kind === 'Deployment') {
          rsOwner.set(key('ReplicaSet', o.metadata.namespace, o.metadata.name), key('Deployment', o.metadata.namespace, r.name));
        }
      }
    }
  }
  // A Deployment is represented by its ReplicaSets when they are listed.
  for (const [, d] of rsOwner) owned.add(d);
  const items = [];
  let haveSim = false;
  for (const o of objects) {
    const meta = o.metadata && typeof o.metadata === 'object' ? o.metadata : null;
    if (meta) {
      // Noise: accepted by the parser, but it makes large dumps twice as big.
      delete meta.managedFields;
      if (meta.annotations) delete meta.annotations['kubectl.kubernetes.io/last-applied-configuration'];
    }
    if (o.kind === 'Pod') {
      const phase = o.status && o.status.phase;
      if (TERMINAL.has(phase)) { summary.terminal++; continue; }
      summary.pods++;
      if (o.spec && o.spec.nodeName) summary.bound++;
      if (meta && (meta.ownerReferences || []).some((r) => r && r.kind === 'DaemonSet')) summary.daemonSetPods++;
      if (o.status) {
        // conditions: PodScheduled=False/Unschedulable marks the pods Karpenter provisions for; Ready and
        // DisruptionTarget matter to PodDisruptionBudgets and preemption.
        const { phase: p, nominatedNodeName, startTime, conditions } = o.status;
        o.status = { phase: p, nominatedNodeName, startTime, conditions };
      }
    } else if (o.kind === 'Node') {
      summary.nodes++;
      if (o.status) {
        const { allocatable, capacity, images } = o.status;
        o.status = { allocatable, capacity, images };
      }
    } else if (WORKLOADS.has(o.kind) && meta && owned.has(key(o.kind, meta.namespace, meta.name))) {
      summary.workloadsDropped++;
      continue;
    } else if (o.kind === 'InstanceType') {
      summary.instanceTypes++;
    } else if (o.kind === 'Simulation') {
      haveSim = true;
    }
    items.push(o);
  }
  if (!haveSim) {
    items.unshift({ apiVersion: 'kplace.dev/v1alpha1', kind: 'Simulation', metadata: { name: 'imported' },
                    spec: { mode: 'cluster' } });
    summary.simulationAdded = true;
  }
  summary.items = items.length;
  const text = '{ "apiVersion": "v1", "kind": "List", "items": [\n  ' + items.map((i) => JSON.stringify(i)).join(',\n  ') +
               '\n] }\n';
  return { text, summary };
}

async function importDump({ text, docs }) {
  if (text !== undefined) {
    try {
      docs = [JSON.parse(text)];
    } catch (e) {
      return { error: `not JSON (${e.message})`, yaml: true };
    }
  }
  const objects = [];
  for (const doc of docs) {
    if (isKwokTypes(doc)) {
      const mod = await getCore();
      if (!mod._kplace_convert_kwok) return { error: 'this build cannot convert Karpenter kwok instance types' };
      const converted = JSON.parse(callCore(mod, mod._kplace_convert_kwok, JSON.stringify(doc)));
      if (converted && converted.error) return { error: `kwok instance types: ${converted.error}` };
      collect(converted, objects);
    } else {
      collect(doc, objects);
    }
  }
  if (objects.length === 0) return { error: 'no Kubernetes objects found (expected a List, objects or manifests)' };
  const bad = objects.findIndex((o) => typeof o.kind !== 'string' || !o.kind);
  if (bad >= 0) return { error: `object ${bad} has no "kind"` };
  return normalize(objects);
}

self.onmessage = async (e) => {
  if (e.data && e.data.type === 'import') {
    let answer;
    try {
      answer = await importDump(e.data);
    } catch (err) {
      answer = { error: String(err && err.message || err) };
    }
    self.postMessage({ type: 'import', id: e.data.id, ...answer });
    return;
  }
  const { seq, text, pod } = e.data;
  let envelope;
  try {
    const mod = await getCore();
    envelope = pod ? callCore(mod, mod._kplace_explain, text, pod)
                   : callCore(mod, (p) => mod._kplace_run(p, 0), text);
  } catch (err) {
    envelope = JSON.stringify({ status: 'failure',
                                errors: [{ message: `the background run failed: ${err}`, internal: true }] });
  }
  self.postMessage({ seq, pod, envelope });
};
