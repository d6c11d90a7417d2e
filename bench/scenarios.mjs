// Generated benchmark scenarios (deterministic): the shapes and upstream scheduler_perf's workloads in their
// own shapes (kubernetes test/integration/scheduler_perf: misc/, affinity/, topology_spreading/ and
// default_preemption/ performance-config.yaml, templates/*.yaml). Each returns { scenario, pods, threshold? }:
// pods = the pods kplace schedules in the run (what pods/s counts); threshold = upstream's SchedulingThroughput
// Average floor for the workload (pods/s), where there is one.
//
// scheduler_perf schedules its init pods in a first op and measures only the next op's pods. Here the init pods are
// bound already (spec.nodeName, placed as upstream's scheduler would have to place them: anti-affinity pods one per
// node, the rest round-robin), so a run schedules exactly the measured pods; its time still includes reading them all.

const SIM = (name, mode = 'scheduler') => ({
  apiVersion: 'kplace.dev/v1alpha1', kind: 'Simulation', metadata: { name }, spec: { mode, seed: 1 },
});
const list = (items) => ({ apiVersion: 'v1', kind: 'List', items });

// templates/node-default.yaml and util.go makeBaseNode: 4 cpu, 32Gi, 110 pods, Ready; kubernetes.io/hostname.
function perfNode(i, zone) {
  const name = `scheduler-perf-${String(i).padStart(5, '0')}`;
  const labels = { 'kubernetes.io/hostname': name };
  if (zone) labels['topology.kubernetes.io/zone'] = zone;
  const resources = { cpu: '4', memory: '32Gi', pods: '110' };
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, labels }, spec: {},
           status: { capacity: resources, allocatable: resources, conditions: [{ type: 'Ready', status: 'True' }],
                     phase: 'Running' } };
}

// templates/pod-default.yaml (and the variants that add labels and affinity): pause, 100m / 500Mi requests = limits.
function perfPod(name, namespace, { labels, affinity, topologySpreadConstraints, priority, cpu = '100m', node } = {}) {
  const resources = { cpu, memory: '500Mi' };
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace },
                spec: { containers: [{ name: 'pause', image: 'registry.k8s.io/pause:3.10.1', ports: [{ containerPort: 80 }],
                                       resources: { requests: resources, limits: resources } }] } };
  if (labels) pod.metadata.labels = labels;
  if (priority !== undefined) pod.spec.priority = priority;
  if (affinity) pod.spec.affinity = affinity;
  if (topologySpreadConstraints) pod.spec.topologySpreadConstraints = topologySpreadConstraints;
  if (node !== undefined) {
    pod.spec.nodeName = node;
    pod.status = { phase: 'Running', startTime: '2026-01-01T00:00:00Z' };
  }
  return pod;
}

function perfWorkload(name, { nodes, zones, init, measure, initNamespace = 'namespace-1',
                              measureNamespace = 'namespace-2', initPlacement = (i) => i % nodes }) {
  const items = [SIM(name)];
  const nodeNames = [];
  for (let i = 0; i < nodes; ++i) {
    const node = perfNode(i, zones ? zones[i % zones.length] : undefined);
    nodeNames.push(node.metadata.name);
    items.push(node);
  }
  for (let i = 0; i < init.count; ++i)
    items.push(perfPod(`${init.prefix}${i}`, initNamespace, { ...init.options, node: nodeNames[initPlacement(i)] }));
  for (let i = 0; i < measure.count; ++i)
    items.push(perfPod(`${measure.prefix}${i}`, measureNamespace, measure.options));
  return list(items);
}

const podAntiAffinity = {
  labels: { color: 'green' },
  affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [
    { labelSelector: { matchLabels: { color: 'green' } }, topologyKey: 'kubernetes.io/hostname',
      namespaces: ['sched-1', 'sched-0'] }] } },
};
const podAffinity = {
  labels: { color: 'blue' },
  affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [
    { labelSelector: { matchLabels: { color: 'blue' } }, topologyKey: 'topology.kubernetes.io/zone',
      namespaces: ['sched-1', 'sched-0'] }] } },
};
const nodeAffinity = {
  affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [
    { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone1', 'zone2'] }] }] } } },
};
const topologySpreading = {
  labels: { color: 'blue' },
  topologySpreadConstraints: [{ maxSkew: 5, topologyKey: 'topology.kubernetes.io/zone',
                                whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { color: 'blue' } } }],
};

// The first row (and bench/scheduler_bench.cpp GenerateCluster): 5,000 nodes in 3 zones, every tenth
// tainted, 10,000 pending pods with a toleration, required zone node affinity and a zone spread per app.
export function clusterScenario(numNodes, numPods) {
  const items = [SIM('bench')];
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
  return list(items);
}

// upstream's PreemptionAsync (bench/scheduler_bench.cpp GeneratePreemption): nodes of 4 cpu each running 4
// low-priority pods of 900m; high-priority pods of 3 cpu that must preempt 3 of them; then pods of 100m that always
// fit. Upstream injects a high-priority pod every 200 ms while it measures; here they are a fixed number in the queue.
export function preemptionScenario(numNodes, initPods, highPods, measurePods) {
  const items = [SIM('bench-preemption')];
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
  return list(items);
}

// Karpenter's scheduling benchmark (kubernetes-sigs/karpenter pkg/controllers/provisioning/scheduling
// scheduling_benchmark_test.go) as bench/karpenter_bench.cpp JsonScenario: 400 instance types, one NodePool with
// huge limits, diverse pods in fifths; the same LCG draws the same requests.
export function karpenterScenario(count) {
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
  return list(items);
}

// Karpenter's disruption controller over a settled cluster (the dry run in karpenter mode): `nodes` m5.2xlarge
// on-demand nodes of one NodePool (WhenEmptyOrUnderutilized, consolidateAfter 0s, default 10% budget), each with
// `perNode` pods of `cpuMilli`. At 100m the nodes are underutilized: multi-node consolidation's binary search deletes
// a batch. At 390m each node is full: multi-node consolidation fails every probe and single-node consolidation
// tries every candidate, none cheaper ("Can't replace with a cheaper node"): the worst case.
export function disruptionScenario(nodes, perNode, cpuMilli) {
  const pool = { apiVersion: 'karpenter.sh/v1', kind: 'NodePool', metadata: { name: 'default' },
                 spec: { disruption: { consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: '0s' },
                         template: { spec: { requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In',
                                                               values: ['on-demand'] }] } } } };
  const type = (name, cpu, od, spot) => ({
    apiVersion: 'kplace.dev/v1alpha1', kind: 'InstanceType', metadata: { name },
    spec: { capacity: { cpu: String(cpu), memory: `${4 * cpu}Gi`, pods: '110' }, overhead: { cpu: '100m', memory: '600Mi' },
            offerings: [{ zone: 'us-east-1a', capacityType: 'on-demand', price: od },
                        { zone: 'us-east-1a', capacityType: 'spot', price: spot }] } });
  const items = [
    { apiVersion: 'kplace.dev/v1alpha1', kind: 'Simulation', metadata: { name: 'bench-disruption' },
      spec: { mode: 'karpenter', now: '2026-11-26T12:00:00Z' } },
    pool, type('m5.large', 2, 0.096, 0.035), type('m5.xlarge', 4, 0.192, 0.07), type('m5.2xlarge', 8, 0.384, 0.14)];
  const conditions = ['Launched', 'Registered', 'Initialized'].map((t) => (
    { type: t, status: 'True', lastTransitionTime: '2026-11-26T08:00:00Z' }));
  for (let i = 0; i < nodes; ++i) {
    const name = `node-${String(i).padStart(4, '0')}`;
    const labels = { 'karpenter.sh/nodepool': 'default', 'karpenter.sh/registered': 'true',
                     'karpenter.sh/initialized': 'true', 'node.kubernetes.io/instance-type': 'm5.2xlarge',
                     'topology.kubernetes.io/zone': 'us-east-1a', 'karpenter.sh/capacity-type': 'on-demand',
                     'kubernetes.io/hostname': name };
    items.push({ apiVersion: 'karpenter.sh/v1', kind: 'NodeClaim', metadata: { name: `${name}-claim`, labels },
                 status: { nodeName: name, providerID: `aws:///us-east-1a/i-${i}`, lastPodEventTime: '2026-11-26T09:00:00Z',
                           conditions } });
    items.push({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels },
                 status: { allocatable: { cpu: '7900m', memory: '31Gi', pods: '110' } } });
    for (let j = 0; j < perNode; ++j) {
      items.push({ apiVersion: 'v1', kind: 'Pod',
                   metadata: { name: `${name}-pod-${j}`, namespace: 'default', labels: { app: `app-${j}` },
                               ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `app-${j}`, uid: `rs-${j}`, controller: true }] },
                   spec: { nodeName: name, containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10',
                                                          resources: { requests: { cpu: `${cpuMilli}m`, memory: '256Mi' } } }] },
                   status: { phase: 'Running' } });
    }
  }
  return list(items);
}

// The scenarios the report lists, in its order. Thresholds: the newest upstream performance-config.yaml values
// (older releases' in parentheses in the report).
export const scenarios = [
  { name: 'cluster-5000n-10000p', title: '5,000 nodes / 10,000 pods (toleration, zone node affinity, zone spread per app)',
    make: () => clusterScenario(5000, 10000), pods: 10000 },
  { name: 'anti-affinity-5000n-1000b-1000p', title: '5,000 nodes, 1,000 bound + 1,000 pending pods, required hostname anti-affinity',
    make: () => perfWorkload('anti-affinity', { nodes: 5000, init: { count: 1000, prefix: 'anti-affinity-pod-init-', options: podAntiAffinity },
                                               measure: { count: 1000, prefix: 'anti-affinity-pod-', options: podAntiAffinity },
                                               initNamespace: 'sched-0', measureNamespace: 'sched-1' }),
    pods: 1000 },
  { name: 'SchedulingBasic-5000Nodes_10000Pods', title: 'scheduler_perf SchedulingBasic 5000Nodes_10000Pods', upstream: true,
    make: () => perfWorkload('SchedulingBasic', { nodes: 5000, init: { count: 1000, prefix: 'pod-init-' },
                                                 measure: { count: 10000, prefix: 'pod-' } }),
    pods: 10000, threshold: 680, oldThreshold: 270 },
  { name: 'SchedulingPodAntiAffinity-5000Nodes_2000Pods', title: 'scheduler_perf SchedulingPodAntiAffinity 5000Nodes_2000Pods', upstream: true,
    make: () => perfWorkload('SchedulingPodAntiAffinity', { nodes: 5000, init: { count: 1000, prefix: 'anti-affinity-pod-init-', options: podAntiAffinity },
                                                           measure: { count: 2000, prefix: 'anti-affinity-pod-', options: podAntiAffinity },
                                                           initNamespace: 'sched-0', measureNamespace: 'sched-1' }),
    pods: 2000, threshold: 60 },
  { name: 'SchedulingPodAffinity-5000Nodes_5000Pods', title: 'scheduler_perf SchedulingPodAffinity 5000Nodes_5000Pods', upstream: true,
    make: () => perfWorkload('SchedulingPodAffinity', { nodes: 5000, zones: ['zone1'], init: { count: 5000, prefix: 'affinity-pod-init-', options: podAffinity },
                                                       measure: { count: 5000, prefix: 'affinity-pod-', options: podAffinity },
                                                       initNamespace: 'sched-0', measureNamespace: 'sched-1' }),
    pods: 5000, threshold: 35 },
  { name: 'TopologySpreading-5000Nodes_5000Pods', title: 'scheduler_perf TopologySpreading 5000Nodes_5000Pods', upstream: true,
    make: () => perfWorkload('TopologySpreading', { nodes: 5000, zones: ['moon-1', 'moon-2', 'moon-3'], init: { count: 5000, prefix: 'pod-init-' },
                                                   measure: { count: 5000, prefix: 'spreading-pod-', options: topologySpreading } }),
    pods: 5000, threshold: 460, oldThreshold: 85 },
  { name: 'SchedulingNodeAffinity-5000Nodes_10000Pods', title: 'scheduler_perf SchedulingNodeAffinity 5000Nodes_10000Pods', upstream: true,
    make: () => perfWorkload('SchedulingNodeAffinity', { nodes: 5000, zones: ['zone1'], init: { count: 5000, prefix: 'node-affinity-init-', options: nodeAffinity },
                                                        measure: { count: 10000, prefix: 'node-affinity-', options: nodeAffinity } }),
    pods: 10000, threshold: 220 },
  { name: 'PreemptionAsync-5000Nodes', title: 'scheduler_perf PreemptionAsync 5000Nodes (20,000 low, 100 high, 5,000 measured)', upstream: true,
    make: () => preemptionScenario(5000, 20000, 100, 5000), pods: 5100, threshold: 570, oldThreshold: 160 },
  { name: 'karpenter-5000p', title: 'Karpenter diverse harness, 5,000 pods, 400 instance types',
    make: () => karpenterScenario(5000), pods: 5000 },
  { name: 'karpenter-20000p', title: 'Karpenter diverse harness, 20,000 pods, 400 instance types',
    make: () => karpenterScenario(20000), pods: 20000 },
  { name: 'disruption-1000n-20000p-underutilized', title: 'Karpenter disruption dry run, 1,000 nodes x 20 pods (100m): multi-node consolidation deletes a batch',
    make: () => disruptionScenario(1000, 20, 100), pods: 20000 },
  { name: 'disruption-1000n-20000p-full', title: 'Karpenter disruption dry run, 1,000 full nodes x 20 pods (390m): every candidate simulated, none consolidates',
    make: () => disruptionScenario(1000, 20, 390), pods: 20000 },
];
