// Loads the built kplace-core module (build/wasm/site by default, or $KPLACE_SITE) under node and wraps its C API
// the way a page or a Web Worker would.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const siteDir = path.resolve(process.env.KPLACE_SITE || path.join(repoRoot, 'build/wasm/site'));

export async function loadCore() {
  const require = createRequire(import.meta.url);
  const createKplaceCore = require(path.join(siteDir, 'kplace-core.js'));
  // Hand the wasm bytes over: node 20's fetch() cannot load a file path (toolchain notes).
  const mod = await createKplaceCore({ wasmBinary: readFileSync(path.join(siteDir, 'kplace-core.wasm')) });
  return {
    version: () => mod.ccall('kplace_version', 'string', [], []),
    // Returns the parsed envelope: {status: "success", result, explanations?} or {status: "failure", errors}.
    // kplace_explain: the envelope with only pod's explanation.
    explain(text, pod) {
      const ptr = mod.ccall('kplace_explain', 'number', ['string', 'string'], [text, pod]);
      try {
        return JSON.parse(mod.UTF8ToString(ptr));
      } finally {
        mod.ccall('kplace_free', null, ['number'], [ptr]);
      }
    },
    // kplace_disruption: {status: "success", result, node?} (the run with Karpenter's disruption dry run; node's
    // explanation when node is not "") or the failure envelope.
    disruption(text, node = '') {
      const ptr = mod.ccall('kplace_disruption', 'number', ['string', 'string'], [text, node]);
      try {
        return JSON.parse(mod.UTF8ToString(ptr));
      } finally {
        mod.ccall('kplace_free', null, ['number'], [ptr]);
      }
    },
    // kplace_import: {status: "success", import, scenarioBytes} with the scenario's bytes behind its NUL, returned
    // here as {status, import, scenarioBytes, scenario (the bytes decoded), scenarioEnd (the byte after them)}; or the
    // failure envelope.
    importDump(text) {
      const ptr = mod.ccall('kplace_import', 'number', ['string'], [text]);
      try {
        const envelope = JSON.parse(mod.UTF8ToString(ptr));
        if (envelope.status === 'success') {
          const at = mod.HEAPU8.indexOf(0, ptr) + 1;
          envelope.scenario = new TextDecoder().decode(mod.HEAPU8.subarray(at, at + envelope.scenarioBytes));
          envelope.scenarioEnd = mod.HEAPU8[at + envelope.scenarioBytes];
        }
        return envelope;
      } finally {
        mod.ccall('kplace_free', null, ['number'], [ptr]);
      }
    },
    // kplace_to_yaml: {status: "success", yaml} or the failure envelope.
    toYaml(text) {
      const ptr = mod.ccall('kplace_to_yaml', 'number', ['string'], [text]);
      try {
        return JSON.parse(mod.UTF8ToString(ptr));
      } finally {
        mod.ccall('kplace_free', null, ['number'], [ptr]);
      }
    },
    run(text, { explain = false } = {}) {
      const ptr = mod.ccall('kplace_run', 'number', ['string', 'number'], [text, explain ? 1 : 0]);
      try {
        return JSON.parse(mod.UTF8ToString(ptr));
      } finally {
        mod.ccall('kplace_free', null, ['number'], [ptr]);
      }
    },
    module: mod,  // the Emscripten module itself (its heap, malloc and free), for the page's helpers (web/js)
  };
}
