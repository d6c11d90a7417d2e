// The wasm core's C API under node: every preset gives the native golden result, bad input gives the parse error
// as data (never a trap), and the module keeps working afterwards; the cluster import (kplace_import) gives the
// native goldens of tests/data/import, byte for byte what the native `kplace convert kubectl` prints (compared
// directly when the native CLI is built: KPLACE_CLI, build/native-release/kplace or build/native-debug/kplace); the
// YAML export (kplace_to_yaml) reads back as the same scenario.
//   node --test tests/web/api.test.mjs        (after `cmake --build --preset wasm`)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import vm from 'node:vm';

import YAML from 'yaml';

import { loadCore, repoRoot } from './kplace_core.mjs';

const presetsDir = path.join(repoRoot, 'presets');
const goldenDir = path.join(repoRoot, 'tests/golden');
const presets = readdirSync(presetsDir).filter((f) => f.endsWith('.json')).sort();
const readPreset = (file) => readFileSync(path.join(presetsDir, file), 'utf8');

let core;
before(async () => {
  core = await loadCore();
});

test('version', () => {
  assert.match(core.version(), /^\d+\.\d+\.\d+/);
});

describe('presets match the native goldens', () => {
  assert.ok(presets.length > 0, 'no presets found');
  for (const file of presets) {
    test(file, () => {
      const out = core.run(readPreset(file));
      assert.equal(out.status, 'success', JSON.stringify(out.errors));
      assert.deepEqual(core.run(readPreset(file)), out, 'same input, different result');
      const golden = path.join(goldenDir, file);
      if (!existsSync(golden)) return;  // a preset without a golden must still run (tests/golden/README.md)
      const text = readFileSync(golden, 'utf8');
      const want = JSON.parse(text);
      assert.deepEqual(out.result.pods, want.pods);
      assert.deepEqual(out.result, want);
      // Same bytes as `kplace run --format json`: nlohmann's dump(2) and JSON.stringify(_, null, 2) agree but for a
      // double with no fraction, which nlohmann prints as 1.0 and JavaScript's numbers cannot tell from 1.
      assert.equal(JSON.stringify(out.result, null, 2) + '\n', text.replace(/(\d)\.0(?=,?\n)/g, '$1'));
    });
  }
});

describe('explanations', () => {
  for (const file of presets) {
    test(file, () => {
      const out = core.run(readPreset(file), { explain: true });
      assert.equal(out.status, 'success');
      assert.deepEqual(core.run(readPreset(file)).result, out.result, 'explaining changed the result');
      for (const [key, pod] of Object.entries(out.result.pods)) {
        const ex = out.explanations[key];
        assert.ok(ex, `no explanation for ${key}`);
        assert.equal(ex.pod, key);
        if (pod.schedulingGated || ex.boundAtStart) continue;  // never scheduled by the run (e.g. a victim)
        assert.ok(ex.attempts.length > 0, `${key}: no attempts`);
        const last = ex.attempts[ex.attempts.length - 1];
        if (pod.node) {
          assert.equal(last.chosen, pod.node, key);
          assert.ok(last.tiedWith.includes(pod.node), key);
        } else {
          assert.ok(last.message, `${key}: unschedulable without a message`);
        }
      }
    });
  }
});

test('kplace_disruption: the dry run, the applied commands and one node explained', () => {
  const text = readPreset('consolidation-delete.json');
  const out = core.disruption(text, 'node-3');
  assert.equal(out.status, 'success');
  const golden = JSON.parse(readFileSync(path.join(repoRoot, 'tests/golden/consolidation-delete.json'), 'utf8'));
  assert.deepEqual(out.result.disruption, golden.disruption);
  assert.equal(out.node.node, 'node-3');
  assert.equal(out.node.consolidation, 'delete');
  assert.equal(core.disruption(text, 'nope').node, null);
  const applied = core.disruption(readPreset('consolidation-applied.json'));
  const appliedGolden = JSON.parse(readFileSync(path.join(repoRoot, 'tests/golden/consolidation-applied.json'), 'utf8'));
  assert.deepEqual(applied.result.disruptionApplied, appliedGolden.disruptionApplied);
  assert.equal(applied.node, undefined);
  assert.equal(core.disruption('{').status, 'failure');
});

test('kplace_explain records one pod', () => {
  const text = readPreset('quickstart.json');
  const out = core.explain(text, 'default/big');
  assert.equal(out.status, 'success');
  assert.deepEqual(Object.keys(out.explanations), ['default/big']);
  assert.deepEqual(out.explanations['default/big'], core.run(text, { explain: true }).explanations['default/big']);
  assert.deepEqual(out.result, core.run(text).result);
  assert.equal(core.explain('{', 'default/big').status, 'failure');
});

describe('bad input is data, never a trap', () => {
  const quickstart = () => JSON.parse(readPreset('quickstart.json'));
  const failure = (text) => {
    const out = core.run(text);
    assert.equal(out.status, 'failure');
    assert.equal(out.errors.length, 1);
    assert.equal(out.errors[0].internal, false, out.errors[0].message);
    assert.doesNotMatch(out.errors[0].message, /json\.exception/);
    return out.errors[0].message;
  };

  test('a bad quantity names the item and the JSON path', () => {
    const doc = quickstart();
    const i = doc.items.findIndex((it) => it.kind === 'Node');
    doc.items[i].status.allocatable.cpu = 'abc';
    const name = doc.items[i].metadata.name;
    assert.equal(failure(JSON.stringify(doc)),
                 `items[${i}] (Node ${name}): status.allocatable.cpu: "abc" is not a quantity`);
  });

  test('a wrong type names the path', () => {
    const doc = quickstart();
    const i = doc.items.findIndex((it) => it.kind === 'Pod');
    doc.items[i].spec.containers = 'nope';
    assert.match(failure(JSON.stringify(doc)), new RegExp(`^items\\[${i}\\] \\(Pod [^)]+\\): spec\\.containers`));
  });

  test('invalid JSON gives line and column', () => {
    assert.match(failure('{\n  "kind": "List",\n  "items": [ }'), /^invalid JSON at line 3, column \d+/);
  });

  test('empty input and input that holds no Kubernetes objects', () => {
    failure('');
    assert.equal(failure('[5]'), '[0]: expected object, got integer');
    assert.equal(failure('just words'), 'expected a Kubernetes object, a List or an array of them, got string');
    failure('{"kind": "List", "items": [ {"kind": "Node"} ]}');
    // What kubectl prints is read as the CLI reads it: an empty array is an empty cluster; YAML works.
    assert.equal(core.run('[]').status, 'success');
    assert.equal(core.run('kind: NodeList\napiVersion: v1\nitems:\n- metadata: {name: n1}\n').status, 'success');
  });

  test('the module still works after errors', () => {
    failure('{');
    assert.equal(core.run(readPreset('quickstart.json')).status, 'success');
  });
});

describe('kplace_import: the core import, what `kplace convert kubectl` prints', () => {
  const dir = path.join(repoRoot, 'tests/data/import');
  const inputs = readdirSync(dir).filter((f) => statSync(path.join(dir, f)).isFile()).sort();
  const cli = process.env.KPLACE_CLI ||
    ['build/native-release/kplace', 'build/native-debug/kplace'].map((f) => path.join(repoRoot, f)).find(existsSync) ||
    path.join(repoRoot, 'build/native-release/kplace');
  const haveCli = existsSync(cli);
  test('fixtures', () => assert.ok(inputs.length >= 6, inputs.join()));
  for (const file of inputs) {
    test(file, (t) => {
      const out = core.importDump(readFileSync(path.join(dir, file), 'utf8'));
      const want = JSON.parse(readFileSync(path.join(dir, 'expected', `${file}.import.json`), 'utf8'));
      const native = haveCli ? spawnSync(cli, ['convert', 'kubectl', path.join(dir, file)], { encoding: 'utf8' }) : null;
      if (!haveCli) t.diagnostic(`no native CLI at ${cli}: compared with the native goldens only`);
      if (want.error) {
        assert.deepEqual(out, { status: 'failure', errors: [{ message: want.error, internal: false }] });
        if (native) {
          assert.equal(native.status, 2);
          assert.equal(native.stderr, `kplace: ${path.join(dir, file)}: ${want.error}\n`);
        }
        return;
      }
      assert.equal(out.status, 'success', JSON.stringify(out.errors));
      assert.deepEqual(out.import, want.import);
      // The scenario's bytes follow the envelope, as many as it says, then a NUL.
      assert.deepEqual(Object.keys(out).sort(), ['import', 'scenario', 'scenarioBytes', 'scenarioEnd', 'status']);
      assert.equal(out.scenario, readFileSync(path.join(dir, 'expected', `${file}.scenario.json`), 'utf8'));
      assert.equal(out.scenarioEnd, 0);
      if (native) {
        assert.equal(native.status, 0, native.stderr);
        assert.equal(native.stdout, out.scenario, 'the page and the CLI convert differently');
        assert.equal(native.stderr, `kplace: ${out.import.message}\n`, 'the page and the CLI say different things');
      }
      const run = core.run(out.scenario);
      assert.equal(run.status, 'success', JSON.stringify(run.errors));
      // What was read is summarised the same way by the import and by a run of the dump itself.
      if (!file.startsWith('kwok')) {
        const direct = core.run(readFileSync(path.join(dir, file), 'utf8'));
        assert.deepEqual(direct.result.pods, run.result.pods);
        for (const k of ['nodes', 'podsBound', 'podsPending', 'otherScheduler', 'controllerPodsKept', 'finishedPods',
          'volumeClaims', 'missingClaims']) {
          assert.equal(out.import[k], direct.result.import[k], k);
        }
      }
    });
  }
  test('the summary names what the page shows', () => {
    const out = core.importDump(readFileSync(path.join(dir, 'kubectl-cluster.json'), 'utf8'));
    assert.deepEqual(Object.keys(out.import).sort(), [
      'controllerPodsKept', 'deploymentsRepresentedByReplicaSets', 'documents', 'finishedPods', 'generatedNames',
      'instanceTypes', 'items', 'message', 'missingClaims', 'nodes', 'notSimulated', 'otherScheduler', 'podsBound', 'podsPending',
      'simulationAdded', 'terminatingPods', 'volumeClaims']);
    assert.match(out.import.message, /^Imported a List: 2 nodes, 3 pods bound, 2 pending \(1 left to another scheduler\); /);
  });
  test('bad input is data', () => {
    for (const text of ['', '{', 'a: [1, 2\nb: }', '[5]', '{"kind": "List", "items": [{"kind": "Node"}]}']) {
      const out = core.importDump(text);
      assert.equal(out.status, 'failure', text);
      assert.equal(out.errors[0].internal, false, out.errors[0].message);
    }
    assert.match(core.importDump('{"kind": "List", "items": [').errors[0].message, /^invalid JSON at line 1, column \d+/);
    assert.equal(core.importDump('[]').status, 'success');
  });
});

describe('kplace_to_yaml: the scenario as kubectl-style YAML', () => {
  for (const file of presets) {
    test(file, () => {
      const text = readPreset(file);
      const out = core.toYaml(text);
      assert.equal(out.status, 'success', JSON.stringify(out.errors));
      assert.match(out.yaml, /^apiVersion: v1\nitems:\n- /);
      // The core reads it back (go-yaml v2's YAML 1.1 rules) as the same scenario, and so does a YAML 1.2 reader.
      assert.deepEqual(core.run(out.yaml), core.run(text));
      assert.deepEqual(YAML.parse(out.yaml), JSON.parse(text));
      assert.equal(core.toYaml(out.yaml).yaml, out.yaml);
    });
  }
  test('strings YAML would read as something else are quoted', () => {
    const doc = { a: ['yes', 'no', 'on', '0777', '1e3', '~', '', ' x', 'a: b', '2026-01-01', '12:30', 'x\ny', '.inf'] };
    const out = core.toYaml(JSON.stringify(doc));
    assert.equal(out.status, 'success');
    assert.deepEqual(YAML.parse(out.yaml), doc);
    assert.deepEqual(YAML.parse(out.yaml, { version: '1.1' }), doc);
    assert.equal(core.toYaml('{').status, 'failure');
  });
});

// web/js/utf8.js, shared by the page and its workers: a text copied into a wasm heap is its UTF-8, NUL-terminated
// (lone surrogates as U+FFFD, as TextEncoder writes them); kplaceToHeap puts a string there the same way and UTF-8
// bytes (an import's scenario, handed on to the run's worker) as they are.
test('js/utf8.js: a text and its UTF-8 bytes reach the heap as the same bytes', async () => {
  const sandbox = { TextEncoder, Uint8Array };
  sandbox.self = sandbox;
  vm.runInNewContext(readFileSync(path.join(repoRoot, 'web/js/utf8.js'), 'utf8'), sandbox);
  const mod = core.module;
  const bytesAt = (ptr, n) => Buffer.from(mod.HEAPU8.subarray(ptr, ptr + n + 1));
  const texts = ['', 'a', 'x'.repeat(64), '{"kind": "List", "items": []}'.repeat(7), 'caf\u00e9 '.repeat(20),
                 'ascii first, then \u{1F680} late'.repeat(5), 'lone \ud800 surrogate '.repeat(4)];
  for (const text of texts) {
    const utf8 = new TextEncoder().encode(text);
    const expected = Buffer.concat([Buffer.from(utf8), Buffer.from([0])]);
    for (const ptr of [sandbox.kplaceToUTF8(mod, text), sandbox.kplaceToHeap(mod, text),
                       sandbox.kplaceToHeap(mod, utf8)]) {
      assert.deepEqual(bytesAt(ptr, expected.length - 1), expected, JSON.stringify(text));
      mod._free(ptr);
    }
  }
});
