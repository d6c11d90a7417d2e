// The page in headless Chromium: what a user feels. Figures, not thresholds.
//   1. every preset re-run as after a keystroke: kplace.load(text) of the preset with one edit (a label value
//      changed, so the text differs each time), median and slowest of 20;
//   2. a generated 5,000-node / 150,000-pod List (the browser suite's shape: 149,800 pods bound, 200 pending)
//      imported: import and run time, frames drawn meanwhile, longest frame gap;
//   3. the frame rate afterwards while the pointer moves over the cluster view (3 s), next to the same measure on
//      quickstart (the ceiling of this browser's software rendering).
//   node bench/page_bench.mjs [--json]   (after scripts/build-site.sh and `npm ci` in tests/web)
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { measureImport, openSite, repoRoot } from './page_harness.mjs';

const presetDir = path.join(repoRoot, 'presets');
const presets = readdirSync(presetDir).filter((f) => f.endsWith('.json')).sort()
  .map((f) => ({ name: f.replace(/\.json$/, ''), text: readFileSync(path.join(presetDir, f), 'utf8') }));

const { page, errors, close } = await openSite();
const out = { presets: [], import: null, fpsAfter: null, fpsQuickstart: null };

// Frames drawn while the pointer moves over the cluster view for 3 s (the app draws on input), and the app's own
// work per frame meanwhile (kplace.frameWork: layout, draw lists, WebGL calls; the rest is the browser's rendering).
async function framesPerSecond() {
  const sample = () => ({ frames: window.kplace.frames(), work: window.kplace.frameWork(), t: performance.now() });
  const f0 = await page.evaluate(sample);
  const end = Date.now() + 3000;
  for (let i = 0; Date.now() < end; ++i) await page.mouse.move(300 + (i % 400), 300 + ((i * 7) % 300));
  const f1 = await page.evaluate(sample);
  return { fps: (f1.frames - f0.frames) / ((f1.t - f0.t) / 1000),
           workMs: (f1.work - f0.work) / Math.max(1, f1.frames - f0.frames) };
}
try {
  for (const p of presets) {
    const times = await page.evaluate(async (text) => {
      const ms = [];
      for (let i = 0; i < 21; ++i) {
        // A keystroke: the scenario's name changes (the text differs, the placements do not).
        const edited = text.replace(/"name":\s*"([^"]*)"/, (m, n) => `"name": "${n}${i}"`);
        const t0 = performance.now();
        const r = window.kplace.load(edited);
        ms.push(performance.now() - t0);
        if (!r) throw new Error(window.kplace.error() || 'no result');
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
      return ms.slice(1);  // the first load also builds the view
    }, p.text);
    times.sort((a, b) => a - b);
    out.presets.push({ name: p.name, medianMs: times[Math.floor(times.length / 2)], maxMs: times[times.length - 1] });
  }
  // The same measure on the smallest preset: what this browser's rendering allows at all.
  await page.evaluate((text) => window.kplace.load(text), presets.find((p) => p.name === 'quickstart').text);
  out.fpsQuickstart = await framesPerSecond();
  await page.evaluate(() => {
    const items = [];
    const nodes = 5000;
    for (let i = 0; i < nodes; i++) {
      const name = `ip-10-0-${Math.floor(i / 250)}-${i % 250}.ec2.internal`;
      items.push({ apiVersion: 'v1', kind: 'Node', metadata: { name, resourceVersion: '1', uid: `n${i}`,
        labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': `zone-${i % 3}` },
        managedFields: [{ manager: 'kubelet', operation: 'Update' }] },
        status: { allocatable: { cpu: '16', memory: '64Gi', pods: '110' }, conditions: [{ type: 'Ready', status: 'True' }] } });
    }
    for (let j = 0; j < 150000; j++) {
      const bound = j < 149800;
      items.push({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `app-${Math.floor(j / 1000)}-${j}`, namespace: `ns-${j % 20}`,
        labels: { app: `app-${Math.floor(j / 1000)}` }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `app-${Math.floor(j / 1000)}`, uid: 'u' }] },
        spec: { nodeName: bound ? items[j % nodes].metadata.name : undefined,
                containers: [{ name: 'c', image: 'app:1', resources: { requests: { cpu: '100m', memory: '256Mi' } } }] },
        status: { phase: bound ? 'Running' : 'Pending', conditions: [{ type: 'Ready', status: bound ? 'True' : 'False' }] } });
    }
    window.__importText = JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
  });
  out.import = await measureImport(page, 'big.json');
  out.fpsAfter = await framesPerSecond();
  out.errors = errors;
} finally {
  await close();
}
if (process.argv.includes('--json')) {
  console.log(JSON.stringify(out));
} else {
  for (const p of out.presets)
    console.log(`${p.name.padEnd(26)} re-run ${p.medianMs.toFixed(2).padStart(6)} ms median, ${p.maxMs.toFixed(2).padStart(6)} ms slowest`);
  const r = out.import;
  console.log(`150,000-pod import (${(r.bytes / 1e6).toFixed(0)} MB): ${r.ok ? 'ok' : 'FAILED ' + r.error}, import ${r.importS.toFixed(1)} s, ` +
              `with the run ${r.totalS.toFixed(1)} s, ${r.frames} frames, longest frame gap ${r.maxGapMs.toFixed(0)} ms, ${r.pods} pods`);
  console.log(`afterwards: ${out.fpsAfter.fps.toFixed(1)} frames/s while the pointer moves, the app's work ${out.fpsAfter.workMs.toFixed(1)} ms a frame ` +
              `(quickstart: ${out.fpsQuickstart.fps.toFixed(1)}, ${out.fpsQuickstart.workMs.toFixed(1)} ms)`);
  if (out.errors.length) console.log(`page errors: ${out.errors.join('; ')}`);
}
