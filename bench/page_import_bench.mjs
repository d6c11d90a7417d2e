// A cluster dump imported by the page in headless Chromium, as a user drops it on the playground: how long the
// import and the run take, how many frames the page drew meanwhile and its longest frame gap, and the result's
// counts. Figures, not thresholds.
//   node bench/page_import_bench.mjs DUMP.json   (after scripts/build-site.sh and `npm ci` in tests/web, which has
//                                                 playwright-core; bench/cluster_dump.py writes a dump)
// KPLACE_SITE overrides the site folder (build/wasm/site), KPLACE_CHROMIUM the browser (/usr/bin/chromium).
import { openSite } from './page_harness.mjs';

const dump = process.argv[2];
if (!dump) {
  console.error('usage: node bench/page_import_bench.mjs DUMP.json');
  process.exit(2);
}
const { page, errors, close } = await openSite({ '/__dump.json': dump });
try {
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
  await close();
}
