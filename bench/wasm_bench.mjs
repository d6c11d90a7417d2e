// The native benchmarks' scenarios run through the WebAssembly core under node (what the page and its worker run).
// Reports milliseconds and pods/s per scenario; figures, not thresholds.
//   node bench/wasm_bench.mjs [FILTER]   (after `cmake --build --preset wasm`; scripts/bench.sh runs it when built;
//                                         FILTER: run only the cases whose name contains it)
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const siteDir = path.resolve(process.env.KPLACE_SITE || path.join(repoRoot, 'build/wasm/site'));

// Same shape as bench/scheduler_bench.cpp GenerateCluster.
function cluster(numNodes, numPods) {
  const items = [{ apiVersion: 'kplace.dev/v1alpha1', kind: 'Simulation', metadata: { name: 'bench' },
                   spec: { mode: 'scheduler', seed: 1 } }];
  const zones = ['zone-a', 'zone-b', 'zone-c'];
  for (let i = 0; i < numNodes; ++i) {
    const name = `node-${i}`;
    const node = { apiVersion: 'v1', kind: 'Node',
                   metadata: { name, labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': zones[i % 3],
                                               'node.kubernetes.io/instance-type': i % 2 ? 'm5.large' : 'm5.xlarge' } },
                   status: { allocatable: { cpu: i % 2 ? '2' : '4', memory: '16Gi', pods: '110' } } };
    if (i % 10 === 0) node.spec = { taints: [{ key: 'dedicated', value: 'batch', effect: 'NoSchedule' }] };
    items.push(node);
  }
  for (let i = 0; i < numPods; ++i) {
    const app = `app-${i % 20}`;
    items.push({ apiVersion: 'v1', kind: 'Pod',
                 metadata: { name: `pod-${i}`, namespace: 'default', labels: { app } },
                 spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m', memory: '256Mi' } } }],
                         tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'batch', effect: 'NoSchedule' }],
                         affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [
                           { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In',
                                                  values: ['zone-a', 'zone-b', 'zone-c'] }] }] } } },
                         topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone',
                                                       whenUnsatisfiable: 'DoNotSchedule',
                                                       labelSelector: { matchLabels: { app } } }] } });
  }
  return { apiVersion: 'v1', kind: 'List', items };
}

// Same shape as bench/scheduler_bench.cpp GeneratePreemption (upstream's PreemptionAsync workload).
function preemption(numNodes, initPods, highPods, measurePods) {
  const items = [{ apiVersion: 'kplace.dev/v1alpha1', kind: 'Simulation', metadata: { name: 'bench-preemption' },
                   spec: { mode: 'scheduler', seed: 1 } }];
  for (let i = 0; i < numNodes; ++i) {
    const name = `node-${i}`;
    items.push({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name } },
                 status: { allocatable: { cpu: '4', memory: '32Gi', pods: '110' } } });
  }
  const pod = (name, cpu, priority) => ({
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
    spec: { priority, containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10',
                                     resources: { requests: { cpu, memory: '500Mi' } } }] } });
  for (let i = 0; i < initPods; ++i) {
    const p = pod(`low-${i}`, '900m', 1);
    p.spec.nodeName = `node-${i % numNodes}`;
    p.status = { startTime: '2026-01-01T00:00:00Z' };
    items.push(p);
  }
  for (let i = 0; i < highPods; ++i) items.push(pod(`high-${i}`, '3', 10));
  for (let i = 0; i < measurePods; ++i) items.push(pod(`pod-${i}`, '100m', 0));
  return { apiVersion: 'v1', kind: 'List', items };
}

// Same shape as bench/karpenter_bench.cpp JsonScenario (upstream's Karpenter scheduling benchmark): 400 instance
// types, one NodePool with huge limits, diverse pods in fifths; the same LCG draws the same requests.
function karpenterScenario(count) {
  let state = 42;
  const next = (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state >>> 16) % n;
  };
  const cpus = [100, 250, 500, 1000, 1500];
  const mems = [100, 256, 512, 1024, 2048, 4096];
  const values = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
  const zoneKey = 'topology.kubernetes.io/zone';
  const hostKey = 'kubernetes.io/hostname';
  const items = [
    { apiVersion: 'kplace.dev/v1alpha1', kind: 'Simulation', metadata: { name: 'bench-karpenter' }, spec: { mode: 'karpenter' } },
    { apiVersion: 'karpenter.sh/v1', kind: 'NodePool', metadata: { name: 'default' },
      spec: { limits: { cpu: '10000000', memory: '10000000Gi' }, template: { spec: { requirements: [] } } } },
  ];
  const offerings = [['test-zone-1', 'spot'], ['test-zone-2', 'spot'], ['test-zone-1', 'on-demand'],
                     ['test-zone-2', 'on-demand'], ['test-zone-3', 'on-demand']];
  for (let i = 0; i < 400; ++i) {
    const cpu = i + 1;
    const memory = 2 * cpu * 2 ** 30;
    const large = cpu > 4 && memory > 8 * 2 ** 30;
    const labels = { 'kubernetes.io/arch': 'amd64', size: large ? 'large' : 'small', integer: String(cpu) };
    const requirements = [{ key: 'kubernetes.io/os', operator: 'In', values: ['darwin', 'linux', 'windows'] }];
    if (large) labels.special = 'optional';
    else requirements.push({ key: 'special', operator: 'DoesNotExist' });
    const price = 0.1 * cpu + 0.1 * memory / 1e9;
    items.push({ apiVersion: 'kplace.dev/v1alpha1', kind: 'InstanceType', metadata: { name: `fake-it-${i}`, labels },
                 spec: { capacity: { cpu: String(cpu), memory: `${2 * cpu}Gi`, pods: String(10 * cpu) },
                         overhead: { cpu: '100m', memory: '10Mi' }, requirements,
                         offerings: offerings.map(([zone, capacityType]) => ({ zone, capacityType, price })) } });
  }
  const fifth = Math.floor(count / 5);
  const kinds = [['generic', fifth], ['zone-spread', fifth], ['host-spread', fifth], ['zone-affinity', fifth],
                 ['host-anti', fifth], ['generic', count - 5 * fifth]];
  let n = 0;
  for (const [kind, num] of kinds) {
    for (let i = 0; i < num; ++i) {
      let labelKey = 'my-label', labelValue, selectorValue;
      if (kind === 'generic') labelValue = values[next(7)];
      else if (kind === 'zone-spread' || kind === 'host-spread') { labelValue = values[next(7)]; selectorValue = values[next(7)]; }
      else if (kind === 'zone-affinity') { labelKey = 'my-affininity'; labelValue = values[next(7)]; }
      else { labelKey = 'app'; labelValue = 'nginx'; }
      const cpu = cpus[next(5)];
      const mem = mems[next(6)];
      const spec = { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10',
                                    resources: { requests: { cpu: `${cpu}m`, memory: `${mem}Mi` } } }] };
      if (kind === 'zone-spread' || kind === 'host-spread') {
        spec.topologySpreadConstraints = [{ maxSkew: 1, topologyKey: kind === 'zone-spread' ? zoneKey : hostKey,
                                            whenUnsatisfiable: 'DoNotSchedule',
                                            labelSelector: { matchLabels: { 'my-label': selectorValue } } }];
      } else if (kind === 'zone-affinity' || kind === 'host-anti') {
        const term = { labelSelector: { matchLabels: { [labelKey]: labelValue } },
                       topologyKey: kind === 'zone-affinity' ? zoneKey : hostKey };
        spec.affinity = { [kind === 'zone-affinity' ? 'podAffinity' : 'podAntiAffinity']:
                            { requiredDuringSchedulingIgnoredDuringExecution: [term] } };
      }
      items.push({ apiVersion: 'v1', kind: 'Pod',
                   metadata: { name: `pod-${String(n++).padStart(5, '0')}`, namespace: 'default', labels: { [labelKey]: labelValue } },
                   spec,
                   status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] } });
    }
  }
  return { apiVersion: 'v1', kind: 'List', items };
}

const require = createRequire(import.meta.url);
const createKplaceCore = require(path.join(siteDir, 'kplace-core.js'));
const mod = await createKplaceCore({ wasmBinary: readFileSync(path.join(siteDir, 'kplace-core.wasm')) });

function run(text) {
  // The scenario goes through the heap (ccall's 'string' would put megabytes on the stack).
  const size = mod.lengthBytesUTF8(text) + 1;
  const buf = mod._malloc(size);
  mod.stringToUTF8(text, buf, size);
  try {
    const ptr = mod.ccall('kplace_run', 'number', ['number', 'number'], [buf, 0]);
    try {
      return JSON.parse(mod.UTF8ToString(ptr));
    } finally {
      mod.ccall('kplace_free', null, ['number'], [ptr]);
    }
  } finally {
    mod._free(buf);
  }
}

const cases = [
  ['BM_Schedule/500/1000', () => cluster(500, 1000), 1000],
  ['BM_Schedule/5000/10000', () => cluster(5000, 10000), 10000],
  ['BM_PreemptionAsync/500/2000/10/500', () => preemption(500, 2000, 10, 500), 510],
  ['BM_PreemptionAsync/5000/20000/100/5000', () => preemption(5000, 20000, 100, 5000), 5100],
  ['BM_KarpenterProvisionJson/1000', () => karpenterScenario(1000), 1000],
  ['BM_KarpenterProvisionJson/5000', () => karpenterScenario(5000), 5000],
];
console.log(`kplace ${mod.ccall('kplace_version', 'string', [], [])} (wasm, node ${process.version})`);
const filter = process.argv[2] || '';
for (const [name, make, pods] of cases) {
  if (!name.includes(filter)) continue;
  const text = JSON.stringify(make());
  const start = performance.now();
  const out = run(text);
  const ms = performance.now() - start;
  if (out.status !== 'success') throw new Error(`${name}: ${JSON.stringify(out.errors)}`);
  const placed = Object.values(out.result.pods).filter((p) => p.node || p.nodeClaim).length;
  const claims = out.result.nodeClaims ? out.result.nodeClaims.length : 0;
  if (name.startsWith('BM_Karpenter') && placed !== pods) throw new Error(`${name}: scheduled ${placed} of ${pods} pods`);
  console.log(`${name.padEnd(42)} ${ms.toFixed(0).padStart(7)} ms   ${(pods / (ms / 1000)).toFixed(0).padStart(6)} pods/s` +
              `   placed=${placed} preempted=${(out.result.preempted || []).length} nodeclaims=${claims}`);
}
