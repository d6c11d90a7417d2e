// The wasm core's C API under node: every preset gives the native golden result, bad input gives the parse error
// as data (never a trap), and the module keeps working afterwards.
//   node --test tests/web/api.test.mjs        (after `cmake --build --preset wasm`)
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';

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
      // Same bytes as `kplace run --format json` (nlohmann's dump(2) and JSON.stringify(_, null, 2) agree here).
      assert.equal(JSON.stringify(out.result, null, 2) + '\n', text);
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
