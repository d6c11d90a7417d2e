// The overlay's controls (index.html): Copy link (with the link's size, and the scenario file offered above the
// link budget), Copy embed snippet, the Import dialog, the Export menu, Restore my last edit, a file dropped on the
// page; and the autosave triggers. Each calls the same function window.kplace exposes.
import { restoreLastEdit, watchEdits } from './autosave.js';
import { exportResult, exportScenario, importFile, importText } from './import-export.js';
import { kb, say, utf8Size } from './overlay.js';
import { editable, embedMode, ui } from './page.js';
import { LINK_BUDGET, embedSnippet, shareLink } from './share.js';

export function wireControls() {
  const bar = ui('kp-ui');
  if (!bar) return;
  bar.hidden = false;
  document.body.classList.toggle('embed', embedMode);
  ui('kp-copy-link').addEventListener('click', async () => {
    const url = await shareLink();
    const size = utf8Size(url);
    let copied = true;
    try {
      await navigator.clipboard.writeText(url);
    } catch (e) {
      copied = false;
    }
    const what = copied ? `Link copied (${kb(size)})` : `Copy this link (${kb(size)}): ${url}`;
    if (size > LINK_BUDGET) {
      say(`${what}. It is over ${LINK_BUDGET / 1024} KB: chats, mail and issue trackers may cut it. ` +
          'Share the scenario file instead.', { actions: [{ label: 'Download the scenario', run: () => exportScenario('json') }] });
    } else {
      say(what + '.');
    }
    ui('kp-size').textContent = kb(size);
  });
  ui('kp-copy-embed').addEventListener('click', async () => {
    const snippet = await embedSnippet();
    try {
      await navigator.clipboard.writeText(snippet);
      say(`Embed snippet copied (${kb(utf8Size(snippet))}): an iframe with loading="lazy" and a resize listener.`);
    } catch (e) {
      say(`Copy this embed snippet: ${snippet}`);
    }
  });
  const dialog = ui('kp-import-dialog');
  ui('kp-import').addEventListener('click', () => {
    ui('kp-import-text').value = '';
    if (dialog.showModal) dialog.showModal(); else dialog.setAttribute('open', '');
  });
  ui('kp-import-cancel').addEventListener('click', () => dialog.close());
  ui('kp-import-go').addEventListener('click', async () => {
    const file = ui('kp-import-file').files[0];
    const text = ui('kp-import-text').value;
    dialog.close();
    if (file) await importFile(file);
    else if (text.trim()) await importText(text, '');
  });
  ui('kp-export').addEventListener('change', async (e) => {
    const v = e.target.value;
    e.target.value = '';
    try {
      if (v === 'result') {
        if (!exportResult()) say('There is no result to export yet.');
      } else if (v) {
        await exportScenario(v);
      }
    } catch (err) {
      say(`Export failed: ${err.message}`, { error: true });
    }
  });
  ui('kp-restore').addEventListener('click', () => restoreLastEdit());
  // Drop a file anywhere on the page to import it.
  window.addEventListener('dragover', (e) => {
    if (!editable || !e.dataTransfer || !Array.from(e.dataTransfer.types || []).includes('Files')) return;
    e.preventDefault();
    e.stopPropagation();
  }, true);
  window.addEventListener('drop', (e) => {
    if (!editable || !e.dataTransfer || !e.dataTransfer.files.length) return;
    e.preventDefault();
    e.stopPropagation();
    importFile(e.dataTransfer.files[0]);
  }, true);
  watchEdits();
}
