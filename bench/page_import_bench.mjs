// A cluster dump imported by the page in headless Chromium, as a user drops it on the playground: how long the
// import and the run take, how many frames the page drew meanwhile and its longest frame gap, and the result's
// counts. Figures, not thresholds.
//   node bench/page_import_bench.mjs DUMP.json   (after scripts/build-site.sh and `npm ci` in tests/web, which has
//                                                 playwright-core; bench/cluster_dump.py writes a dump)
// KPLACE_SITE overrides the site folder (build/wasm/site), KPLACE_CHROMIUM the browser (/usr/bin/chromium).
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const siteDir = path.resolve(process.env.KPLACE_SITE || path.join(repoRoot, 'build/wasm/site'));
const dump = process.argv[2];
if (!dump) {
  console.error('usage: node bench/page_import_bench.mjs DUMP.json');
  process.exit(2);
}
const { chromium } = createRequire(path.join(repoRoot, 'tests/web/package.json'))('playwright-core');

// The site, and the dump at /__dump.json.
const server = createServer((req, res) => {
  const rel = path.normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
  let file = rel === '/__dump.json' ? path.resolve(dump) : path.join(siteDir, rel);
  try {
    if (statSync(file).isDirectory()) file = path.join(file, 'index.html');
    statSync(file);
  } catch {
    res.writeHead(404).end();
    return;
  }
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
  res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
  createReadStream(file).pipe(res);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: process.env.KPLACE_CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--enable-unsafe-swiftshader',
         '--use-angle=swiftshader'],
});
try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.evaluate(() => window.kplace.ready);
  const bytes = await page.evaluate(async () => {
    window.__dump = await (await fetch('/__dump.json')).text();
    return window.__dump.length;
  });
  const r = await page.evaluate(async () => {
    let maxGap = 0, last = performance.now(), stop = false;
    const tick = () => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
      if (!stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    const f0 = window.kplace.frames(), t0 = performance.now();
    const answer = await window.kplace.importText(window.__dump, 'dump.json');
    const imported = performance.now();
    window.__dump = null;
    await new Promise((resolve) => {
      const poll = () => (window.kplace.running() ? setTimeout(poll, 100) : resolve());
      poll();
    });
    stop = true;
    const result = window.kplace.result();
    return { ok: answer.ok, error: answer.error, summary: answer.summary, importS: (imported - t0) / 1000,
             totalS: (performance.now() - t0) / 1000, frames: window.kplace.frames() - f0, maxGapS: maxGap / 1000,
             pods: result ? Object.keys(result.pods).length : 0 };
  });
  console.log(`${(bytes / 1e6).toFixed(0)} MB: ${r.ok ? 'imported' : 'FAILED ' + r.error}; import ${r.importS.toFixed(1)} s, ` +
              `import and run ${r.totalS.toFixed(1)} s, ${r.frames} frames drawn, longest frame gap ` +
              `${r.maxGapS.toFixed(1)} s; result: ${r.pods} pods`);
  if (r.summary) console.log(`summary: ${r.summary.message || JSON.stringify(r.summary)}`);
  if (errors.length) console.log(`page errors: ${errors.join('; ')}`);
  process.exitCode = r.ok && !errors.length ? 0 : 1;
} finally {
  await browser.close();
  server.close();
}
