// fs_apply_patch in the real editor: one multi-diff review for every file, Accept and
// Reject through the extension's commands, undo, the palette commands, and a failure
// part-way that puts everything back.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { waitFor } from './ui';
import { invoke, wsUri } from './util';

const SCHEME = 'agent-file-tools-proposal';

function seed(rel: string, text: string): string {
  const p = wsUri(rel).fsPath;
  fs.mkdirSync(p.replace(/\/[^/]*$/, ''), { recursive: true });
  fs.writeFileSync(p, text);
  return p;
}

/** Review tabs of any kind: a multi-diff's tab input is not in the 1.106 typings, so it is found by its label. */
function reviewTab(labelStart: string): vscode.Tab | undefined {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .find((t) => t.label.startsWith(labelStart) && (t.label.includes('proposed by fs_apply_patch') || (t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === SCHEME)));
}

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

describe('fs_apply_patch in the VS Code extension host', () => {
  before(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    await vscode.workspace.getConfiguration('agentFileTools').update('approvalPolicy', undefined, vscode.ConfigurationTarget.Global);
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('agentFileTools.rejectAllChanges', 'test cleanup');
    await vscode.commands.executeCommand('workbench.action.closeAllGroups');
  });

  it('shows three files in one multi-diff review and applies them together on Accept', async () => {
    const a = seed('patch/accept/a.txt', 'a1\na2\na3\n');
    const gone = seed('patch/accept/gone.txt', 'bye\n');
    const call = invoke('fs_apply_patch', {
      patch: patch('*** Update File: patch/accept/a.txt', '@@', ' a1', '-a2', '+A2', ' a3', '*** Add File: patch/accept/new.txt', '+new', '*** Delete File: patch/accept/gone.txt'),
    });
    const tab = await waitFor('the multi-diff review', () => reviewTab('patch 3 files'));
    assert.match(tab.label, /proposed by fs_apply_patch \(3 files\)$/);
    assert.equal(fs.readFileSync(a, 'utf8'), 'a1\na2\na3\n', 'nothing lands before the answer');
    await vscode.commands.executeCommand('agentFileTools.acceptChange');
    const { text } = await call;
    assert.match(text, /^Success\. Updated the following files:\nM patch\/accept\/a\.txt\nA patch\/accept\/new\.txt\nD patch\/accept\/gone\.txt\n/);
    assert.equal(fs.readFileSync(a, 'utf8'), 'a1\nA2\na3\n');
    assert.equal(fs.readFileSync(wsUri('patch/accept/new.txt').fsPath, 'utf8'), 'new\n');
    assert.equal(fs.existsSync(gone), false);
  });

  it('writes nothing on Reject and gives the model the reason', async () => {
    const a = seed('patch/reject/a.txt', 'keep\n');
    const call = invoke('fs_apply_patch', { patch: patch('*** Update File: patch/reject/a.txt', '-keep', '+lose', '*** Add File: patch/reject/b.txt', '+b') });
    await waitFor('the multi-diff review', () => reviewTab('patch 2 files'));
    await vscode.commands.executeCommand('agentFileTools.rejectChange', undefined, 'wrong file');
    assert.match((await call).text, /^The user rejected this change; nothing was written\. Their reason: wrong file/);
    assert.equal(fs.readFileSync(a, 'utf8'), 'keep\n');
    assert.equal(fs.existsSync(wsUri('patch/reject/b.txt').fsPath), false);
  });

  it('lands as one undoable edit on an open document', async () => {
    const p = seed('patch/undo.txt', 'x1\nx2\n');
    const doc = await vscode.workspace.openTextDocument(wsUri('patch/undo.txt'));
    await vscode.window.showTextDocument(doc);
    const call = invoke('fs_apply_patch', { patch: patch('*** Update File: patch/undo.txt', '-x1', '+X1', ' x2') });
    await waitFor('the review', () => reviewTab('undo.txt'));
    await vscode.commands.executeCommand('agentFileTools.acceptChange');
    assert.match((await call).text, /^Success/);
    assert.equal(fs.readFileSync(p, 'utf8'), 'X1\nx2\n');
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    assert.equal(doc.getText(), 'x1\nx2\n');
    await doc.save();
  });

  it('puts back every file when one cannot be written part-way, and says so', async () => {
    const a = seed('patch/fail/a.txt', 'a\n');
    const locked = seed('patch/fail/locked.txt', 'locked\n');
    execFileSync('chattr', ['+i', locked]);
    try {
      const call = invoke('fs_apply_patch', { patch: patch('*** Update File: patch/fail/a.txt', '-a', '+A', '*** Add File: patch/fail/made.txt', '+m', '*** Update File: patch/fail/locked.txt', '-locked', '+changed') });
      await waitFor('the review', () => reviewTab('patch 3 files'));
      await vscode.commands.executeCommand('agentFileTools.acceptChange');
      const { text } = await call;
      assert.match(text, /could not be applied, and nothing was written/);
    } finally {
      execFileSync('chattr', ['-i', locked]);
    }
    assert.equal(fs.readFileSync(a, 'utf8'), 'a\n');
    assert.equal(fs.readFileSync(locked, 'utf8'), 'locked\n');
    assert.equal(fs.existsSync(wsUri('patch/fail/made.txt').fsPath), false);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === a);
    assert.ok(!doc || !doc.isDirty, 'no document is left changed');
  });

  it('applies a patch from the clipboard through the same review', async () => {
    const p = seed('patch/clip.txt', 'from\n');
    await vscode.env.clipboard.writeText(patch('*** Update File: patch/clip.txt', '-from', '+to'));
    const done = vscode.commands.executeCommand('agentFileTools.applyPatchFromClipboard');
    await waitFor('the review', () => reviewTab('clip.txt'));
    await vscode.commands.executeCommand('agentFileTools.acceptChange');
    await done;
    assert.equal(fs.readFileSync(p, 'utf8'), 'to\n');
    const shown = await waitFor('the result document', () => vscode.window.activeTextEditor?.document.getText().match(/^Success\. Updated the following files:\nM patch\/clip\.txt/) ?? undefined);
    assert.ok(shown);
  });

  it('applies the patch in the active editor (its selection, or the patch among other text) through the same review', async () => {
    const p = seed('patch/sel.txt', 'old\n');
    const doc = await vscode.workspace.openTextDocument({ content: `Here is the change:\n${patch('*** Update File: patch/sel.txt', '-old', '+new')}\nThanks.\n`, language: 'markdown' });
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(1, 0, 5, doc.lineAt(5).text.length);
    const done = vscode.commands.executeCommand('agentFileTools.applyPatchFromEditor');
    await waitFor('the review', () => reviewTab('sel.txt'));
    await vscode.commands.executeCommand('agentFileTools.acceptChange');
    await done;
    assert.equal(fs.readFileSync(p, 'utf8'), 'new\n');
    // no selection: the patch is found between the message's other lines
    const we = new vscode.WorkspaceEdit();
    we.replace(doc.uri, new vscode.Range(1, 0, 5, doc.lineAt(5).text.length), patch('*** Update File: patch/sel.txt', '-new', '+newer'));
    assert.ok(await vscode.workspace.applyEdit(we));
    await vscode.window.showTextDocument(doc);
    const again = vscode.commands.executeCommand('agentFileTools.applyPatchFromEditor');
    await waitFor('the review', () => reviewTab('sel.txt'));
    await vscode.commands.executeCommand('agentFileTools.acceptChange');
    await again;
    assert.equal(fs.readFileSync(p, 'utf8'), 'newer\n');
  });
});
