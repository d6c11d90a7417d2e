// The site served locally and opened in headless Chromium, for the page benchmarks (bench/page_bench.mjs,
// bench/page_import_bench.mjs). KPLACE_SITE overrides the site folder (build/wasm/site), KPLACE_CHROMIUM the browser
// (/usr/bin/chromium); playwright-core comes from tests/web (`npm ci` there).
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const siteDir = path.resolve(process.env.KPLACE_SITE || path.join(repoRoot, 'build/wasm/site'));

// Serves the site, plus each of extraFiles at its URL path: {"/__dump.json": "/path/file"} one file,
// {"/__bench/": "/some/dir"} a folder's files under that prefix. Returns {page, close}.
export async function openSite(extraFiles = {}) {
  const { chromium } = createRequire(path.join(repoRoot, 'tests/web/package.json'))('playwright-core');
  const extra = (rel) => {
    if (extraFiles[rel]) return path.resolve(extraFiles[rel]);
    const prefix = Object.keys(extraFiles).find((k) => k.endsWith('/') && rel.startsWith(k));
    return prefix ? path.join(path.resolve(extraFiles[prefix]), rel.slice(prefix.length)) : null;
  };
  const server = createServer((req, res) => {
    const rel = path.normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    let file = extra(rel) || path.join(siteDir, rel);
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
  const browser = await chromium.launch({
    executablePath: process.env.KPLACE_CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--enable-unsafe-swiftshader',
           '--use-angle=swiftshader'],
  });
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.evaluate(() => window.kplace.ready);
  return {
    page,
    errors,
    close: async () => {
      await browser.close();
      server.close();
    },
  };
}

// Imports the text the page holds in window.__importText with kplace.importText, as a user drops a file, and waits
// for the run: import and total seconds, frames drawn meanwhile, the longest frame gap (ms), the result's pod count.
export function measureImport(page, filename) {
  return page.evaluate(async (name) => {
    const text = window.__importText;
    window.__importText = null;
    let maxGap = 0, last = performance.now(), stop = false;
    const tick = () => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
      if (!stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    const f0 = window.kplace.frames(), t0 = performance.now();
    const answer = await window.kplace.importText(text, name);
    const imported = performance.now();
    await new Promise((resolve) => {
      const poll = () => (window.kplace.running() ? setTimeout(poll, 50) : resolve());
      poll();
    });
    stop = true;
    const result = window.kplace.result();
    return { ok: answer.ok, error: answer.error, summary: answer.summary, bytes: text.length,
             importS: (imported - t0) / 1000, totalS: (performance.now() - t0) / 1000,
             frames: window.kplace.frames() - f0, maxGapMs: maxGap, pods: result ? Object.keys(result.pods).length : 0 };
  }, filename);
}
