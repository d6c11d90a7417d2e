// The benchmark report: every scenario of bench/scenarios.mjs end to end through the native CLI
// (`kplace run --format json FILE`) and through the page's WebAssembly core under node (`kplace_run`, what the
// page's worker calls), one after the other in one run, checking that both print the same result.
//   node bench/bench.mjs [--filter TEXT] [--report docs/benchmarks.md] [--repeat N]
// Environment: KPLACE_CLI (default build/native-release/kplace), KPLACE_SITE (default build/wasm/site).
// Times are wall clock (the best of N runs, default 1); peak memory is the CLI's maximum resident set
// (/usr/bin/time) and the wasm memory's size after the run (it only grows). Figures, not thresholds.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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
const cli = path.resolve(process.env.KPLACE_CLI || path.join(repoRoot, 'build/native-release/kplace'));
const siteDir = path.resolve(process.env.KPLACE_SITE || path.join(repoRoot, 'build/wasm/site'));
const workDir = path.join(repoRoot, 'build/bench-scenarios');
mkdirSync(workDir, { recursive: true });

const require = createRequire(import.meta.url);
const createKplaceCore = require(path.join(siteDir, 'kplace-core.js'));
const wasmBinary = readFileSync(path.join(siteDir, 'kplace-core.wasm'));

function runNative(file) {
  let best = null;
  for (let r = 0; r < repeat; ++r) {
    const out = spawnSync('/usr/bin/time', ['-f', '%e %M', cli, 'run', '--format', 'json', file],
                          { maxBuffer: 1 << 30, encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`${file}: kplace exited ${out.status}: ${out.stderr}`);
    const [wall, rssKb] = out.stderr.trim().split('\n').pop().split(' ').map(Number);
    if (!best || wall < best.seconds) best = { seconds: wall, peakMB: rssKb / 1024, text: out.stdout };
  }
  return best;
}

async function runWasm(text) {
  let best = null;
  for (let r = 0; r < repeat; ++r) {
    // A fresh instance per run: its memory starts small, so its size afterwards is this run's peak.
    const mod = await createKplaceCore({ wasmBinary });
    const size = mod.lengthBytesUTF8(text) + 1;
    const buf = mod._malloc(size);
    mod.stringToUTF8(text, buf, size);
    const start = performance.now();
    const ptr = mod.ccall('kplace_run', 'number', ['number', 'number'], [buf, 0]);
    const seconds = (performance.now() - start) / 1000;
    const envelope = JSON.parse(mod.UTF8ToString(ptr));
    mod.ccall('kplace_free', null, ['number'], [ptr]);
    if (envelope.status !== 'success') throw new Error(JSON.stringify(envelope.errors));
    if (!best || seconds < best.seconds) best = { seconds, peakMB: mod.HEAPU8.length / 1048576, result: envelope.result };
  }
  return best;
}

function placedPods(result) {
  return Object.values(result.pods).filter((p) => p.node || p.nodeClaim).length;
}

const rows = [];
const cpu = os.cpus()[0]?.model ?? 'unknown cpu';
console.log(`kplace benchmarks: ${cli} and ${siteDir} (node ${process.version}, ${os.cpus().length} x ${cpu})`);
for (const s of scenarios) {
  if (!s.name.includes(filter)) continue;
  const text = JSON.stringify(s.make());
  const file = path.join(workDir, `${s.name}.json`);
  writeFileSync(file, text);
  const native = runNative(file);
  const wasm = await runWasm(text);
  const nativeResult = JSON.parse(native.text);
  // Same answer from both builds (the page shows what the CLI prints).
  if (JSON.stringify(nativeResult) !== JSON.stringify(wasm.result)) throw new Error(`${s.name}: native and wasm results differ`);
  const placed = placedPods(nativeResult);
  const row = { ...s, bytes: text.length, placed, native, wasm,
                nativeRate: s.pods / native.seconds, wasmRate: s.pods / wasm.seconds, ratio: wasm.seconds / native.seconds };
  rows.push(row);
  console.log(`${s.name.padEnd(46)} native ${native.seconds.toFixed(2).padStart(6)} s ${row.nativeRate.toFixed(0).padStart(7)} pods/s ` +
              `${native.peakMB.toFixed(0).padStart(5)} MB | wasm ${wasm.seconds.toFixed(2).padStart(6)} s ` +
              `${row.wasmRate.toFixed(0).padStart(7)} pods/s ${wasm.peakMB.toFixed(0).padStart(5)} MB | ${row.ratio.toFixed(2)}x` +
              (s.threshold ? ` | ${(row.nativeRate / s.threshold).toFixed(1)}x upstream ${s.threshold}` : ''));
}

if (reportPath) {
  const fmt = (n) => Math.round(n).toLocaleString('en-US');
  const commit = execFileSync('git', ['-C', repoRoot, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const lines = [
    '# Benchmarks',
    '',
    `Generated by \`node bench/bench.mjs --report docs/benchmarks.md\` (after \`scripts/bench.sh\` builds the Release CLI and`,
    `the site) at ${commit}, ${new Date().toISOString().slice(0, 10)}, on ${os.cpus().length} x ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB,`,
    `load average ${os.loadavg()[0].toFixed(1)}, node ${process.version}. The machine is shared and noisy: compare rows of one run, not`,
    'runs. Figures, not thresholds: no test asserts a time.',
    '',
    'Each scenario runs end to end: native, `kplace run --format json FILE` (reading and parsing the file, scheduling,',
    'writing the result); WebAssembly, the page\'s core `kplace_run` under node (the scenario text in, the result text',
    'out), with identical results checked. pods/s = pods the run schedules / wall time. Peak memory: the CLI\'s maximum',
    'resident set; the wasm memory after the run (a fresh instance each). Upstream threshold: the minimum',
    'SchedulingThroughput average kube-scheduler\'s scheduler_perf accepts for that workload (newest',
    'performance-config.yaml; older releases\' in parentheses); scheduler_perf measures the scheduler alone, here',
    'parsing and output are in the time too. Scenario shapes: `bench/scenarios.mjs`.',
    '',
    '| scenario | pods | native s | native pods/s | native peak MB | wasm s | wasm pods/s | wasm peak MB | wasm / native | upstream threshold pods/s | native / threshold |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const threshold = r.threshold ? `${r.threshold}${r.oldThreshold ? ` (${r.oldThreshold})` : ''}` : '';
    lines.push(`| ${r.title} | ${fmt(r.pods)} | ${r.native.seconds.toFixed(2)} | ${fmt(r.nativeRate)} | ${fmt(r.native.peakMB)} | ` +
               `${r.wasm.seconds.toFixed(2)} | ${fmt(r.wasmRate)} | ${fmt(r.wasm.peakMB)} | ${r.ratio.toFixed(2)}x | ${threshold} | ` +
               `${r.threshold ? `${(r.nativeRate / r.threshold).toFixed(0)}x` : ''} |`);
  }
  lines.push('');
  writeFileSync(path.resolve(repoRoot, reportPath), lines.join('\n'));
  console.log(`wrote ${reportPath}`);
}
