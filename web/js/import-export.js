// Import and export. Import: kubectl output, manifests (JSON or YAML), Karpenter kwok instance types, converted by
// the core in a worker (kplace_import, what `kplace convert kubectl` prints; a 150,000-pod dump is read off the main
// thread); the page then loads the scenario, which runs in the background when large, and says what the core made
// of the dump. Export: the scenario (JSON, or YAML written by the core: kplace_to_yaml) and the result, as downloads.
import { mod, need, str, text, loadSliced, error, running } from './app.js';
import { autosaveSoon, forgetLink } from './autosave.js';
import { kb, say } from './overlay.js';
import { embedMode, pageBase, ui } from './page.js';
import { coreTask } from './worker-runner.js';

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
export async function exportScenario(format = 'json', { save = true } = {}) {
  need();
  let t = text();
  if (format === 'yaml') {
    const answer = await coreTask('yaml', t);
    if (answer.error) throw new Error(`YAML export: ${answer.error}`);
    t = answer.yaml;
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
  const step = (s) => { ui('kp-progress').hidden = false; ui('kp-progress').textContent = s; };
  try {
    step(`Importing ${filename || 'pasted text'} (${kb(t.length)})\u2026`);
    const answer = await coreTask('import', t);
    if (answer.error) throw new Error(`${filename || 'the pasted text'}: ${answer.error}`);
    const s = answer.import;  // the core's summary (io/cluster_import.h ImportToJson)
    step(`Loading ${s.nodes} nodes, ${s.podsBound + s.podsPending} pods\u2026`);
    await new Promise((r) => setTimeout(r, 0));
    forgetLink();
    await loadSliced(answer.scenarioBytes);
    if (location.hash || location.search) history.replaceState(null, '', pageBase() + (embedMode ? location.search : ''));
    const err = error();
    say(err ? `${s.message} The scenario has an error: ${err}` : s.message, { error: !!err });
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
