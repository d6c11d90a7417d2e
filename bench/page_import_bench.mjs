// A cluster dump imported by the page in headless Chromium, as a user drops it on the playground: how long the
// import and the run take, how many frames the page drew meanwhile and its longest frame gap, and the result's
// counts. Figures, not thresholds.
//   node bench/page_import_bench.mjs DUMP.json   (after scripts/build-site.sh and `npm ci` in tests/web, which has
//                                                 playwright-core; bench/cluster_dump.py writes a dump)
// KPLACE_SITE overrides the site folder (build/wasm/site), KPLACE_CHROMIUM the browser (/usr/bin/chromium).
import { measureImport, openSite } from './page_harness.mjs';

const dump = process.argv[2];
if (!dump) {
  console.error('usage: node bench/page_import_bench.mjs DUMP.json');
  process.exit(2);
}
const { page, errors, close } = await openSite({ '/__dump.json': dump });
try {
  await page.evaluate(async () => {
    window.__importText = await (await fetch('/__dump.json')).text();
  });
  const r = await measureImport(page, 'dump.json');
  console.log(`${(r.bytes / 1e6).toFixed(0)} MB: ${r.ok ? 'imported' : 'FAILED ' + r.error}; import ${r.importS.toFixed(1)} s, ` +
              `import and run ${r.totalS.toFixed(1)} s, ${r.frames} frames drawn, longest frame gap ` +
              `${(r.maxGapMs / 1000).toFixed(1)} s; result: ${r.pods} pods`);
  if (r.summary) console.log(`summary: ${r.summary.message || JSON.stringify(r.summary)}`);
  if (errors.length) console.log(`page errors: ${errors.join('; ')}`);
  process.exitCode = r.ok && !errors.length ? 0 : 1;
} finally {
  await close();
}
