// The page in headless Chromium: what a user feels. Figures, not thresholds.
//   1. every preset re-run as after a keystroke: kplace.load(text) of the preset with one edit (a label value
//      changed, so the text differs each time), median and slowest of 20;
//   2. a generated 5,000-node / 150,000-pod List (the browser suite's shape: 149,800 pods bound, 200 pending)
//      imported: import and run time, frames drawn meanwhile, longest frame gap;
//   3. the frame rate afterwards while the pointer moves, while the wheel scrolls the cluster view, and with every
//      frame drawn whole (3 s each), next to quickstart's (the ceiling of this browser's software rendering).
//   node bench/page_bench.mjs [--json]   (after scripts/build-site.sh and `npm ci` in tests/web)
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { measureImport, openSite, repoRoot } from './page_harness.mjs';

const presetDir = path.join(repoRoot, 'presets');
const presets = readdirSync(presetDir).filter((f) => f.endsWith('.json')).sort()
  .map((f) => ({ name: f.replace(/\.json$/, ''), text: readFileSync(path.join(presetDir, f), 'utf8') }));

const { page, errors, close } = await openSite();
const out = { presets: [], import: null, fpsAfter: null, fpsQuickstart: null, scrollAfter: null, wholeAfter: null,
              wholeQuickstart: null };

// Frames drawn for 3 s of input, and of them those the renderer drew (kplace.frames(true): a frame redraws only what
// changed, nothing when nothing did), and the app's own work per frame meanwhile (kplace.frameWork: layout, draw lists,
// WebGL calls; the rest is the browser's rendering). The input: the pointer moving over the editor, the cluster view
// and the details (the app draws on input), or the wheel scrolling the cluster view down and up; `whole` has every frame
// drawn whole (kplace.redraw() each animation frame), the cost of a frame where everything changed.
async function framesPerSecond(input, whole = false) {
  const sample = () => ({ frames: window.kplace.frames(), drawn: window.kplace.frames(true),
                          work: window.kplace.frameWork(), t: performance.now() });
  if (whole) {
    await page.evaluate(() => {
      window.__whole = true;
      const redraw = () => {
        if (!window.__whole) return;
        window.kplace.redraw();
        requestAnimationFrame(redraw);
      };
      redraw();
    });
  }
  if (input === 'wheel') await page.mouse.move(900, 250);
  const f0 = await page.evaluate(sample);
  const end = Date.now() + 3000;
  for (let i = 0; Date.now() < end; ++i) {
    if (input === 'wheel') await page.mouse.wheel(0, i % 40 < 20 ? 60 : -60);
    else await page.mouse.move(300 + (i % 400), 300 + ((i * 7) % 300));
  }
  const f1 = await page.evaluate(sample);
  if (whole) await page.evaluate(() => { window.__whole = false; });
  const s = (f1.t - f0.t) / 1000;
  return { fps: (f1.frames - f0.frames) / s, drawnFps: (f1.drawn - f0.drawn) / s,
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
  out.fpsQuickstart = await framesPerSecond('pointer');
  out.wholeQuickstart = await framesPerSecond('pointer', true);
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
  out.fpsAfter = await framesPerSecond('pointer');
  out.scrollAfter = await framesPerSecond('wheel');
  out.wholeAfter = await framesPerSecond('wheel', true);
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
  const f = (m) => `${m.fps.toFixed(1)} frames/s, ${m.drawnFps.toFixed(1)} drawn, ${m.workMs.toFixed(1)} ms of app work a frame`;
  console.log(`afterwards, the pointer moving: ${f(out.fpsAfter)}; the cluster view scrolling: ${f(out.scrollAfter)}; ` +
              `every frame drawn whole: ${f(out.wholeAfter)}`);
  console.log(`quickstart, the pointer moving: ${f(out.fpsQuickstart)}; every frame drawn whole: ${f(out.wholeQuickstart)}`);
  if (out.errors.length) console.log(`page errors: ${out.errors.join('; ')}`);
}
