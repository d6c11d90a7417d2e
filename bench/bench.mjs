// The benchmark report: every scenario of bench/scenarios.mjs end to end through the native CLI
// (`kplace run --format json FILE`) and through the page's WebAssembly core (`kplace_run`, what the page's worker
// calls) under node and in a Web Worker in headless Chromium (bench/chromium_core_worker.js), one after the other in
// one run, checking that all print the same result.
//   node bench/bench.mjs [--filter TEXT] [--report docs/benchmarks.md] [--repeat N] [--page] [--no-chromium]
// --page: also the page in headless Chromium (bench/page_bench.mjs: presets re-run per keystroke, the
// 150,000-pod import, the frame rate afterwards), which needs the whole site (scripts/build-site.sh) and playwright-core
// (npm ci in tests/web), as the core's runs in Chromium do; --no-chromium leaves those runs out (node only).
// Environment: KPLACE_CLI (default build/native-release/kplace), KPLACE_SITE (default build/wasm/site).
// Times are wall clock (the best of N runs, default 1); peak memory is the CLI's maximum resident set
// (/usr/bin/time) and the wasm memory's size after the run (it only grows). Figures, not thresholds.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSite } from './page_harness.mjs';
import { scenarios } from './scenarios.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const filter = option('--filter', '');
const reportPath = option('--report', '');
const repeat = Number(option('--repeat', '1'));
const withPage = args.includes('--page');
const withChromium = !args.includes('--no-chromium');
const cli = path.resolve(process.env.KPLACE_CLI || path.join(repoRoot, 'build/native-release/kplace'));
const siteDir = path.resolve(process.env.KPLACE_SITE || path.join(repoRoot, 'build/wasm/site'));
const workDir = path.join(repoRoot, 'build/bench-scenarios');
mkdirSync(workDir, { recursive: true });

const require = createRequire(import.meta.url);
const createKplaceCore = require(path.join(siteDir, 'kplace-core.js'));
const wasmBinary = readFileSync(path.join(siteDir, 'kplace-core.wasm'));
// Compiled once and kept: its code tiers up over the runs, as in the page's long-lived Web Worker (each run's fresh
// instance would otherwise compile again, and time V8's lazy compilation of every function it calls).
const wasmModule = new WebAssembly.Module(wasmBinary);
function instantiateWasm(imports, receive) {
  const instance = new WebAssembly.Instance(wasmModule, imports);
  receive(instance, wasmModule);
  return instance.exports;
}
// Each wasm instance registers process listeners (Emscripten's node glue), which keep it alive: runWasm removes them
// after each run, or the instances of the runs before (hundreds of MB each, gigabytes by the last scenario) slowed
// the later runs and the page by up to a third.
process.setMaxListeners(0);
const glueEvents = ['uncaughtException', 'unhandledRejection', 'exit'];

// One native run; returns the faster of it and best (runSeconds: the fastest run phase of either, `--timings`).
// defaultHeap: KPLACE_HEAP=default (the CLI's heap without its huge pages, cli/heap.cpp).
function runNative(file, best, defaultHeap = false) {
  const env = defaultHeap ? { ...process.env, KPLACE_HEAP: 'default' } : process.env;
  const out = spawnSync('/usr/bin/time', ['-f', '%e %M', cli, 'run', '--timings', '--format', 'json', file],
                        { maxBuffer: 1 << 30, encoding: 'utf8', env });
  if (out.status !== 0) throw new Error(`${file}: kplace exited ${out.status}: ${out.stderr}`);
  const lines = out.stderr.trim().split('\n');
  const [wall, rssKb] = lines.pop().split(' ').map(Number);
  const run = Number(/^kplace: timings: .* run (\d+\.\d+) s/m.exec(out.stderr)?.[1]);
  if (!(run >= 0)) throw new Error(`${file}: no run time in kplace's timings: ${out.stderr}`);
  const runSeconds = best ? Math.min(best.runSeconds, run) : run;
  if (best && wall >= best.seconds) return { ...best, runSeconds };
  return { seconds: wall, peakMB: rssKb / 1024, text: out.stdout, runSeconds };
}

// One wasm run; returns the faster of it and best.
async function runWasm(text, best) {
  // A fresh instance per run: its memory starts small, so its size afterwards is this run's peak.
  const listening = new Map(glueEvents.map((e) => [e, process.listeners(e)]));
  const mod = await createKplaceCore({ instantiateWasm });
  const size = mod.lengthBytesUTF8(text) + 1;
  const buf = mod._malloc(size);
  mod.stringToUTF8(text, buf, size);
  const start = performance.now();
  const ptr = mod.ccall('kplace_run', 'number', ['number', 'number'], [buf, 0]);
  const seconds = (performance.now() - start) / 1000;
  // Kept as text until the runs are over: a parsed 160 MB answer per run left the next runs timing the garbage
  // collector over a gigabyte of objects (a fifth of Karpenter's 20,000-pod row). Without explanations a success
  // envelope starts with its result.
  const envelopeText = mod.UTF8ToString(ptr);
  mod.ccall('kplace_free', null, ['number'], [ptr]);
  if (!envelopeText.startsWith('{"result":')) throw new Error(JSON.stringify(JSON.parse(envelopeText).errors));
  if (!best || seconds < best.seconds) best = { seconds, peakMB: mod.HEAPU8.length / 1048576, envelopeText };
  for (const [e, before] of listening)
    for (const l of process.listeners(e)) if (!before.includes(l)) process.removeListener(e, l);
  return best;
}

// Karpenter's disruption dry run: the nodes a method reached a verdict on (delete, replace, or why not).
function decidedNodes(result) {
  if (!result.disruption) return 0;
  return Object.values(result.disruption.nodes)
    .filter((n) => Object.values(n.methods || {}).some((m) => m.outcome !== undefined)).length;
}

function placedPods(result) {
  return Object.values(result.pods).filter((p) => p.node || p.nodeClaim).length;
}

// The core in Chromium: the browser the page tests run in (its V8 is newer than node's), a Web Worker as in the page.
let chromium = null;
if (withChromium) {
  const site = await openSite({ '/__core-runner.js': path.join(repoRoot, 'bench/chromium_core_worker.js'),
                                '/__bench/': workDir });
  await site.page.evaluate(() => { window.__coreRunner = new Worker('/__core-runner.js'); });
  chromium = { ...site, version: site.page.context().browser().version() };
}
// One run of the scenario file in Chromium's worker; returns the faster of it and best.
async function runChromium(file, best) {
  const out = await chromium.page.evaluate((file) => new Promise((resolve) => {
    const w = window.__coreRunner;
    w.onmessage = (e) => { if (e.data.type !== 'progress') resolve(e.data); };
    w.postMessage({ file });
  }), path.basename(file));
  if (out.error) throw new Error(`${file}: in Chromium: ${out.error}`);
  return !best || out.seconds < best.seconds ? out : best;
}

const rows = [];
const cpu = os.cpus()[0]?.model ?? 'unknown cpu';
console.log(`kplace benchmarks: ${cli} and ${siteDir} (node ${process.version}, ${os.cpus().length} x ${cpu})`);
for (const s of scenarios) {
  if (!s.name.includes(filter)) continue;
  const text = JSON.stringify(s.make());
  const file = path.join(workDir, `${s.name}.json`);
  writeFileSync(file, text);
  // Native and wasm runs take turns, so that a burst of load on this shared machine slows both sides alike.
  let native = null, nativeSmallPages = null, wasm = null, browser = null;
  // Before the first scenario, one untimed run in each engine: the module's hot code is compiled as it runs (tiering
  // up), as the page's long-lived worker has done by its second run; timed, the first row paid for it alone.
  if (rows.length === 0) {
    await runWasm(text, null);
    if (chromium) await runChromium(file, null);
  }
  for (let r = 0; r < repeat; ++r) {
    native = runNative(file, native);
    nativeSmallPages = runNative(file, nativeSmallPages, true);
    wasm = await runWasm(text, wasm);
    if (chromium) browser = await runChromium(file, browser);
  }
  if (nativeSmallPages.text !== native.text) throw new Error(`${s.name}: the CLI's heap changed its answer`);
  const nativeResult = JSON.parse(native.text);
  // Same answer from both builds (the page shows what the CLI prints).
  if (JSON.stringify(nativeResult) !== JSON.stringify(JSON.parse(wasm.envelopeText).result))
    throw new Error(`${s.name}: native and wasm results differ`);
  // Chromium's answer, byte for byte the one under node.
  if (browser && browser.sha256 !== createHash('sha256').update(wasm.envelopeText).digest('hex'))
    throw new Error(`${s.name}: the core's answers in Chromium and under node differ`);
  const placed = placedPods(nativeResult);
  const decided = decidedNodes(nativeResult);
  // Only figures are kept: every earlier scenario's answers (hundreds of MB of text and objects) held alive made the
  // later wasm runs time V8's collector over them.
  delete native.text;
  delete nativeSmallPages.text;
  delete wasm.envelopeText;
  const row = { ...s, bytes: text.length, placed, decided, native, nativeSmallPages, wasm,
                nativeRate: s.pods / native.seconds, wasmRate: s.pods / wasm.seconds, ratio: wasm.seconds / native.seconds,
                smallPagesRatio: wasm.seconds / nativeSmallPages.seconds, browser,
                browserRatio: browser ? browser.seconds / native.seconds : null };
  rows.push(row);
  console.log(`${s.name.padEnd(46)} native ${native.seconds.toFixed(2).padStart(6)} s ${row.nativeRate.toFixed(0).padStart(7)} pods/s ` +
              `(run ${native.runSeconds.toFixed(2)} s) ` +
              `${native.peakMB.toFixed(0).padStart(5)} MB | wasm ${wasm.seconds.toFixed(2).padStart(6)} s ` +
              `${row.wasmRate.toFixed(0).padStart(7)} pods/s ${wasm.peakMB.toFixed(0).padStart(5)} MB | ${row.ratio.toFixed(2)}x ` +
              `(native with 4 KiB pages ${nativeSmallPages.seconds.toFixed(2)} s: ${row.smallPagesRatio.toFixed(2)}x)` +
              (browser ? ` | Chromium ${browser.seconds.toFixed(2)} s ${row.browserRatio.toFixed(2)}x` : '') +
              (s.threshold ? ` | ${(row.nativeRate / s.threshold).toFixed(1)}x upstream ${s.threshold}` : '') +
              (decided ? ` | ${decided} nodes decided: ${(decided / native.seconds).toFixed(0)}/s native, ` +
                         `${(decided / wasm.seconds).toFixed(0)}/s wasm` : ''));
}

if (chromium) await chromium.close();

let page = null;
if (withPage) {
  const out = spawnSync(process.execPath, [path.join(repoRoot, 'bench/page_bench.mjs'), '--json'],
                        { encoding: 'utf8', env: { ...process.env, KPLACE_SITE: siteDir }, maxBuffer: 1 << 26 });
  if (out.status !== 0) throw new Error(`bench/page_bench.mjs failed: ${out.stderr}`);
  page = JSON.parse(out.stdout.trim().split('\n').pop());
  for (const p of page.presets)
    console.log(`page: ${p.name.padEnd(26)} re-run ${p.medianMs.toFixed(1)} ms median, ${p.maxMs.toFixed(1)} ms slowest`);
  const r = page.import;
  const f = (m) => `${m.fps.toFixed(1)} frames/s (${m.drawnFps.toFixed(1)} drawn), ${m.workMs.toFixed(1)} ms of app work a frame`;
  console.log(`page: 150,000-pod import ${r.importS.toFixed(1)} s, with the run ${r.totalS.toFixed(1)} s, longest frame gap ` +
              `${r.maxGapMs.toFixed(0)} ms; afterwards, the pointer moving ${f(page.fpsAfter)}; scrolling ${f(page.scrollAfter)}; ` +
              `drawn whole ${f(page.wholeAfter)} (quickstart ${f(page.fpsQuickstart)}; drawn whole ${f(page.wholeQuickstart)})`);
}

if (reportPath) {
  const fmt = (n) => Math.round(n).toLocaleString('en-US');
  const commit = execFileSync('git', ['-C', repoRoot, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const lines = [
    '# Benchmarks',
    '',
    `Generated by \`scripts/bench.sh\` (\`node bench/bench.mjs${withPage ? ' --page' : ''} --repeat ${repeat} --report docs/benchmarks.md\`) at`,
    `${commit}, ${new Date().toISOString().slice(0, 10)}, on ${os.cpus().length} x ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB,`,
    `load average ${os.loadavg()[0].toFixed(1)}, node ${process.version}${chromium ? `, Chromium ${chromium.version}` : ''}. The machine is shared and noisy: compare rows of one run, not`,
    'runs. Figures, not thresholds: no test asserts a time. To compare a change before and after on such a machine,',
    '`bench/instructions.sh` counts instructions instead (cachegrind: the CLI, and node running the wasm core).',
    '',
    'Each scenario runs end to end: native, `kplace run --format json FILE` (reading and parsing the file, scheduling,',
    'writing the result); WebAssembly, the page\'s core `kplace_run` under node (the scenario text in, the result text',
    'out) and, where the page runs it, in a Web Worker in headless Chromium (`bench/chromium_core_worker.js`), with',
    `identical results checked; the best of ${repeat} run${repeat === 1 ? '' : 's'} each, native and wasm taking turns. pods/s = pods the run schedules / wall time. Peak memory: the CLI\'s maximum`,
    'resident set; the wasm memory after the run (a fresh instance each, of one module compiled once, whose code tiers up',
    'across the runs as in the page\'s long-lived Web Worker; one untimed run of the first scenario before it). Upstream threshold: the minimum',
    'SchedulingThroughput average kube-scheduler\'s scheduler_perf accepts for that workload (newest',
    'performance-config.yaml; older releases\' in parentheses); scheduler_perf measures the scheduler alone, the',
    'end-to-end columns here parsing and output too. Scenario shapes: `bench/scenarios.mjs`. The CLI grows its heap once and',
    'backs it with transparent huge pages (`cli/heap.cpp`); the engine maps WebAssembly memory in 4 KiB pages, so the',
    '"4 KiB pages" columns compare the same C++ on the same pages: the CLI with `KPLACE_HEAP=default`. Native run s: the',
    'run alone, from the parsed scenario to its result in memory (`kplace run --timings`), as scheduler_perf and',
    '`bench/scheduler_bench.cpp` time it; its pods/s are the ones to hold against the threshold. The wasm core',
    'takes blocks of up to 256 bytes from free lists (`wasm/small_blocks.h`), larger ones from Emscripten\'s dlmalloc; the',
    `CLI uses glibc's malloc. Chromium's V8 is newer than node's (V8 ${process.versions.v8.split('-')[0]}): the same wasm, two engines.`,
    '',
    `| scenario | pods | native s | native pods/s | native run s | native run pods/s | native peak MB | wasm s | wasm pods/s | wasm peak MB | wasm / native | native s, 4 KiB pages | wasm / that | ${chromium ? 'wasm in Chromium s | Chromium / native | ' : ''}upstream threshold pods/s | native / threshold | native run / threshold |`,
    `|---|---|---|---|---|---|---|---|---|---|---|---|---|${chromium ? '---|---|' : ''}---|---|---|`,
  ];
  for (const r of rows) {
    const threshold = r.threshold ? `${r.threshold}${r.oldThreshold ? ` (${r.oldThreshold})` : ''}` : '';
    lines.push(`| ${r.title} | ${fmt(r.pods)} | ${r.native.seconds.toFixed(2)} | ${fmt(r.nativeRate)} | ` +
               `${r.native.runSeconds.toFixed(2)} | ${fmt(r.pods / r.native.runSeconds)} | ${fmt(r.native.peakMB)} | ` +
               `${r.wasm.seconds.toFixed(2)} | ${fmt(r.wasmRate)} | ${fmt(r.wasm.peakMB)} | ${r.ratio.toFixed(2)}x | ` +
               `${r.nativeSmallPages.seconds.toFixed(2)} | ${r.smallPagesRatio.toFixed(2)}x | ` +
               (r.browser ? `${r.browser.seconds.toFixed(2)} | ${r.browserRatio.toFixed(2)}x | ` : '') + `${threshold} | ` +
               `${r.threshold ? `${(r.nativeRate / r.threshold).toFixed(0)}x` : ''} | ` +
               `${r.threshold ? `${(r.pods / r.native.runSeconds / r.threshold).toFixed(0)}x` : ''} |`);
  }
  const disruption = rows.filter((r) => r.decided > 0);
  if (disruption.length) {
    lines.push('', '## Karpenter\'s disruption dry run', '',
               'The rows above whose scenario has nodes Karpenter manages also run its disruption controller once over the',
               'cluster (the time includes it). Nodes decided: the nodes a method reached a verdict on (delete, replace, or',
               'why not), each after a scheduling simulation of its pods (multi-node consolidation\'s probes come on top).', '',
               '| scenario | nodes decided | native s | native decisions/s | wasm s | wasm decisions/s |', '|---|---|---|---|---|---|');
    for (const r of disruption)
      lines.push(`| ${r.title} | ${fmt(r.decided)} | ${r.native.seconds.toFixed(2)} | ${fmt(r.decided / r.native.seconds)} | ` +
                 `${r.wasm.seconds.toFixed(2)} | ${fmt(r.decided / r.wasm.seconds)} |`);
  }
  if (page) {
    const r = page.import;
    lines.push('', '## The page (headless Chromium, `bench/page_bench.mjs`)', '',
               'Software rendering (SwiftShader), so frame rates are a floor: there a frame costs the pixels its triangles',
               'cover, a textured one about twice a plain one, and the page is drawn to suit (its own WebGL2 renderer,',
               '`wasm/webgl_renderer.h`, fetches no texel for solid fills; neither the window nor its panes are filled, the',
               'frame is cleared to their colour, `app/ui/pane_backdrop.h`). Re-run: `kplace.load(text)` of the preset with',
               'its name edited, as after a keystroke (20 runs; the first load, which also builds the view, left out).', '',
               '| preset | re-run median ms | slowest ms |', '|---|---|---|');
    for (const p of page.presets) lines.push(`| ${p.name} | ${p.medianMs.toFixed(1)} | ${p.maxMs.toFixed(1)} |`);
    lines.push('', `A generated 5,000-node / 150,000-pod List (${(r.bytes / 1e6).toFixed(0)} MB; 149,800 pods bound, 200 pending) ` +
               `imported with \`kplace.importText\`: import ${r.importS.toFixed(1)} s, import and run ${r.totalS.toFixed(1)} s, ` +
               `${r.frames} frames drawn meanwhile, longest frame gap ${r.maxGapMs.toFixed(0)} ms.`,
               '', 'Afterwards, 3 s of input each: frames/s the app produced; of them drawn/s, those the renderer drew (a frame',
               'redraws only the windows that changed, over the pixels kept from before, and nothing when nothing did:',
               '`wasm/webgl_renderer.h`); drawn whole: `kplace.redraw()` every frame, the cost of a frame where everything',
               'changed. App work: `kplace.frameWork` a frame (layout, draw lists, WebGL calls; the rest is the browser\'s).', '',
               '| after | input | frames/s | drawn/s | app work ms a frame |', '|---|---|---|---|---|');
    const row = (what, input, m) => lines.push(`| ${what} | ${input} | ${m.fps.toFixed(1)} | ${m.drawnFps.toFixed(1)} | ${m.workMs.toFixed(1)} |`);
    row('the 150,000-pod import', 'the pointer moving over the editor, the cluster view and the details', page.fpsAfter);
    row('the 150,000-pod import', 'the wheel scrolling the cluster view', page.scrollAfter);
    row('the 150,000-pod import', 'the wheel, every frame drawn whole', page.wholeAfter);
    row('quickstart (the smallest preset)', 'the pointer moving', page.fpsQuickstart);
    row('quickstart (the smallest preset)', 'the pointer, every frame drawn whole', page.wholeQuickstart);
  }
  lines.push('', 'Large cluster dumps (kubectl shapes, up to 295 MB) through the CLI and the page: `bench/REPORT.md`.', '');
  writeFileSync(path.resolve(repoRoot, reportPath), lines.join('\n'));
  console.log(`wrote ${reportPath}`);
}
