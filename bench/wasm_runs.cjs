// Runs the page's WebAssembly core (kplace-core.js / .wasm in DIR) on a scenario N times, as bench.mjs does: one
// module compiled once, a fresh instance per run, the scenario copied in before the run and the answer freed after.
// Used by bench/instructions.sh, which counts the instructions of N = 2 minus N = 1.
// Usage: node bench/wasm_runs.cjs DIR FILE N
'use strict';
const fs = require('fs');
const path = require('path');

const [dir, file, runs] = process.argv.slice(2);
const createKplaceCore = require(path.resolve(dir, 'kplace-core.js'));
const wasmModule = new WebAssembly.Module(fs.readFileSync(path.resolve(dir, 'kplace-core.wasm')));
const text = fs.readFileSync(file, 'utf8');

(async () => {
  for (let r = 0; r < Number(runs); r++) {
    const core = await createKplaceCore({
      instantiateWasm: (imports, receive) => {
        const instance = new WebAssembly.Instance(wasmModule, imports);
        receive(instance, wasmModule);
        return instance.exports;
      },
    });
    // Copied in as the page does (js/utf8.js: TextEncoder into the heap): Emscripten's stringToUTF8, a loop in JS,
    // was an eighth of a 9 MB scenario's count, though bench.mjs times kplace_run alone.
    const bytes = new TextEncoder().encode(text);
    const buf = core._malloc(bytes.length + 1);
    core.HEAPU8.set(bytes, buf);
    core.HEAPU8[buf + bytes.length] = 0;
    const answer = core.ccall('kplace_run', 'number', ['number', 'number'], [buf, 0]);
    // The envelope's keys are sorted: a failure starts with its errors.
    if (core.UTF8ToString(answer, 16).startsWith('{"errors"')) {
      console.error(`${file}: the core refused it: ${core.UTF8ToString(answer, 400)}`);
      process.exit(1);
    }
    core.ccall('kplace_free', null, ['number'], [answer]);
  }
})();
