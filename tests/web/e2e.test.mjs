// The playground end to end in headless Chromium (Debian's /usr/bin/chromium driven by playwright-core, WebGL2
// through SwiftShader): the page loads without console errors, shows the default preset's placements, follows
// kplace.load() and typing in the editor, keeps the last result on invalid input, follows resizes and
// devicePixelRatio, and draws something (screenshot checked for pixel variance).
//   node --test tests/web/e2e.test.mjs       (after `cmake --build --preset wasm`; `npm ci` in tests/web)
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
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

// Mean and variance of the screenshot's pixels, computed in the page (no image library needed).
async function pixelStats(p, png) {
  return p.evaluate(async (b64) => {
    const img = new Image();
    img.src = 'data:image/png;base64,' + b64;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
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
  }, png.toString('base64'));
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
