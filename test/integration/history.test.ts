// The History of Changes: what landed is listed, shown again and reverted through a review
// of its own; a revert over newer work opens the merge editor (a deleted file: the two-way view)
// and changes nothing until answered; the journal survives a reload (a second journal on the same storage reads what the first wrote).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readSettings } from '../../src/vscode/settings';
import { HistoryJournal, type HistoryEntry } from '../../src/history/journal';
import { ui, waitFor } from './ui';
import { invoke, wsUri } from './util';

const PROPOSAL = 'agent-file-tools-proposal';

function reviewTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === PROPOSAL);
}

function mergeTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => {
    const TabInputTextMerge = (vscode as unknown as { TabInputTextMerge: new (...args: never[]) => object }).TabInputTextMerge;
    return t.input instanceof TabInputTextMerge && (t.input as { result?: unknown }).result instanceof vscode.Uri;
  });
}

function reviewOf(name: string): Promise<vscode.Tab> {
  return waitFor(`the review of ${name}`, () => reviewTabs().find((t) => t.label.startsWith(`${name} `)));
}

function seedBytes(rel: string, bytes: Uint8Array): string {
  const p = wsUri(rel).fsPath;
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, bytes);
  return p;
}

async function entries(): Promise<HistoryEntry[]> {
  return (await vscode.commands.executeCommand<HistoryEntry[]>('agentFileTools.historyEntries')) ?? [];
}

/** The newest entry once it is the one that names `display`. */
async function newestFor(display: string): Promise<HistoryEntry> {
  return waitFor(`the history entry of ${display}`, async () => {
    const [e] = await entries();
    return e && e.files.some((f) => f.display === display || f.from?.display === display) ? e : undefined;
  });
}

async function accepted<T>(call: Promise<T>, name: string): Promise<T> {
  await reviewOf(name);
  assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
  return call;
}

describe('the history of changes', () => {
  before(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    await vscode.workspace.getConfiguration('agentFileTools').update('approvalPolicy', undefined, vscode.ConfigurationTarget.Global);
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('agentFileTools.rejectAllChanges', 'test cleanup');
    await vscode.commands.executeCommand('workbench.action.closeAllGroups');
  });

  it('lists an accepted change with its tool, file, lines and origin, and Revert restores the file byte for byte (CRLF and BOM) through a review', async () => {
    const original = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('first\r\nsecond\r\nthird\r\n', 'utf8')]);
    const p = seedBytes('history/bom-crlf.txt', original);
    await invoke('fs_read', { path: 'history/bom-crlf.txt' });
    const { text } = await accepted(invoke('fs_edit', { path: 'history/bom-crlf.txt', old_string: 'second', new_string: 'SECOND\nand more' }), 'bom-crlf.txt');
    assert.match(text, /^Edited history\/bom-crlf\.txt: \+2 -1 lines/);
    assert.notDeepEqual(fs.readFileSync(p), original);
    const e = await newestFor('history/bom-crlf.txt');
    assert.equal(e.tool, 'fs_edit');
    assert.equal(e.origin, 'extension', 'invokeTool without a chat token, from another extension');
    assert.deepEqual(
      e.files.map((f) => [f.display, f.action, f.added, f.removed, f.kept, f.encoding]),
      [['history/bom-crlf.txt', 'modify', 2, 1, true, 'utf-8-bom']],
    );

    const revert = vscode.commands.executeCommand<boolean>('agentFileTools.revertChange', e.id);
    const tab = await reviewOf('bom-crlf.txt');
    assert.match(tab.label, /proposed by revert$/);
    assert.notDeepEqual(fs.readFileSync(p), original, 'nothing lands before the answer');
    assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
    assert.equal(await revert, true);
    assert.deepEqual(fs.readFileSync(p), original, 'the bytes as they were: BOM and CRLF');
    const [r] = await entries();
    assert.equal(r.tool, 'revert', 'the revert is itself a change in the history');
    assert.equal(r.origin, 'command');
  });

  it('brings back a deleted file and puts a moved one back where it was', async () => {
    const gone = Buffer.from('keep me\r\n', 'utf8');
    const pGone = seedBytes('history/gone.txt', gone);
    const pMoved = seedBytes('history/old-name.txt', Buffer.from('moved text\n'));
    await invoke('fs_read', { path: 'history/gone.txt' });
    await invoke('fs_read', { path: 'history/old-name.txt' });
    const patch = ['*** Begin Patch', '*** Delete File: history/gone.txt', '*** Update File: history/old-name.txt', '*** Move to: history/new-name.txt', '@@', '-moved text', '+moved and changed', '*** End Patch'].join('\n');
    const call = invoke('fs_apply_patch', { patch });
    await waitFor('the patch review', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label.includes('proposed by fs_apply_patch')));
    assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
    assert.match((await call).text, /^Success\./);
    assert.equal(fs.existsSync(pGone), false);
    assert.equal(fs.existsSync(pMoved), false);
    const e = await newestFor('history/gone.txt');
    const revert = vscode.commands.executeCommand<boolean>('agentFileTools.revertChange', e.id);
    await waitFor('the revert review', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label.includes('proposed by revert')));
    assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
    assert.equal(await revert, true);
    assert.deepEqual(fs.readFileSync(pGone), gone);
    assert.equal(fs.readFileSync(pMoved, 'utf8'), 'moved text\n');
    assert.equal(fs.existsSync(wsUri('history/new-name.txt').fsPath), false);
  });

  it('a revert that would delete a file changed since shows the two-way view (no lines to merge), and changes nothing until answered', async () => {
    const p = wsUri('history/newer.txt').fsPath;
    fs.rmSync(p, { force: true });
    await accepted(invoke('fs_write', { path: 'history/newer.txt', content: 'a\nB\n' }), 'newer.txt');
    const e = await newestFor('history/newer.txt');
    fs.writeFileSync(p, 'a\nB\nnewer work\n');
    await waitFor('the editor to see the newer text', async () => (await vscode.workspace.openTextDocument(wsUri('history/newer.txt'))).getText().includes('newer work') || undefined);
    const revert = vscode.commands.executeCommand<boolean>('agentFileTools.revertChange', e.id);
    const tab = await waitFor('the view of newer work', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label.startsWith('newer.txt: changed since')));
    assert.equal(tab.label, 'newer.txt: changed since (now) ↔ what Revert would write');
    assert.ok(tab.input instanceof vscode.TabInputTextDiff);
    assert.equal((await vscode.workspace.openTextDocument(tab.input.original)).getText(), 'a\nB\nnewer work\n');
    assert.equal((await vscode.workspace.openTextDocument(tab.input.modified)).getText(), '', 'the revert deletes the file it created');
    assert.equal(mergeTabs().length, 0, 'a file the revert deletes gets no merge editor');
    assert.deepEqual(reviewTabs(), [], 'no review before the person answers');
    assert.equal(fs.readFileSync(p, 'utf8'), 'a\nB\nnewer work\n');
    const r = await ui([{ waitFor: '.quick-input-widget .quick-input-title:has-text("changed since this change")' }, { screenshot: 'history-revert-over-newer' }, { type: 'Review Revert' }, { press: 'Enter' }]);
    assert.ok(r.ok, r.error);
    await waitFor('the review of the revert', () => reviewTabs()[0]);
    assert.equal(await vscode.commands.executeCommand('agentFileTools.rejectChange', undefined, 'kept my work'), true);
    assert.equal(await revert, false);
    assert.equal(fs.readFileSync(p, 'utf8'), 'a\nB\nnewer work\n', 'rejected: the newer work stays');
  });

  it('a revert over newer work opens the merge editor, changes nothing until it is completed, and the completed result goes through the review byte for byte (CRLF and BOM)', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const crlf = (lines: string[]) => lines.map((l) => `${l}\r\n`).join('');
    const original = Buffer.concat([bom, Buffer.from(crlf(['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta']))]);
    const p = seedBytes('history/merge.txt', original);
    await invoke('fs_read', { path: 'history/merge.txt' });
    await accepted(invoke('fs_edit', { path: 'history/merge.txt', old_string: 'beta', new_string: 'BETA' }), 'merge.txt');
    const e = await newestFor('history/merge.txt');
    const newer = Buffer.concat([bom, Buffer.from(crlf(['alpha', 'BETA', 'gamma', 'delta', 'epsilon', 'ZETA, newer work']))]);
    fs.writeFileSync(p, newer);
    await waitFor('the editor to see the newer text', async () => (await vscode.workspace.openTextDocument(wsUri('history/merge.txt'))).getText().includes('newer work') || undefined);

    const revert = vscode.commands.executeCommand<boolean>('agentFileTools.revertChange', e.id);
    const tab = await waitFor('the merge editor', () => mergeTabs()[0]);
    const TabInputTextMerge = (vscode as unknown as { TabInputTextMerge: new (...args: never[]) => object }).TabInputTextMerge;
    assert.ok(tab.input instanceof TabInputTextMerge, 'the host\'s own merge editor');
    assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab, tab, 'the active tab');
    const sides = tab.input as unknown as { base: vscode.Uri; input1: vscode.Uri; input2: vscode.Uri; result: vscode.Uri };
    const text = async (u: vscode.Uri) => (await vscode.workspace.openTextDocument(u)).getText();
    assert.equal(await text(sides.base), crlf(['alpha', 'BETA', 'gamma', 'delta', 'epsilon', 'zeta']), 'base: what the change wrote');
    assert.equal(await text(sides.input1), crlf(['alpha', 'BETA', 'gamma', 'delta', 'epsilon', 'ZETA, newer work']), 'left: the newer work');
    assert.equal(await text(sides.input2), crlf(['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta']), 'right: what Revert would write');
    assert.notEqual(sides.result.scheme, 'file', 'the result is not the real file');
    const shot = await ui([{ waitFor: '.merge-editor' }, { screenshot: 'history-revert-merge-editor' }]);
    assert.ok(shot.ok, shot.error);
    assert.deepEqual(reviewTabs(), [], 'no review before the merge is completed');
    assert.deepEqual(fs.readFileSync(p), newer, 'nothing changed');

    // the person takes the revert's side where it changed something, keeping the newer work elsewhere, and completes the merge
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    await vscode.commands.executeCommand('merge.acceptAllInput2');
    await waitFor('the result to take the revert', async () => (await text(sides.result)).includes('\r\nbeta\r\n') || undefined);
    assert.deepEqual(fs.readFileSync(p), newer, 'still nothing changed');
    await vscode.commands.executeCommand('mergeEditor.acceptMerge');
    const review = await reviewOf('merge.txt');
    assert.match(review.label, /proposed by revert$/);
    assert.ok(review.input instanceof vscode.TabInputTextDiff);
    assert.equal(await text(review.input.modified), crlf(['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'ZETA, newer work']));
    assert.deepEqual(fs.readFileSync(p), newer, 'nothing lands before the review is answered');
    assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
    assert.equal(await revert, true);
    assert.deepEqual(fs.readFileSync(p), Buffer.concat([bom, Buffer.from(crlf(['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'ZETA, newer work']))]), 'the merged text, BOM and CRLF kept');
  });

  it('a merge editor closed without Complete Merge reverts nothing', async () => {
    const p = seedBytes('history/merge-closed.txt', Buffer.from('one\ntwo\nthree\nfour\nfive\n'));
    await invoke('fs_read', { path: 'history/merge-closed.txt' });
    await accepted(invoke('fs_edit', { path: 'history/merge-closed.txt', old_string: 'two', new_string: 'TWO' }), 'merge-closed.txt');
    const e = await newestFor('history/merge-closed.txt');
    const newer = 'one\nTWO\nthree\nfour\nfive, newer work\n';
    fs.writeFileSync(p, newer);
    await waitFor('the editor to see the newer text', async () => (await vscode.workspace.openTextDocument(wsUri('history/merge-closed.txt'))).getText().includes('newer work') || undefined);
    const revert = vscode.commands.executeCommand<boolean>('agentFileTools.revertChange', e.id);
    const tab = await waitFor('the merge editor', () => mergeTabs()[0]);
    assert.ok(await vscode.window.tabGroups.close(tab));
    assert.equal(await revert, false);
    assert.deepEqual(reviewTabs(), [], 'no review');
    assert.equal(fs.readFileSync(p, 'utf8'), newer, 'the newer work stays');
  });

  it('a review started from a command takes the keyboard: Ctrl+K Ctrl+Y accepts it without a click', async () => {
    const p = seedBytes('history/keys.txt', Buffer.from('x = 1\n'));
    await invoke('fs_read', { path: 'history/keys.txt' });
    await accepted(invoke('fs_edit', { path: 'history/keys.txt', old_string: 'x = 1', new_string: 'x = 2' }), 'keys.txt');
    const e = await newestFor('history/keys.txt');
    await vscode.commands.executeCommand('agentFileTools.history.focus');
    const shot = await ui([{ waitFor: '.monaco-list-row[aria-label*="keys.txt"]' }, { screenshot: 'history-view' }]);
    assert.ok(shot.ok, shot.error);
    const revert = vscode.commands.executeCommand<boolean>('agentFileTools.revertChange', e.id);
    await reviewOf('keys.txt');
    const r = await ui([{ waitFor: '.monaco-diff-editor .editor.modified .view-lines' }, { press: 'Control+K' }, { press: 'Control+Y' }]);
    assert.ok(r.ok, r.error);
    assert.equal(await revert, true);
    assert.equal(fs.readFileSync(p, 'utf8'), 'x = 1\n');
  });

  it('survives a reload: a journal on the same storage lists what the first one kept, texts and all', async () => {
    const dir = vscode.Uri.file(fs.mkdtempSync(path.join(os.tmpdir(), 'aft-history-')));
    const limits = () => ({ maxEntries: 2, maxBytes: 1024 * 1024 });
    const first = new HistoryJournal(dir, limits);
    const file = (n: number) => ({ path: `/w/f${n}.txt`, display: `f${n}.txt`, action: 'modify' as const, before: `old ${n}\r\n`, after: `new ${n}\r\n`, encoding: 'utf-8', added: 1, removed: 1, userEdited: n === 3, kept: true });
    for (const n of [1, 2, 3]) {
      first.record({ tool: 'fs_edit', summary: `edit f${n}.txt`, origin: 'chat', at: n, files: [file(n)] });
    }
    await first.flush();
    first.dispose();
    const second = new HistoryJournal(dir, limits);
    await second.flush();
    assert.deepEqual(
      second.entries().map((x) => x.summary),
      ['edit f3.txt', 'edit f2.txt'],
      'newest first, the oldest dropped beyond maxEntries',
    );
    const full = await second.full(second.entries()[0].id);
    assert.deepEqual(full?.files[0], file(3));
    assert.deepEqual(fs.readdirSync(dir.fsPath).sort(), ['2.json', '3.json', 'index.json'], 'the dropped change\'s texts are deleted');
    second.dispose();
  });
});

describe('Run a Tool in an editor', () => {
  afterEach(async () => {
    await vscode.commands.executeCommand('agentFileTools.rejectAllChanges', 'test cleanup');
    for (const d of vscode.workspace.textDocuments.filter((x) => x.uri.scheme === 'agent-file-tools-input' && x.isDirty)) {
      await vscode.window.showTextDocument(d);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllGroups');
  });

  it('opens a JSON input prefilled for the active file, checked against the tool\'s schema as it is typed', async () => {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(wsUri('hello.txt')));
    await vscode.commands.executeCommand('agentFileTools.runToolInEditor', 'fs_read');
    const editor = await waitFor('the input editor', () => (vscode.window.activeTextEditor?.document.uri.scheme === 'agent-file-tools-input' ? vscode.window.activeTextEditor : undefined));
    assert.equal(editor.document.uri.path, '/fs_read.input.json');
    assert.equal(editor.document.languageId, 'json');
    assert.deepEqual(JSON.parse(editor.document.getText()), { path: 'hello.txt', offset: 1, limit: 50 });
    await editor.edit((e) => e.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), '{"path": "hello.txt", "offset": "one"}\n'));
    const problems = await waitFor('a schema error', () => {
      const d = vscode.languages.getDiagnostics(editor.document.uri);
      return d.length ? d : undefined;
    });
    assert.match(problems.map((d) => d.message).join('\n'), /integer/i);
    const shot = await ui([{ waitFor: '.editor-actions a.action-label[aria-label*="Run This Tool Input"]' }, { screenshot: 'run-tool-in-editor' }]);
    assert.ok(shot.ok, shot.error);
  });

  it('the editor title\'s run action runs the input: an edit\'s review takes the keyboard, Ctrl+K Ctrl+Y accepts it, the result opens read-only', async () => {
    const p = seedBytes('history/run.txt', Buffer.from('alpha\nbeta\n'));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(wsUri('history/run.txt')));
    await vscode.commands.executeCommand('agentFileTools.runToolInEditor', 'fs_edit');
    const editor = await waitFor('the input editor', () => (vscode.window.activeTextEditor?.document.uri.path === '/fs_edit.input.json' ? vscode.window.activeTextEditor : undefined));
    // a real change: a line added after one that occurs once in the file
    assert.deepEqual(JSON.parse(editor.document.getText()), { path: 'history/run.txt', old_string: 'alpha', new_string: 'alpha\nAdded by fs_edit from Run a Tool: accept it, then revert it from the History of Changes.' });
    await editor.edit((e) => e.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), JSON.stringify({ path: 'history/run.txt', old_string: 'beta', new_string: 'gamma\ndelta' }, null, 2)));
    const clicked = await ui([{ click: '.editor-actions a.action-label[aria-label*="Run This Tool Input"]' }]);
    assert.ok(clicked.ok, clicked.error);
    await reviewOf('run.txt');
    const keys = await ui([{ waitFor: '.monaco-diff-editor .editor.modified .view-lines' }, { press: 'Control+K' }, { press: 'Control+Y' }]);
    assert.ok(keys.ok, keys.error);
    await waitFor('the file to change', () => fs.readFileSync(p, 'utf8') === 'alpha\ngamma\ndelta\n' || undefined);
    const result = await waitFor('the result document', () => vscode.window.activeTextEditor?.document.uri.scheme === 'agent-file-tools-result' ? vscode.window.activeTextEditor.document : undefined);
    assert.match(result.getText(), /^Edited history\/run\.txt: \+2 -1 lines/);
    const [e] = await entries();
    assert.equal(e.origin, 'command', 'the history says the person ran it');
  });
});

describe('settings', () => {
  it('a tool turned off is not offered to chats, and refuses a call that reaches it anyway, until turned on again', async () => {
    const config = vscode.workspace.getConfiguration('agentFileTools');
    const manifest = vscode.extensions.getExtension('agent-file-tools.agent-file-tools')!.packageJSON as { contributes: { languageModelTools: { name: string; when?: string }[] } };
    assert.equal(manifest.contributes.languageModelTools.find((t) => t.name === 'fs_glob')?.when, 'config.agentFileTools.tools.fs_glob.enabled');
    await config.update('tools.fs_glob.enabled', false, vscode.ConfigurationTarget.Workspace);
    try {
      const off = await invoke('fs_glob', { pattern: '*.txt' });
      assert.equal(off.text, 'fs_glob is turned off in this workspace\'s settings (agentFileTools.tools.fs_glob.enabled); nothing was done.');
      assert.match((await invoke('fs_grep', { pattern: 'hello', path: 'hello.txt' })).text, /hello/, 'the other tools stay');
    } finally {
      await config.update('tools.fs_glob.enabled', undefined, vscode.ConfigurationTarget.Workspace);
    }
    assert.match((await invoke('fs_glob', { pattern: '*.txt' })).text, /hello\.txt/);
  });

  it('a workspace cannot turn back on a tool or the instruction files the person turned off', async () => {
    const config = vscode.workspace.getConfiguration('agentFileTools');
    const user = vscode.ConfigurationTarget.Global;
    const workspace = vscode.ConfigurationTarget.Workspace;
    await config.update('tools.fs_glob.enabled', false, user);
    await config.update('tools.fs_glob.enabled', true, workspace);
    await config.update('instructionFiles', false, user);
    await config.update('instructionFiles', true, workspace);
    try {
      assert.match((await invoke('fs_glob', { pattern: '*.txt' })).text, /^fs_glob is turned off/);
      assert.equal(readSettings().instructionFiles, false);
      // and a workspace may still turn them off
      await config.update('tools.fs_glob.enabled', undefined, user);
      await config.update('tools.fs_glob.enabled', false, workspace);
      assert.match((await invoke('fs_glob', { pattern: '*.txt' })).text, /^fs_glob is turned off/);
    } finally {
      for (const key of ['tools.fs_glob.enabled', 'instructionFiles']) {
        await config.update(key, undefined, user);
        await config.update(key, undefined, workspace);
      }
    }
    assert.match((await invoke('fs_glob', { pattern: '*.txt' })).text, /hello\.txt/);
  });
});

describe('the walkthrough', () => {
  after(() => vscode.commands.executeCommand('workbench.action.closeAllGroups'));

  it('opens, and its first step\'s button runs the real command', async () => {
    const manifest = vscode.extensions.getExtension('agent-file-tools.agent-file-tools')!.packageJSON as { contributes: { walkthroughs: { id: string; steps: { id: string; description: string }[] }[] } };
    const [w] = manifest.contributes.walkthroughs;
    assert.deepEqual(w.steps.map((s) => s.id), ['tools', 'agentMode', 'read', 'edit', 'patch', 'history', 'log', 'settings', 'customize']);
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `agent-file-tools.agent-file-tools#${w.id}`, false);
    const shot = await ui([{ waitFor: '.getting-started-category:has-text("Meet the seven file tools"), .gettingStartedSlideDetails:has-text("Meet the seven file tools")' }, { screenshot: 'walkthrough' }]);
    assert.ok(shot.ok, shot.error);
    const link = /\]\(command:([\w.]+)\)/.exec(w.steps[0].description);
    assert.equal(link?.[1], 'agentFileTools.runToolInEditor');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(wsUri('hello.txt')));
    await vscode.commands.executeCommand(link[1], 'fs_grep');
    const editor = await waitFor('the fs_grep input', () => (vscode.window.activeTextEditor?.document.uri.path === '/fs_grep.input.json' ? vscode.window.activeTextEditor : undefined));
    assert.equal(JSON.parse(editor.document.getText()).path, '.');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
