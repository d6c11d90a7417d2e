// The playground end to end in headless Chromium (Debian's /usr/bin/chromium driven by playwright-core, WebGL2
// through SwiftShader): the page loads without console errors, shows the default preset's placements, follows
// kplace.load() and typing in the editor, keeps the last result on invalid input, edits the text by clicks (taint
// badges, cordon, add toleration) with undo, shows the Events panel, runs a 500-node / 5,000-pod scenario in the
// Web Worker while it keeps drawing (and explains one of its pods on demand), shows the Disruption tab from a worker
// (badges, a node's what-if, the applied commands), follows resizes and devicePixelRatio, and draws something (screenshot checked
// for pixel variance).
//   node --test tests/web/e2e.test.mjs       (after `cmake --build --preset wasm`; `npm ci` in tests/web)
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { chromium } from 'playwright-core';

import { repoRoot, siteDir } from './kplace_core.mjs';
import { serve } from './site_server.mjs';

const CHROMIUM = process.env.KPLACE_CHROMIUM || '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--disable-quic', '--no-first-run',
              '--disable-background-networking', '--disable-component-update', '--disable-sync',
              '--enable-unsafe-swiftshader', '--use-angle=swiftshader'];
const outDir = path.join(repoRoot, 'build/web-e2e');
const golden = (name) => JSON.parse(readFileSync(path.join(repoRoot, 'tests/golden', name + '.json'), 'utf8'));
const preset = (name) => readFileSync(path.join(repoRoot, 'presets', name + '.json'), 'utf8');

let server, browser, page;
const problems = [];  // console errors and uncaught exceptions, checked at the end

async function open(options = {}) {
  const p = await browser.newPage({ viewport: { width: 1280, height: 800 }, ...options });
  p.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  p.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await p.goto(server.url);
  await p.evaluate(() => window.kplace.ready);
  return p;
}
// Waits until the app has drawn n more frames.
const frames = (p, n = 2) => p.evaluate((k) => new Promise((resolve) => {
  const target = window.kplace.frames() + k;
  const poll = () => (window.kplace.frames() >= target ? resolve() : requestAnimationFrame(poll));
  poll();
}), n);
// Emscripten's GLFW + ImGui 1.86 sample key state once per frame (no event queue): hold each key for exactly one
// frame. Longer holds auto-repeat when frames are slow (SwiftShader draws a frame in 0.2-0.4 s on 2 cores).
async function tap(p, key) {
  await p.keyboard.down(key);
  await frames(p, 1);
  await p.keyboard.up(key);
  await frames(p, 1);
}

before(async () => {
  mkdirSync(outDir, { recursive: true });
  server = await serve(siteDir);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  page = await open();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('the default preset (quickstart) is placed on load', async () => {
  const result = await page.evaluate(() => window.kplace.result());
  assert.deepEqual(result, golden('quickstart'));
  const text = await page.evaluate(() => window.kplace.text());
  assert.equal(text, preset('quickstart'));
  assert.equal(await page.evaluate(() => window.kplace.error()), null);
});

test('first frame time (budget: under 1 s on localhost)', async () => {
  await frames(page, 2);
  const t = await page.evaluate(() => window.kplace.timing());
  assert.ok(t.firstFrame > 0, JSON.stringify(t));
  // Logged, not asserted: SwiftShader on a busy 2-core CI box is no measure of a real browser.
  console.log(`# first frame ${t.firstFrame.toFixed(0)} ms after navigation (app ready at ${t.ready.toFixed(0)} ms)`);
});

test('the presets are listed', async () => {
  const names = (await page.evaluate(() => window.kplace.presets())).map((p) => p.name);
  const files = (await import('node:fs')).readdirSync(path.join(repoRoot, 'presets'))
    .filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();
  assert.deepEqual(names, files);
});

test('kplace.load() re-places and notifies onResult', async () => {
  const other = 'taint-effects';
  const { returned, notified } = await page.evaluate((text) => {
    let notified = null;
    const off = window.kplace.onResult((r) => { notified = r; });
    const returned = window.kplace.load(text);
    off();
    return { returned, notified };
  }, preset(other));
  assert.deepEqual(returned, golden(other));
  assert.deepEqual(notified, golden(other));
  assert.notDeepEqual(returned.pods, golden('quickstart').pods);
  assert.deepEqual(await page.evaluate(() => window.kplace.result()), golden(other));
});

test('invalid input shows the error and keeps the last result (stale)', async () => {
  await page.evaluate((t) => window.kplace.load(t), preset('quickstart'));
  const state = await page.evaluate(() => {
    const returned = window.kplace.load('{ "kind": "List", "items": [ }');
    return { returned, error: window.kplace.error(), stale: window.kplace.stale(), result: window.kplace.result() };
  });
  assert.equal(state.returned, null);
  assert.match(state.error, /^invalid JSON at line 1, column \d+/);
  assert.equal(state.stale, true);
  assert.deepEqual(state.result, golden('quickstart'));
  await frames(page);
  await page.screenshot({ path: path.join(outDir, 'invalid-input.png') });
});

test('setMode edits only the mode in the text', async () => {
  const before = preset('quickstart');
  await page.evaluate((t) => window.kplace.load(t), before);
  assert.equal(await page.evaluate(() => window.kplace.setMode('cluster')), true);
  const after = await page.evaluate(() => window.kplace.text());
  assert.equal(after, before.replace('"mode": "scheduler"', '"mode": "cluster"'));
  // cluster mode without NodePools places as kube-scheduler alone
  assert.deepEqual(await page.evaluate(() => window.kplace.result()), golden('quickstart'));
});

test('setKubernetesVersion moves the balanced-allocation cache and undoes', async () => {
  const before = preset('balanced-allocation');
  await page.evaluate((t) => window.kplace.load(t), before);
  assert.deepEqual(await page.evaluate(() => window.kplace.result()), golden('balanced-allocation'));
  assert.equal(await page.evaluate(() => window.kplace.setKubernetesVersion('1.35')), true);
  assert.equal(await page.evaluate(() => window.kplace.text()),
               before.replace('"kubernetesVersion": "1.37"', '"kubernetesVersion": "1.35"'));
  assert.equal((await page.evaluate(() => window.kplace.result())).pods['default/cache'].node, 'node-b');
  await frames(page);
  assert.ok((await page.evaluate(() => window.kplace.targets()))['release'], 'no release picker in the top bar');
  assert.equal(await page.evaluate(() => window.kplace.undo()), true);
  assert.equal(await page.evaluate(() => window.kplace.text()), before);
  assert.equal((await page.evaluate(() => window.kplace.result())).pods['default/cache'].node, 'node-a');
});

test('typing in the editor changes a placement', async () => {
  const scenario = JSON.stringify({
    apiVersion: 'v1', kind: 'List', items: [
      { apiVersion: 'kplace.dev/v1alpha1', kind: 'Simulation', metadata: { name: 's' }, spec: { mode: 'scheduler' } },
      ...['n1', 'n2'].map((n) => ({ apiVersion: 'v1', kind: 'Node',
        metadata: { name: n, labels: { 'kubernetes.io/hostname': n } },
        status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } } })),
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' },
        spec: { containers: [{ name: 'c', image: 'x' }], nodeSelector: { 'kubernetes.io/hostname': 'n1' } } },
    ],
  });
  assert.ok(scenario.endsWith('"n1"}}}]}'));
  await page.evaluate((t) => window.kplace.load(t), scenario);
  assert.equal((await page.evaluate(() => window.kplace.result())).pods['default/p'].node, 'n1');
  await frames(page);
  // The editor is the left column, below the top bar; the one-line text leaves most of it empty, and a click
  // below the text puts the cursor at its end.
  await page.mouse.click(200, 500);
  await frames(page);
  await tap(page, 'End');
  for (let i = 0; i < 6; i++) await tap(page, 'ArrowLeft');  // back over "}}}]} to just after the 1
  await tap(page, 'Backspace');
  await page.keyboard.type('2');
  await frames(page, 3);
  const text = await page.evaluate(() => window.kplace.text());
  assert.ok(text.endsWith('"n2"}}}]}'), text.slice(-40));
  assert.equal((await page.evaluate(() => window.kplace.result())).pods['default/p'].node, 'n2');
});

// Chords held for one frame each, as tap() does for single keys.
async function chord(p, key) {
  await p.keyboard.down('Control');
  await frames(p, 1);
  await tap(p, key);
  await p.keyboard.up('Control');
  await frames(p, 1);
}

test('select all, copy and paste in the editor go through the system clipboard', async () => {
  const p = await open({ permissions: ['clipboard-read', 'clipboard-write'] });
  const small = (node) => JSON.stringify({
    apiVersion: 'v1', kind: 'List', items: [
      { apiVersion: 'kplace.dev/v1alpha1', kind: 'Simulation', metadata: { name: 's' }, spec: { mode: 'scheduler' } },
      ...['n1', 'n2'].map((n) => ({ apiVersion: 'v1', kind: 'Node',
        metadata: { name: n, labels: { 'kubernetes.io/hostname': n } },
        status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } } })),
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' },
        spec: { containers: [{ name: 'c', image: 'x' }], nodeSelector: { 'kubernetes.io/hostname': node } } },
    ],
  });
  const first = small('n1');
  await p.evaluate((t) => window.kplace.load(t), first);
  await frames(p);
  await p.mouse.click(200, 500);  // into the editor (left column), below the one-line text
  await frames(p);
  // Ctrl+A, Ctrl+C: the app's clipboard goes out through navigator.clipboard.
  await chord(p, 'a');
  await chord(p, 'c');
  await frames(p, 2);
  assert.equal(await p.evaluate(() => navigator.clipboard.readText()), first);
  // A paste event carries the system clipboard in; Ctrl+V then replaces the selection with it.
  const second = small('n2');
  await p.evaluate((t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, second);
  await chord(p, 'a');
  await chord(p, 'v');
  await frames(p, 3);
  assert.equal(await p.evaluate(() => window.kplace.text()), second);
  assert.equal((await p.evaluate(() => window.kplace.result())).pods['default/p'].node, 'n2');
  await p.close();
});

// Clicks the middle of a named edit target (window.kplace.targets(), CSS pixels) the way a user would: move, press
// for one frame, release (ImGui 1.86 samples the mouse once per frame).
async function clickTarget(p, name, button = 'left') {
  await frames(p, 2);
  const r = (await p.evaluate(() => window.kplace.targets()))[name];
  assert.ok(r, `no target ${name}`);
  await p.mouse.move((r[0] + r[2]) / 2, (r[1] + r[3]) / 2);
  await frames(p, 1);
  await p.mouse.down({ button });
  await frames(p, 1);
  await p.mouse.up({ button });
  await frames(p, 2);
}
// Whether the last frame drew a named target.
async function targetVisible(p, name) {
  await frames(p, 2);
  return Boolean((await p.evaluate(() => window.kplace.targets()))[name]);
}
const gpuTaint = '{ "key": "dedicated", "value": "gpu", "effect": "NoSchedule" }';
const withGpuEffect = (text, effect) => text.replace(gpuTaint, gpuTaint.replace('NoSchedule', effect));

test('clicking a taint badge cycles its effect in the text; PreferNoSchedule lets a pod land there', async () => {
  const quickstart = preset('quickstart');
  await page.evaluate((t) => window.kplace.load(t), quickstart);
  assert.equal(golden('quickstart').pods['default/big'].node, undefined);
  await clickTarget(page, 'taint:gpu-1:0');
  assert.equal(await page.evaluate(() => window.kplace.text()), withGpuEffect(quickstart, 'PreferNoSchedule'));
  const result = await page.evaluate(() => window.kplace.result());
  assert.equal(result.pods['default/big'].node, 'gpu-1');
  await clickTarget(page, 'taint:gpu-1:0');
  assert.equal(await page.evaluate(() => window.kplace.text()), withGpuEffect(quickstart, 'NoExecute'));
  await clickTarget(page, 'taint:gpu-1:0');
  assert.equal(await page.evaluate(() => window.kplace.text()), quickstart);
  assert.deepEqual(await page.evaluate(() => window.kplace.result()), golden('quickstart'));
  // Right-click removes the taint; undo brings it back, byte for byte.
  await clickTarget(page, 'taint:gpu-1:0', 'right');
  const removed = await page.evaluate(() => window.kplace.text());
  assert.equal(removed, quickstart.replace(`[ ${gpuTaint} ]`, '[]'));
  assert.equal(await page.evaluate(() => window.kplace.undo()), true);
  assert.equal(await page.evaluate(() => window.kplace.text()), quickstart);
  // The same edits through the API.
  assert.equal(await page.evaluate(() => window.kplace.setTaintEffect('gpu-1', 0, 'PreferNoSchedule')), true);
  assert.equal(await page.evaluate(() => window.kplace.text()), withGpuEffect(quickstart, 'PreferNoSchedule'));
  assert.equal(await page.evaluate(() => window.kplace.setTaintEffect('no-such-node', 0)), false);
  assert.equal(await page.evaluate(() => window.kplace.undo()), true);
  assert.equal(await page.evaluate(() => window.kplace.text()), quickstart);
  await page.screenshot({ path: path.join(outDir, 'taint-edit.png') });
});

test('cordon and uncordon a node by clicking its card', async () => {
  const quickstart = preset('quickstart');
  await page.evaluate((t) => window.kplace.load(t), quickstart);
  assert.ok(Object.values(golden('quickstart').pods).some((p) => p.node === 'node-b'));
  await clickTarget(page, 'cordon:node-b');
  const text = await page.evaluate(() => window.kplace.text());
  const nodeB = text.indexOf('"name": "node-b"');
  assert.ok(text.indexOf('"unschedulable": true', nodeB) > nodeB && text.indexOf('"unschedulable": true', nodeB) <
            text.indexOf('"name": "gpu-1"'), 'spec.unschedulable not in node-b');
  const result = await page.evaluate(() => window.kplace.result());
  assert.ok(!Object.values(result.pods).some((p) => p.node === 'node-b'), JSON.stringify(result.pods));
  await clickTarget(page, 'cordon:node-b');
  assert.equal(await page.evaluate(() => window.kplace.text()), quickstart);
  assert.deepEqual(await page.evaluate(() => window.kplace.result()), golden('quickstart'));
  // Ctrl+Z outside the editor undoes the last direct edit (the uncordon).
  await page.keyboard.down('Control');
  await tap(page, 'z');
  await page.keyboard.up('Control');
  assert.equal(await page.evaluate(() => window.kplace.text()), text);
});

test('the Changes tab shows what an edit changed, and the reverse after undo', async () => {
  await page.evaluate((t) => window.kplace.load(t), preset('quickstart'));
  await page.evaluate((t) => window.kplace.load(t), preset('quickstart'));  // the same text again: nothing changed
  const same = await page.evaluate(() => window.kplace.changes());
  assert.equal(same.pods.length, 0);
  assert.equal(same.summary.same, same.summary.pods);
  const onB = Object.entries(golden('quickstart').pods).filter(([, p]) => p.node === 'node-b').map(([k]) => k);
  assert.ok(onB.length > 0);
  assert.equal(await page.evaluate(() => window.kplace.cordon('node-b')), true);
  const cordoned = await page.evaluate(() => window.kplace.changes());
  const changed = cordoned.pods.map((c) => c.pod);
  for (const pod of onB) {  // every pod node-b held went elsewhere or became pending
    assert.ok(changed.includes(pod), `${pod} not in ${JSON.stringify(cordoned.pods)}`);
    const c = cordoned.pods.find((x) => x.pod === pod);
    assert.equal(c.a.node, 'node-b');
    assert.notEqual(c.b.node, 'node-b');
  }
  assert.equal(cordoned.summary.differ, cordoned.pods.length);
  await frames(page, 2);
  assert.ok((await page.evaluate(() => window.kplace.targets()))['tab:changes'], 'no Changes tab');
  await clickTarget(page, 'tab:changes');
  const png = await page.screenshot({ path: path.join(outDir, 'changes.png') });
  assert.ok((await pixelStats(page, png)).variance > 100);
  // Each entry selects its pod.
  await frames(page, 2);
  await clickTarget(page, `change:${cordoned.pods[0].pod}`);
  assert.equal(await page.evaluate(() => window.kplace.selected()), cordoned.pods[0].pod);
  assert.equal(await page.evaluate(() => window.kplace.undo()), true);
  const undone = await page.evaluate(() => window.kplace.changes());
  assert.deepEqual(undone.pods.map((c) => [c.pod, c.a, c.b]), cordoned.pods.map((c) => [c.pod, c.b, c.a]));
  await page.evaluate(() => window.kplace.select(''));
});

test('the Compare tab: a preset opens compared, settings and a pinned result compare, stop ends it', async () => {
  // prefer-no-schedule names kplace.dev/compare: mode=karpenter; the comparison is `kplace diff`'s golden.
  await page.evaluate((t) => window.kplace.load(t), preset('prefer-no-schedule'));
  let c = await page.evaluate(() => window.kplace.comparison());
  const want = golden('prefer-no-schedule.diff');
  assert.equal(c.b.source, 'scenario');
  assert.equal(c.b.settings, 'mode=karpenter');
  for (const key of ['pods', 'nodeClaims', 'cost', 'summary']) assert.deepEqual(c[key], want[key], key);
  await frames(page, 2);
  await clickTarget(page, 'tab:compare');
  const png = await page.screenshot({ path: path.join(outDir, 'compare.png') });
  assert.ok((await pixelStats(page, png)).variance > 100);
  await clickTarget(page, 'compare:default/web-2');
  assert.equal(await page.evaluate(() => window.kplace.selected()), 'default/web-2');
  await frames(page, 2);  // a newly selected pod brings the Pod tab to the front
  await clickTarget(page, 'tab:compare');
  await clickTarget(page, 'compare:stop');
  await frames(page, 1);
  assert.equal(await page.evaluate(() => window.kplace.comparison()), null);

  // Under settings picked by the API; bad settings say why.
  await page.evaluate((t) => window.kplace.load(t), preset('quickstart'));
  assert.equal(await page.evaluate(() => window.kplace.comparison()), null);
  assert.match(await page.evaluate(() => window.kplace.compare('mode=fast')), /unsupported mode "fast"/);
  assert.equal(await page.evaluate(() => window.kplace.compare('scoringStrategy=MostAllocated')), null);
  c = await page.evaluate(() => window.kplace.comparison());
  assert.equal(c.b.source, 'settings');
  assert.equal(c.b.settings, 'scoringStrategy=MostAllocated');
  assert.equal(c.summary.differ, c.pods.length);

  // Pinned: A stays while an edit changes B.
  assert.equal(await page.evaluate(() => window.kplace.pin()), true);
  assert.equal((await page.evaluate(() => window.kplace.comparison())).pods.length, 0);
  assert.equal(await page.evaluate(() => window.kplace.cordon('node-b')), true);
  c = await page.evaluate(() => window.kplace.comparison());
  assert.equal(c.a.source, 'pinned');
  const onB = Object.entries(golden('quickstart').pods).filter(([, p]) => p.node === 'node-b').map(([k]) => k);
  for (const pod of onB) assert.equal(c.pods.find((x) => x.pod === pod)?.a.node, 'node-b', pod);
  await page.evaluate(() => window.kplace.undo());
  assert.equal((await page.evaluate(() => window.kplace.comparison())).pods.length, 0);
  await page.evaluate(() => window.kplace.stopComparing());
  await page.evaluate(() => window.kplace.select(''));
});

test('the Timeline tab: a preemption step by step, the queue at each step, keys and clicks', async () => {
  await page.evaluate((t) => window.kplace.load(t), preset('preemption-step-by-step'));
  const t = await page.evaluate(() => window.kplace.timeline());
  const want = golden('preemption-step-by-step.timeline').timeline;
  assert.deepEqual(t.steps, want.steps);  // what `kplace run --timeline` prints
  assert.equal(t.step, t.steps.length);   // the whole run
  await frames(page, 2);
  await clickTarget(page, 'tab:timeline');
  await frames(page, 2);
  assert.equal(await targetVisible(page, 'timeline:banner-end'), false);
  await clickTarget(page, 'timeline:step:4');
  await frames(page, 2);
  let s = await page.evaluate(() => window.kplace.step());
  assert.equal(s.step, 4);
  assert.deepEqual(s.nominated, { 'default/web': 'node-a' });
  assert.deepEqual(s.deleted, ['default/batch-0']);
  assert.equal(await targetVisible(page, 'timeline:banner-end'), true);  // the cluster view shows the step
  await page.screenshot({ path: path.join(outDir, 'timeline.png') });
  // Right and Left step, Home goes to the start, End to the whole run.
  await tap(page, 'ArrowRight');
  s = await page.evaluate(() => window.kplace.step());
  assert.equal(s.step, 5);
  const cache = s.queue.find((q) => q.pod === 'default/cache');
  assert.equal(cache.queue, 'backoffQ');
  assert.deepEqual(cache.clusterEvents, ['AssignedPodDelete']);
  assert.equal(s.queue.find((q) => q.pod === 'default/migration').queue, 'gated');
  await tap(page, 'ArrowLeft');
  assert.equal((await page.evaluate(() => window.kplace.step())).step, 4);
  await tap(page, 'Home');
  assert.equal((await page.evaluate(() => window.kplace.step())).step, 0);
  await tap(page, 'End');
  assert.equal((await page.evaluate(() => window.kplace.step())).step, 9);
  // A queued pod's row selects it.
  await page.evaluate(() => window.kplace.step(7));
  await frames(page, 2);
  await clickTarget(page, 'queue:default/cache');
  assert.equal(await page.evaluate(() => window.kplace.selected()), 'default/cache');
  await page.evaluate(() => window.kplace.step(null));
  await page.evaluate(() => window.kplace.select(''));
  // karpenter mode: no timeline.
  await page.evaluate((t) => window.kplace.load(t), preset('consolidation-delete'));
  assert.equal(await page.evaluate(() => window.kplace.timeline()), null);
  assert.equal(await page.evaluate(() => window.kplace.step(3)), null);
});

test('add toleration from the pod inspector', async () => {
  const quickstart = preset('quickstart');
  await page.evaluate((t) => window.kplace.load(t), quickstart);
  await page.evaluate(() => window.kplace.select('default/big'));
  await clickTarget(page, 'tolerate:gpu-1');
  const anchor = '"cpu": "3500m" } } } ]';
  const at = quickstart.indexOf(anchor) + anchor.length;
  const expected = quickstart.slice(0, at) + ', "tolerations": [ ' + gpuTaint.replace(
    '"value"', '"operator": "Equal", "value"') + ' ]' + quickstart.slice(at);
  assert.equal(await page.evaluate(() => window.kplace.text()), expected);
  assert.equal((await page.evaluate(() => window.kplace.result())).pods['default/big'].node, 'gpu-1');
  await frames(page, 2);
  await page.screenshot({ path: path.join(outDir, 'add-toleration.png') });
  assert.equal(await page.evaluate(() => window.kplace.undo()), true);
  assert.equal(await page.evaluate(() => window.kplace.text()), quickstart);
  // A Deployment's pod gets the toleration in its template.
  assert.equal(await page.evaluate(() => window.kplace.addToleration('default/web-0', 'gpu-1', 0)), true);
  const text = await page.evaluate(() => window.kplace.text());
  assert.ok(text.includes('"topologySpreadConstraints"') &&
            text.indexOf('"tolerations"') < text.indexOf('"name": "trainer"'), 'not in the web template');
  await page.evaluate(() => window.kplace.undo());
});

test('the Events panel lists the run\'s events', async () => {
  await page.evaluate((t) => window.kplace.load(t), preset('quickstart'));
  await page.evaluate(() => window.kplace.select('default/big'));
  await frames(page, 2);
  assert.ok((await page.evaluate(() => window.kplace.targets()))['tab:pod'], 'no Pod tab with a pod selected');
  await clickTarget(page, 'tab:events');
  const png = await page.screenshot({ path: path.join(outDir, 'events.png') });
  assert.ok((await pixelStats(page, png)).variance > 100);
  const events = (await page.evaluate(() => window.kplace.result())).events;
  assert.deepEqual(events.map((e) => e.reason), ['Scheduled', 'Scheduled', 'Scheduled', 'Scheduled',
                                                 'FailedScheduling']);
  await page.evaluate(() => window.kplace.select(''));
});

// Polls kplace.disruption(node) until the Web Worker's answer is there (and, with node, that node's explanation).
const disruption = (p, node = '') => p.evaluate((n) => new Promise((resolve) => {
  const poll = () => {
    const d = window.kplace.disruption(n);
    if (d && (!n || d.node !== undefined)) resolve(d); else setTimeout(poll, 100);
  };
  poll();
}), node);

test('the Disruption tab: Karpenter\'s dry run from the worker, badges, and a node explained on demand', async () => {
  await page.evaluate((t) => window.kplace.load(t), preset('consolidation-delete'));
  const d = await disruption(page);
  assert.deepEqual(d.disruption, golden('consolidation-delete').disruption);
  await frames(page, 2);
  await clickTarget(page, 'tab:disruption');
  await frames(page, 2);
  await clickTarget(page, 'disruption-node:node-3');  // asks for its what-if
  const x = (await disruption(page, 'node-3')).node;
  assert.equal(x.node, 'node-3');
  assert.equal(x.consolidation, 'delete');  // its worker fits on node-1 (tests/golden/README.md)
  await frames(page, 3);
  const png = await page.screenshot({ path: path.join(outDir, 'disruption.png') });
  assert.ok((await pixelStats(page, png)).variance > 100);
  // cluster mode with applyDisruption: the commands applied in turn, as the native golden has them.
  await page.evaluate((t) => window.kplace.load(t), preset('consolidation-applied'));
  const applied = await disruption(page);
  assert.deepEqual(applied.disruptionApplied, golden('consolidation-applied').disruptionApplied);
  await frames(page, 2);
  await page.screenshot({ path: path.join(outDir, 'disruption-applied.png') });
});

// nodes x deployments of replicas pods each: 500 x 5,000 by default.
function largeScenario(nodes = 500, deployments = 10, replicas = 500) {
  const items = [{ apiVersion: 'kplace.dev/v1alpha1', kind: 'Simulation', metadata: { name: 'large' },
                   spec: { mode: 'scheduler' } }];
  for (let i = 0; i < nodes; i++) {
    const name = `node-${String(i).padStart(3, '0')}`;
    items.push({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name,
      'topology.kubernetes.io/zone': `zone-${i % 3}` } }, status: { allocatable: { cpu: '8', memory: '32Gi', pods: '110' } } });
  }
  for (let d = 0; d < deployments; d++) {
    items.push({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: `app-${d}`, namespace: 'default' },
      spec: { replicas, selector: { matchLabels: { app: `app-${d}` } }, template: {
        metadata: { labels: { app: `app-${d}` } },
        spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '100m', memory: '128Mi' } } }] } } } });
  }
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items }, null, 1);
}

test('a 500-node / 5,000-pod scenario runs in the Web Worker while the page keeps drawing', async () => {
  const superseded = largeScenario(500, 10, 499);
  const large = largeScenario();
  const started = await page.evaluate(([a, b]) => {
    window.__results = [];
    window.__off = window.kplace.onResult((r) => window.__results.push(Object.keys(r.pods).length));
    const first = window.kplace.load(a);
    const second = window.kplace.load(b);  // supersedes the first run
    return { first, second, running: window.kplace.running(), frames: window.kplace.frames(), t: performance.now() };
  }, [superseded, large]);
  assert.equal(started.first, null);
  assert.equal(started.second, null);
  assert.equal(started.running, true);
  await page.screenshot({ path: path.join(outDir, 'large-running.png') });
  const done = await page.evaluate(() => new Promise((resolve) => {
    const poll = () => {
      if (!window.kplace.running()) {
        window.__off();
        resolve({ frames: window.kplace.frames(), t: performance.now(), results: window.__results });
      } else {
        setTimeout(poll, 50);
      }
    };
    poll();
  }));
  const seconds = (done.t - started.t) / 1000;
  const drawn = done.frames - started.frames;
  console.log(`# 500 nodes x 5,000 pods: ${seconds.toFixed(1)} s in the worker, ${drawn} frames drawn meanwhile`);
  assert.ok(drawn >= Math.min(5, seconds * 2), `the page froze: ${drawn} frames in ${seconds.toFixed(1)} s`);
  assert.deepEqual(done.results, [5000], 'only the newest run is delivered');
  const result = await page.evaluate(() => window.kplace.result());
  assert.equal(Object.keys(result.pods).length, 5000);
  assert.ok(Object.values(result.pods).every((p) => p.node), 'every pod placed');
  assert.equal(await page.evaluate(() => window.kplace.error()), null);
  // Drawing 500 compact node cards: logged, not asserted (SwiftShader on a busy box).
  const fps = await page.evaluate(() => new Promise((resolve) => {
    const f0 = window.kplace.frames(), t0 = performance.now();
    setTimeout(() => resolve((window.kplace.frames() - f0) / ((performance.now() - t0) / 1000)), 2000);
  }));
  console.log(`# 500 nodes x 5,000 pods drawn at ${fps.toFixed(1)} frames/s (compact cards)`);
  const png = await page.screenshot({ path: path.join(outDir, 'large.png') });
  assert.ok((await pixelStats(page, png)).variance > 100);
  // The inspector explains a pod of a background run on demand (a second worker re-runs, recording that pod).
  await page.evaluate(() => window.kplace.select('default/app-3-7'));
  await frames(page, 3);
  await clickTarget(page, 'explain');
  const explanation = await page.evaluate(() => new Promise((resolve) => {
    const poll = () => {
      const ex = window.kplace.explanation('default/app-3-7');
      if (ex) resolve(ex); else setTimeout(poll, 100);
    };
    poll();
  }));
  assert.equal(explanation.pod, 'default/app-3-7');
  assert.equal(explanation.attempts.at(-1).chosen, result.pods['default/app-3-7'].node);
  await frames(page, 2);
  await page.screenshot({ path: path.join(outDir, 'large-explained.png') });
  await page.evaluate(() => window.kplace.select(''));
  // A run in the background records no timeline: the tab says how to get one.
  assert.equal(await page.evaluate(() => window.kplace.timeline()), null);
  await clickTarget(page, 'tab:timeline');
  await page.screenshot({ path: path.join(outDir, 'large-timeline.png') });
  // Back to a small scenario: synchronous again, in the same call.
  assert.deepEqual(await page.evaluate((t) => window.kplace.load(t), preset('quickstart')), golden('quickstart'));
});

// Runs measure(ctx, canvas, arg) in the page over a screenshot drawn into a 2D canvas (no image library needed);
// measure is sent as source, so it uses nothing from this file.
async function inScreenshot(p, png, measure, arg) {
  return p.evaluate(async ([b64, source, arg]) => {
    const img = new Image();
    img.src = 'data:image/png;base64,' + b64;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    return (0, eval)(`(${source})`)(ctx, c, arg);
  }, [png.toString('base64'), measure.toString(), arg]);
}

// Mean and variance of the screenshot's pixels.
async function pixelStats(p, png) {
  return inScreenshot(p, png, (ctx, c) => {
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    let sum = 0, sq = 0;
    const n = d.length / 4;
    for (let i = 0; i < d.length; i += 4) {
      const v = (d[i] + d[i + 1] + d[i + 2]) / 3;
      sum += v;
      sq += v * v;
    }
    const mean = sum / n;
    return { width: c.width, height: c.height, mean, variance: sq / n - mean * mean };
  });
}

test('the canvas draws the app (screenshot is not blank)', async () => {
  await page.evaluate((t) => window.kplace.load(t), preset('quickstart'));
  await page.evaluate(() => window.kplace.select('default/big'));
  await frames(page, 3);
  const png = await page.screenshot({ path: path.join(outDir, 'playground.png') });
  const stats = await pixelStats(page, png);
  assert.equal(stats.width, 1280);
  assert.ok(stats.variance > 100, `screenshot looks blank: ${JSON.stringify(stats)}`);
});

// The page's renderer (wasm/webgl_renderer.cpp) draws solid fills without the texture and text from a one-channel
// atlas: exact colours where a fill is solid, glyphs where text is.
test('the renderer: exact fill colours, the clear, the border, glyphs from the atlas', async () => {
  await page.evaluate((t) => window.kplace.load(t), preset('quickstart'));
  await page.mouse.move(1, 1);  // nothing hovered
  await frames(page, 3);
  const chip = (await page.evaluate(() => window.kplace.targets()))['taint:gpu-1:0'];
  assert.ok(chip, 'no taint chip on gpu-1');
  const png = await page.screenshot();
  const px = await inScreenshot(page, png, (ctx, c, chip) => {
    const at = (x, y) => Array.from(ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data.slice(0, 3));
    // The chip's pixels: its fill exactly, and glyphs (light text over the red fill: green above the fill's 64;
    // the rounded ends blend with the darker card instead).
    const [x0, y0, x1, y1] = chip.map(Math.round);
    const d = ctx.getImageData(x0, y0, x1 - x0, y1 - y0).data;
    let fill = 0, glyph = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i] === 196 && d[i + 1] === 64 && d[i + 2] === 64) ++fill;
      else if (d[i + 1] > 100) ++glyph;
    }
    // The longest run of a colour along a line of pixels (the backdrop: WindowBg around the panes, the clear colour
    // in them, app/ui/pane_backdrop.h).
    const longestRun = (line, rgb) => {
      let best = 0, run = 0;
      for (let i = 0; i < line.length; i += 4) {
        run = line[i] === rgb[0] && line[i + 1] === rgb[1] && line[i + 2] === rgb[2] ? run + 1 : 0;
        best = Math.max(best, run);
      }
      return best;
    };
    const row = ctx.getImageData(100, 300, c.width - 200, 1).data;  // across both panes
    const column = ctx.getImageData(700, 60, 1, c.height - 120).data;  // down the right pane
    return { corner: at(0, 0), padding: at(3, 400), chipLeft: at(chip[0] + 3, (chip[1] + chip[3]) / 2), fill, glyph,
             all: d.length / 4, gapBetweenPanes: longestRun(row, [27, 29, 35]),
             paneBetweenViews: longestRun(column, [32, 35, 42]) };
  }, chip);
  assert.deepEqual(px.padding, [27, 29, 35], 'the clear colour is the style\'s WindowBg');
  assert.deepEqual(px.corner, [69, 70, 82], 'the root window\'s border (ImGuiCol_Border over WindowBg)');
  assert.deepEqual(px.chipLeft, [196, 64, 64], 'a NoSchedule taint chip is EffectColor exactly');
  assert.ok(px.fill > px.all / 3, `the chip is mostly fill: ${JSON.stringify(px)}`);
  assert.ok(px.glyph > 50, `the chip's text is drawn: ${JSON.stringify(px)}`);
  assert.ok(px.gapBetweenPanes >= 3, `WindowBg between the editor and the right pane: ${JSON.stringify(px)}`);
  assert.ok(px.paneBetweenViews >= 3, `the pane colour between the cluster and the details: ${JSON.stringify(px)}`);
});

// The renderer compares each frame's draw lists with the last frame drawn: a frame where nothing changed is not
// drawn, and one where something did redraws that region alone over the pixels kept from before. Each change here,
// drawn so, must give the pixels of the same frame drawn whole (kplace.redraw()).
test('the renderer redraws what changed alone, with the pixels of a whole frame', async () => {
  await page.evaluate((t) => window.kplace.load(t), largeScenario(60, 4, 50));
  await page.mouse.move(1, 1);
  await frames(page, 5);
  const counts = () => page.evaluate(() => [window.kplace.frames(), window.kplace.frames(true)]);
  const [f0, r0] = await counts();
  for (let i = 0; i < 5; i++) {  // the pointer over the editor's margin: nothing there reacts to it
    await page.mouse.move(4, 300 + 10 * i);
    await frames(page, 1);
  }
  const [f1, r1] = await counts();
  assert.ok(f1 - f0 >= 5, `${f1 - f0} frames`);
  assert.equal(r1, r0, 'a frame the same as the last one was drawn again');
  const pods = Object.keys((await page.evaluate(() => window.kplace.result())).pods);
  const steps = [  // 60 compact cards (1280 x 800: five a row, the cluster view above the details)
    ['the cluster view scrolled', async () => { await page.mouse.move(900, 300); await page.mouse.wheel(0, 240); }],
    ['a card hovered', () => page.mouse.move(700, 200)],
    ['an event hovered', () => page.mouse.move(900, 640)],
    ['a pod selected', () => page.evaluate((p) => window.kplace.select(p), pods[7])],
    ['the Changes tab', () => clickTarget(page, 'tab:changes')],
    ['scrolled back', async () => { await page.mouse.move(900, 300); await page.mouse.wheel(0, -240); }],
  ];
  let drawn = 0;
  for (const [what, act] of steps) {
    const [, before] = await counts();
    await act();
    await frames(page, 5);
    const [, after] = await counts();
    drawn += after - before;
    const changed = await page.screenshot();
    await page.evaluate(() => window.kplace.redraw());
    await page.evaluate((k) => new Promise((resolve) => {
      const poll = () => (window.kplace.frames(true) > k ? resolve() : requestAnimationFrame(poll));
      poll();
    }), after);
    await frames(page, 2);
    const whole = await page.screenshot();
    if (!changed.equals(whole)) {
      await page.screenshot({ path: path.join(outDir, 'redraw-whole.png') });
      writeFileSync(path.join(outDir, 'redraw-changed.png'), changed);
    }
    assert.ok(changed.equals(whole), `${what}: the changes drawn alone differ from the whole frame ` +
              '(build/web-e2e/redraw-changed.png, redraw-whole.png)');
  }
  assert.ok(drawn >= steps.length, `only ${drawn} frames drawn for ${steps.length} changes`);
  await page.evaluate(() => window.kplace.select(''));
});

test('the canvas follows resizes, backing store in device pixels', async () => {
  const size = () => page.evaluate(() => {
    const c = document.getElementById('canvas');
    return [c.width, c.height, window.devicePixelRatio];
  });
  assert.deepEqual(await size(), [1280, 800, 1]);
  await page.setViewportSize({ width: 900, height: 600 });
  await frames(page, 3);
  assert.deepEqual(await size(), [900, 600, 1]);
  await page.setViewportSize({ width: 1280, height: 800 });
  await frames(page, 3);
  assert.deepEqual(await size(), [1280, 800, 1]);
});

test('devicePixelRatio 2 and 3: backing store scaled, fonts rasterised to match', async () => {
  for (const dpr of [2, 3]) {
    const p = await open({ viewport: { width: 640, height: 400 }, deviceScaleFactor: dpr });
    await frames(p, 3);
    const s = await p.evaluate(() => {
      const c = document.getElementById('canvas');
      return [c.width, c.height];
    });
    assert.deepEqual(s, [640 * dpr, 400 * dpr]);
    const png = await p.screenshot({ path: path.join(outDir, `playground-dpr${dpr}.png`) });
    const stats = await pixelStats(p, png);
    assert.equal(stats.width, 640 * dpr);
    assert.ok(stats.variance > 100, `dpr ${dpr} screenshot looks blank`);
    assert.deepEqual(await p.evaluate(() => window.kplace.result()), golden('quickstart'));
    await p.close();
  }
});

test('no console errors or uncaught exceptions', () => {
  assert.deepEqual(problems, []);
});
