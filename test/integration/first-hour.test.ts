// A person's first hour with the extension, in the real workbench: the walkthrough's steps each
// tick on their own event without taking the focus back, Accept and Reject are labelled inside
// the review, a Run a Tool input closes without "Save changes?", a result reads as text for a
// person while the model keeps its own, a revert is marked and confirmed, the log says a
// Reject is not an error, and the first edit of a TypeScript file waits for its checker.
// This suite runs first (see index.ts): the walkthrough's ticks stay for the window's life.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { NEVER_CANCELLED } from '../../src/core/cancel';
import { DIAGNOSTICS_MAX_WAIT_MS } from '../../src/core/limits';
import { VscodeWorkspace } from '../../src/host/vscodeWorkspace';
import type { HistoryEntry } from '../../src/history/journal';
import { ui, uiAvailable, waitFor } from './ui';
import { invoke, wsUri } from './util';

const PROPOSAL = 'agent-file-tools-proposal';
const RESULT = 'agent-file-tools-result';

function seed(rel: string, text: string): string {
  const p = wsUri(rel).fsPath;
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
  return p;
}

function allTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs);
}

function reviewTab(labelStart: string): Promise<vscode.Tab> {
  return waitFor(`the review ${labelStart}`, () => allTabs().find((t) => t.label.startsWith(labelStart)));
}

/** The lines the extension's log holds (its Output channel, written under the run's user data). */
function logLines(): string[] {
  const logs = path.join(path.dirname(process.env.AFT_WORKSPACE!), 'user-data', 'logs');
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }) : []) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        walk(p);
      } else if (e.name.endsWith('.log') && p.includes('agent-file-tools')) {
        files.push(p);
      }
    }
  };
  walk(logs);
  return files.flatMap((f) => fs.readFileSync(f, 'utf8').split('\n'));
}

async function entries(): Promise<HistoryEntry[]> {
  return (await vscode.commands.executeCommand<HistoryEntry[]>('agentFileTools.historyEntries')) ?? [];
}

/** Runs the input the active Run a Tool editor holds, as its title bar's ▷ does. */
async function runInput(tool: string, input: object): Promise<vscode.TextEditor> {
  await vscode.commands.executeCommand('agentFileTools.runToolInEditor', tool);
  const editor = await waitFor(`the ${tool} input`, () => (vscode.window.activeTextEditor?.document.uri.path === `/${tool}.input.json` ? vscode.window.activeTextEditor : undefined));
  await editor.edit((e) => e.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), JSON.stringify(input, null, 2)));
  void vscode.commands.executeCommand('agentFileTools.runToolFromEditor');
  return editor;
}

async function resultDocument(): Promise<vscode.TextDocument> {
  return waitFor('the result editor', () => (vscode.window.activeTextEditor?.document.uri.scheme === RESULT ? vscode.window.activeTextEditor.document : undefined));
}

describe('the first hour', () => {
  before(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    await vscode.workspace.getConfiguration('agentFileTools').update('approvalPolicy', undefined, vscode.ConfigurationTarget.Global);
    await ui([{ waitFor: '.monaco-workbench .part.statusbar', timeout: 60000 }]);
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('agentFileTools.rejectAllChanges', 'test cleanup');
    await vscode.commands.executeCommand('workbench.action.closeAllGroups');
  });

  it('the walkthrough keeps Run a Tool\'s picker open, and ticks each step on its own event, without taking the focus', async () => {
    const manifest = vscode.extensions.getExtension('agent-file-tools.agent-file-tools')!.packageJSON as { contributes: { walkthroughs: { id: string; steps: { id: string; completionEvents: string[] }[] }[] } };
    const [w] = manifest.contributes.walkthroughs;
    const events = w.steps.flatMap((s) => s.completionEvents);
    assert.equal(new Set(events).size, events.length, `every step has an event of its own: ${events.join(', ')}`);
    const step = (id: string) => `document.querySelector('[data-done-step-id$="${id}"]')?.getAttribute('aria-checked')`;
    // opened as a person opens it, and left to settle (its page draws its media a moment later)
    const walkthrough = await ui([
      { press: 'F1' },
      { waitFor: '.quick-input-widget input' },
      { type: 'Welcome: Open Walkthrough' },
      { waitFor: '.quick-input-list .monaco-list-row[aria-label*="Open Walkthrough"]' },
      { press: 'Enter' },
      { waitFor: '.quick-input-list .monaco-list-row[aria-label*="Get started with Agent File Tools"]', timeout: 20000 },
      { type: 'Agent File Tools' },
      { press: 'Enter' },
      { waitFor: '.gettingStartedSlideDetails [data-done-step-id$="edit"]', timeout: 20000 },
    ]);
    assert.ok(walkthrough.ok, walkthrough.error);
    await new Promise((r) => setTimeout(r, 2000));
    const opened = await ui([
      { eval: `[${['tools', 'edit', 'patch'].map(step).join(',')}]` },
      { press: 'F1' },
      { waitFor: '.quick-input-widget input' },
      { type: 'Agent File Tools: Run a Tool in an Editor' },
      { waitFor: '.quick-input-list .monaco-list-row[aria-label*="Run a Tool in an Editor"]' },
      { press: 'Enter' },
      { waitFor: '.quick-input-widget .quick-input-title:has-text("run a tool in an editor")' },
    ]);
    assert.ok(opened.ok, opened.error);
    assert.deepEqual(opened.evals?.[0], ['false', 'false', 'false'], 'nothing of this window ticked these steps yet');
    // the picker is still there and has the keyboard a second and a half later: the walkthrough did not take it back
    // (the palette's Enter is released on the walkthrough's step, which selects it and takes the focus 250 ms later)
    await new Promise((r) => setTimeout(r, 1500));
    const still = await ui([
      { screenshot: 'walkthrough-picker-after-1.5s' },
      { waitFor: '.quick-input-widget .quick-input-title:has-text("run a tool in an editor")', timeout: 1000 },
      { eval: `!!document.activeElement?.closest('.quick-input-widget')` },
      { eval: `[${['tools', 'edit', 'patch'].map(step).join(',')}]` },
      { screenshot: 'walkthrough-picker-stays' },
      { type: 'fs_edit' },
      { press: 'Enter' },
    ]);
    assert.ok(still.ok, still.error);
    assert.equal(still.evals?.[0], true, 'the picker keeps the keyboard');
    assert.deepEqual(still.evals?.[1], ['false', 'false', 'false'], 'opening Run a Tool completes no step');
    // the example is a real change: run it, and Accept it with the keys
    const input = await waitFor('the fs_edit input', () => (vscode.window.activeTextEditor?.document.uri.path === '/fs_edit.input.json' ? vscode.window.activeTextEditor : undefined));
    const example = JSON.parse(input.document.getText()) as { path: string; old_string: string; new_string: string };
    assert.notEqual(example.new_string, example.old_string, 'the example changes something');
    const before = fs.readFileSync(wsUri(example.path).fsPath, 'utf8');
    void vscode.commands.executeCommand('agentFileTools.runToolFromEditor');
    await reviewTab(`${path.basename(example.path)} `);
    const keys = await ui([{ waitFor: '.monaco-diff-editor .editor.modified .view-lines' }, { press: 'Control+K' }, { press: 'Control+Y' }]);
    assert.ok(keys.ok, keys.error);
    await resultDocument();
    assert.notEqual(fs.readFileSync(wsUri(example.path).fsPath, 'utf8'), before, 'the example changed the file');
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `agent-file-tools.agent-file-tools#${w.id}`, false);
    const ticked = await ui([{ waitFor: `[data-done-step-id$="edit"][aria-checked="true"]`, timeout: 10000 }, { eval: `[${['tools', 'edit', 'patch'].map(step).join(',')}]` }, { screenshot: 'walkthrough-edit-ticked' }]);
    assert.ok(ticked.ok, ticked.error);
    assert.deepEqual(ticked.evals?.[0], ['true', 'true', 'false'], 'the edit ticked "run a tool" and "make an edit", not "apply a patch"');
    fs.writeFileSync(wsUri(example.path).fsPath, before);
  });

  it('labels Accept and Reject inside the review, above the change, with their keys; a click on the label accepts', async () => {
    assert.equal(vscode.workspace.getConfiguration('diffEditor').inspect('codeLens')?.defaultValue, true, 'the manifest turns CodeLens on in diff editors');
    const p = seed('first/labels.txt', 'one\ntwo\nthree\nfour\n');
    await invoke('fs_read', { path: 'first/labels.txt' });
    const call = invoke('fs_edit', { path: 'first/labels.txt', old_string: 'three', new_string: 'THREE' });
    const tab = (await reviewTab('labels.txt ')) as vscode.Tab & { input: vscode.TabInputTextDiff };
    assert.equal(tab.input.modified.scheme, PROPOSAL);
    const lenses = await waitFor('the labelled actions', async () => {
      const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', tab.input.modified);
      return l?.length ? l : undefined;
    });
    assert.deepEqual(
      lenses.map((l) => [l.command?.title, l.command?.command, l.range.start.line]),
      [
        ['Accept (Ctrl+K Ctrl+Y)', 'agentFileTools.acceptChange', 2],
        ['Reject (Ctrl+K Ctrl+N)', 'agentFileTools.rejectChange', 2],
      ],
    );
    if (uiAvailable()) {
      const r = await ui([
        { waitFor: '.monaco-diff-editor .editor.modified .codelens-decoration a:has-text("Accept (Ctrl+K Ctrl+Y)")' },
        { waitFor: '.monaco-diff-editor .editor.modified .codelens-decoration a:has-text("Reject (Ctrl+K Ctrl+N)")' },
        { screenshot: 'review-labelled-actions' },
        { click: '.monaco-diff-editor .editor.modified .codelens-decoration a:has-text("Accept (Ctrl+K Ctrl+Y)")' },
      ]);
      assert.ok(r.ok, r.error);
    } else {
      await vscode.commands.executeCommand(lenses[0].command!.command, ...(lenses[0].command!.arguments ?? []));
    }
    assert.match((await call).text, /^Edited first\/labels\.txt: \+1 -1 lines/);
    assert.equal(fs.readFileSync(p, 'utf8'), 'one\ntwo\nTHREE\nfour\n');
  });

  it('labels Accept and Reject for all the files of a patch in each file of the multi-diff review', async () => {
    seed('first/a.txt', 'alpha\n');
    const patch = ['*** Begin Patch', '*** Update File: first/a.txt', '@@', '-alpha', '+ALPHA', '*** Add File: first/b.txt', '+beta', '*** End Patch'].join('\n');
    await invoke('fs_read', { path: 'first/a.txt' });
    const call = invoke('fs_apply_patch', { patch });
    await reviewTab('patch 2 files');
    const proposed = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === PROPOSAL && d.uri.query.endsWith('-proposed') && /\/first\/[ab]\.txt$/.test(d.uri.path) && !d.isClosed);
    assert.equal(proposed.length, 2);
    for (const d of proposed) {
      const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', d.uri);
      assert.deepEqual(l?.map((x) => x.command?.title), ['Accept all 2 files (Ctrl+K Ctrl+Y)', 'Reject all 2 files (Ctrl+K Ctrl+N)'], d.uri.path);
    }
    if (uiAvailable()) {
      const r = await ui([{ waitFor: '.codelens-decoration a:has-text("Accept all 2 files (Ctrl+K Ctrl+Y)")', timeout: 15000 }, { screenshot: 'review-multi-diff-labelled-actions' }]);
      assert.ok(r.ok, r.error);
    }
    assert.equal(await vscode.commands.executeCommand('agentFileTools.rejectChange', undefined, 'not now'), true);
    assert.match((await call).text, /^The user rejected this change; nothing was written\. Their reason: not now\. Do not retry/);
  });

  it('a Run a Tool input is never left unsaved: it closes without asking, and is still checked against the schema', async () => {
    await vscode.commands.executeCommand('agentFileTools.runToolInEditor', 'fs_read');
    const editor = await waitFor('the input', () => (vscode.window.activeTextEditor?.document.uri.path === '/fs_read.input.json' ? vscode.window.activeTextEditor : undefined));
    assert.equal(editor.document.uri.scheme, 'agent-file-tools-input');
    const typed = await ui([{ click: '.editor-instance .view-lines' }, { press: 'Control+End' }, { type: ' ' }]);
    assert.ok(typed.ok, typed.error);
    await waitFor('the typed text', () => (editor.document.getText().endsWith(' ') ? true : undefined));
    await waitFor('the input saved in memory', () => (!editor.document.isDirty ? true : undefined), 3000);
    await editor.edit((e) => e.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), '{"path": 5}'));
    const problems = await waitFor('a schema error', () => {
      const d = vscode.languages.getDiagnostics(editor.document.uri);
      return d.length ? d : undefined;
    });
    assert.match(problems.map((d) => d.message).join('\n'), /string/i);
    await waitFor('the input saved in memory', () => (!editor.document.isDirty ? true : undefined), 3000);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await waitFor('the input closed', () => (allTabs().some((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'agent-file-tools-input') ? undefined : true));
  });

  it('shows a result a person reads (no tags, the diff coloured, long lines wrapped), and the model\'s own text on request; a revert marks the row and the result', async () => {
    const p = seed('first/result.md', '# Title\n\nSome text.\n');
    await runInput('fs_edit', { path: 'first/result.md', old_string: 'Some text.', new_string: 'Some other text.' });
    await reviewTab('result.md ');
    assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
    const doc = await resultDocument();
    assert.equal(doc.languageId, 'agent-file-tools-result');
    assert.equal(vscode.workspace.getConfiguration('editor', { languageId: 'agent-file-tools-result' }).get('wordWrap'), 'on');
    const text = doc.getText();
    assert.match(text, /^Edited first\/result\.md: \+1 -1 lines; version [0-9a-f]{8}\.\n\n--- a\/first\/result\.md\n\+\+\+ b\/first\/result\.md\n/);
    assert.doesNotMatch(text, /<\/?diff>/);
    if (uiAvailable()) {
      // a line added and a line removed are drawn in colours of their own, the heading line in the text's
      const colours = await ui([
        // once the grammar has tokenised the lines (it loads when the result's language is first used)
        { waitFor: '.editor-instance .view-line:has-text("other") span span:not(.mtk1)' },
        {
          // Monaco draws spaces as no-break spaces
          eval: `(() => { const colour = (t) => { const l = [...document.querySelectorAll('.editor-instance .view-line')].find((e) => e.textContent.replace(/\u00a0/g, ' ').startsWith(t)); return l && getComputedStyle(l.querySelector('span span')).color; }; return [colour('+Some other'), colour('-Some text'), colour('Edited first')]; })()`,
        },
        { screenshot: 'run-a-tool-readable-result' },
      ]);
      assert.ok(colours.ok, colours.error);
      const [added, removed, prose] = colours.evals?.[0] as string[];
      assert.ok(added && removed && prose && added !== prose && removed !== prose && added !== removed, `coloured: ${added}, ${removed}, ${prose}`);
    }
    // the title bar's button shows the model's own text, and the other one comes back
    const toModel = await ui([{ click: '.editor-actions a.action-label[aria-label^="Show the Text the Model Got"]' }]);
    assert.ok(toModel.ok, toModel.error);
    const model = await waitFor('the model\'s text', () => (vscode.window.activeTextEditor?.document.uri.query.endsWith('-model') ? vscode.window.activeTextEditor.document : undefined));
    assert.match(model.getText(), /^Edited first\/result\.md: \+1 -1 lines; version [0-9a-f]{8}\.\n<diff>\n--- a\/first\/result\.md\n/);
    const back = await ui([{ click: '.editor-actions a.action-label[aria-label^="Show the Readable Result"]' }]);
    assert.ok(back.ok, back.error);
    await waitFor('the readable result again', () => (vscode.window.activeTextEditor?.document.uri.toString() === doc.uri.toString() ? true : undefined));

    // the revert: reviewed, then the row and the result say it landed, and the log says so
    const [e] = await entries();
    assert.equal(e.summary.includes('result.md') || e.files[0].display === 'first/result.md', true);
    const revert = vscode.commands.executeCommand<boolean>('agentFileTools.revertChange', e.id);
    const review = (await reviewTab('result.md ')) as vscode.Tab & { input: vscode.TabInputTextDiff };
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', review.input.modified);
    assert.deepEqual(lenses?.map((l) => l.command?.title), ['Accept the revert (Ctrl+K Ctrl+Y)', 'Reject: keep the files as they are (Ctrl+K Ctrl+N)']);
    assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
    assert.equal(await revert, true);
    assert.equal(fs.readFileSync(p, 'utf8'), '# Title\n\nSome text.\n');
    const marked = (await entries()).find((x) => x.id === e.id);
    assert.equal(typeof marked?.revertedAt, 'number', 'the history marks the change reverted');
    await waitFor('the result to say it was reverted', async () => ((await vscode.workspace.openTextDocument(doc.uri)).getText().startsWith('Reverted at ') ? true : undefined));
    await waitFor('the log to tell the revert', () => (logLines().some((l) => /\[info\] revert of "edit first\/result\.md" \(fs_edit, [^)]+\) -> reverted: first\/result\.md \([\d.]+ ms \+ \d+ ms waiting for the user\)$/.test(l)) ? true : undefined));
  });

  it('logs a person\'s Reject at info as rejected by the user, with the time in review apart from the call\'s own', async () => {
    seed('first/reject.txt', 'keep\n');
    await invoke('fs_read', { path: 'first/reject.txt' });
    const call = invoke('fs_write', { path: 'first/reject.txt', content: 'drop\n' });
    await reviewTab('reject.txt ');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await vscode.commands.executeCommand('agentFileTools.rejectChange', undefined, 'keep it'), true);
    assert.match((await call).text, /Their reason: keep it\. Do not retry/);
    const line = await waitFor('the log line', () => logLines().find((l) => l.includes('fs_write {"path":"first/reject.txt","content":"(1 line, below)"} -> ')));
    assert.match(line, /\[info\] fs_write .* -> rejected by the user: keep it \(([\d.]+) ms \+ (\d+) ms waiting for the user\)$/);
    const [, own, waited] = /\(([\d.]+) ms \+ (\d+) ms/.exec(line)!;
    assert.ok(Number(waited) >= 250 && Number(own) < Number(waited), `${own} ms of its own, ${waited} ms in review`);
    assert.ok(!logLines().some((l) => /\[error\].*first\/reject\.txt/.test(l)), 'no error logged for it');
    if (uiAvailable()) {
      // the log as a person opens it: the Reject line at info, not an error
      await vscode.commands.executeCommand('agentFileTools.showLog');
      // (the line wraps in the panel: its text is looked for in the lines together)
      const shown = await ui([{ waitFor: '.part.panel .view-lines:has-text("[info] fs_write"):has-text("rejected by the user: keep it")', timeout: 15000 }, { screenshot: 'log-rejected' }]);
      assert.ok(shown.ok, shown.error);
      await vscode.commands.executeCommand('workbench.action.closePanel');
    }
  });

  it('shows the settings in titled sections, the tools offered in one of their own', async () => {
    assert.ok(uiAvailable(), 'the workbench is driven in this suite');
    await vscode.commands.executeCommand('workbench.action.openSettings', '@ext:agent-file-tools.agent-file-tools');
    const titles = ['Reviews of Changes', 'Files That Always Ask', 'Reading and Searching', 'History of Changes', 'Tools Offered to Models'];
    const r = await ui([{ waitFor: '.settings-editor .settings-tree-container', timeout: 15000 }, ...titles.map((t) => ({ waitFor: `.settings-editor .settings-toc-container :text-is("${t}")`, timeout: 10000 })), { screenshot: 'settings-sections' }]);
    assert.ok(r.ok, r.error);
  });

  it('the first edit of a TypeScript file in a window waits for TypeScript, which is still starting on it', async function () {
    this.timeout(120000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // no checker has reported on TypeScript in a fresh window's workspace: nothing is listed
    await waitFor('no TypeScript problem listed', () => (vscode.languages.getDiagnostics().some(([u, d]) => d.length > 0 && /\.tsx?$/.test(u.path)) ? undefined : true), 20000);
    const p = seed('first/checked.ts', 'export const n: number = 1;\n');
    const ws = new VscodeWorkspace();
    try {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(p));
      await vscode.window.showTextDocument(doc);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(0, 25, 0, 26), "'one'");
      assert.ok(await vscode.workspace.applyEdit(edit));
      // the longest wait a person may set: TypeScript's server starts here in about 3 s (the default
      // bound) on an idle machine, later on a busy one; the wait ends with its report, not the bound
      const t0 = Date.now();
      const states = await ws.settleDiagnostics([p], DIAGNOSTICS_MAX_WAIT_MS, NEVER_CANCELLED);
      const waited = Date.now() - t0;
      assert.deepEqual(states.get(p), { checked: true }, 'it waited for TypeScript rather than saying no checker had reported');
      assert.match(ws.diagnostics(p).map((d) => d.message).join('\n'), /not assignable to type 'number'/);
      assert.ok(waited < DIAGNOSTICS_MAX_WAIT_MS - 1000, `the wait ended with TypeScript's report (${waited} ms), not at the bound`);
    } finally {
      ws.dispose();
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });
});
