// Import and export. Import: kubectl output, manifests (JSON or YAML), Karpenter kwok instance types; the worker
// flattens and trims the dump (a 150,000-pod dump is parsed off the main thread); the page then loads the scenario,
// which runs in the background when large. Export: the scenario (JSON or YAML) and the result, as downloads. YAML
// goes through vendor/yaml.js (the npm package yaml, bundled at build time), loaded only when needed.
import { mod, need, str, text, load, error, running } from './app.js';
import { autosaveSoon, forgetLink } from './autosave.js';
import { kb, say } from './overlay.js';
import { embedMode, pageBase, ui } from './page.js';
import { importInWorker } from './worker-runner.js';

function download(name, content, type) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
let yamlModule = null;
// Relative to this module (web/js/), unlike the Worker and fetch URLs elsewhere, which are relative to the page.
const loadYaml = () => yamlModule || (yamlModule = import('../vendor/yaml.js').then((m) => m.default || m));

export async function exportScenario(format = 'json', { save = true } = {}) {
  need();
  let t = text();
  if (format === 'yaml') {
    const YAML = await loadYaml();
    t = YAML.stringify(JSON.parse(t));
  } else if (format !== 'json') {
    throw new Error(`unknown format "${format}" (json or yaml)`);
  }
  if (save) download(`kplace-scenario.${format}`, t, format === 'yaml' ? 'application/yaml' : 'application/json');
  return t;
}
export function exportResult({ save = true } = {}) {
  need();
  const json = str(mod._kplace_app_result());
  if (!json) return null;
  const t = JSON.stringify(JSON.parse(json), null, 2) + '\n';
  if (save) download('kplace-result.json', t, 'application/json');
  return t;
}

export async function importText(t, filename = '') {
  need();
  t = String(t);
  const isYamlName = /\.ya?ml$/i.test(filename);
  const step = (s) => { ui('kp-progress').hidden = false; ui('kp-progress').textContent = s; };
  try {
    step(`Importing ${filename || 'pasted text'} (${kb(t.length)})\u2026`);
    let answer = null;
    if (!isYamlName && /^\s*[[{]/.test(t)) answer = await importInWorker({ text: t, filename });
    if (answer && answer.yaml) {
      // It looks like JSON but does not parse: the JSON error says more than a YAML one would.
      throw new Error(`${filename || 'the pasted text'}: ${answer.error}`);
    }
    if (!answer) {
      step('Converting YAML\u2026');
      const YAML = await loadYaml();
      const docs = YAML.parseAllDocuments(t, { maxAliasCount: -1 });
      for (const d of docs) {
        if (d.errors && d.errors.length) throw new Error(`${filename || 'YAML'}: ${d.errors[0].message}`);
      }
      answer = await importInWorker({ docs: docs.map((d) => d.toJS()).filter((d) => d != null), filename });
    }
    if (answer.error) throw new Error(`${filename || 'the pasted text'}: ${answer.error}`);
    const s = answer.summary;
    step(`Loading ${s.nodes} nodes, ${s.pods} pods\u2026`);
    await new Promise((r) => setTimeout(r, 0));
    forgetLink();
    load(answer.text);
    if (location.hash || location.search) history.replaceState(null, '', pageBase() + (embedMode ? location.search : ''));
    const parts = [`Imported ${s.nodes} nodes and ${s.pods} pods (${s.bound} bound`];
    if (s.daemonSetPods) parts.push(`${s.daemonSetPods} DaemonSet pods`);
    let msg = parts.join(', ') + ')';
    if (s.instanceTypes) msg += `, ${s.instanceTypes} instance types`;
    if (s.terminal) msg += `; ${s.terminal} finished pods (Succeeded/Failed) left out`;
    if (s.workloadsDropped) msg += `; ${s.workloadsDropped} workloads whose pods are listed not expanded again`;
    if (s.simulationAdded) msg += '; a Simulation item was added (mode cluster)';
    const err = error();
    if (err) msg += `. The scenario has an error: ${err}`;
    say(msg + '.', { error: !!err });
    autosaveSoon();
    return { ok: !err, summary: s, error: err };
  } catch (e) {
    say(`Import failed: ${e.message}`, { error: true });
    return { ok: false, error: e.message };
  } finally {
    if (!running()) ui('kp-progress').hidden = true;
  }
}
export async function importFile(file) {
  return importText(await file.text(), file.name);
}
