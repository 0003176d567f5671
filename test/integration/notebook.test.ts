// Notebooks edited by cell in the real host: fs_edit with `cell` goes through the notebook
// API (never a rewrite of the .ipynb behind its editor), is reviewed in the notebook diff
// editor, keeps the person's unsaved cells, and undoes in one step.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { invoke, wsUri } from './util';
import { waitFor } from './ui';

const SCHEME = 'agent-file-tools-proposal';

const NOTEBOOK = fs.readFileSync(wsUri('notebooks/analysis.ipynb').fsPath, 'utf8');

function seed(rel: string): vscode.Uri {
  const uri = wsUri(rel);
  fs.mkdirSync(vscode.Uri.joinPath(uri, '..').fsPath, { recursive: true });
  fs.writeFileSync(uri.fsPath, NOTEBOOK);
  return uri;
}

/** The review of the call, once open: the tab whose modified side is a proposal. */
function reviewTab(): Promise<vscode.Tab> {
  return waitFor('the notebook review', () =>
    vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .find((t) => (t.input instanceof vscode.TabInputNotebookDiff || t.input instanceof vscode.TabInputTextDiff) && t.input.modified.scheme === SCHEME),
  );
}

function notebookOf(uri: vscode.Uri): vscode.NotebookDocument | undefined {
  return vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri.toString());
}

describe('notebooks edited by cell in VS Code', () => {
  afterEach(async () => {
    await vscode.commands.executeCommand('agentFileTools.rejectAllChanges', 'test cleanup');
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeAllGroups');
  });

  it('a notebook cell edit is reviewed in the notebook diff editor, lands in the cell with its outputs kept, and one undo takes it back', async () => {
    const uri = seed('nbedit/accept.ipynb');
    await invoke('fs_read', { path: 'nbedit/accept.ipynb' });
    const call = invoke('fs_edit', { path: 'nbedit/accept.ipynb', cell: 2, old_string: 'rows = [1, 2, 3]', new_string: 'rows = [1, 2, 3, 4]' });
    const tab = await reviewTab();
    assert.ok(tab.input instanceof vscode.TabInputNotebookDiff, `the review is a notebook diff (${tab.input?.constructor.name})`);
    assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputNotebookDiff, true);
    assert.equal(fs.readFileSync(uri.fsPath, 'utf8'), NOTEBOOK, 'nothing lands before the answer');
    assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
    const { text } = await call;
    assert.match(text, /^Edited nbedit\/accept\.ipynb: /);
    const nb = notebookOf(uri)!;
    assert.ok(nb, 'the notebook is open as a notebook document');
    assert.equal(nb.cellAt(1).document.getText(), 'rows = [1, 2, 3, 4]\nprint(len(rows))');
    assert.equal(nb.cellAt(0).document.getText(), '# Analysis\nCounts rows.');
    assert.equal(nb.cellAt(1).outputs.length, 1, 'the outputs are kept');
    assert.equal(new TextDecoder().decode(nb.cellAt(1).outputs[0].items[0].data), '3\n');
    assert.equal(nb.isDirty, false, 'saved, as the notebook had no unsaved changes');
    const saved = JSON.parse(fs.readFileSync(uri.fsPath, 'utf8')) as { cells: { source: string[]; outputs?: unknown[] }[] };
    assert.deepEqual(saved.cells[1].source, ['rows = [1, 2, 3, 4]\n', 'print(len(rows))']);
    assert.equal(saved.cells[1].outputs?.length, 1);
    // one undo in the notebook editor (in the cell, whose edits VS Code undoes per cell) takes the change back
    await vscode.window.showNotebookDocument(nb, { selections: [new vscode.NotebookRange(1, 2)] });
    await vscode.commands.executeCommand('notebook.cell.edit');
    await vscode.commands.executeCommand('undo');
    await waitFor('the undo', () => nb.cellAt(1).document.getText() === 'rows = [1, 2, 3]\nprint(len(rows))' || undefined);
    assert.equal(nb.cellCount, 2);
  });

  it('an open notebook with an unsaved change to another cell keeps it: the edit lands beside it, unsaved', async () => {
    const uri = seed('nbedit/dirty.ipynb');
    const nb = await vscode.workspace.openNotebookDocument(uri);
    await vscode.window.showNotebookDocument(nb);
    const first = nb.cellAt(0).document;
    const we = new vscode.WorkspaceEdit();
    we.replace(first.uri, new vscode.Range(0, 0, 0, first.lineAt(0).text.length), '# Analysis (draft)');
    assert.ok(await vscode.workspace.applyEdit(we));
    assert.equal(nb.isDirty, true);
    await invoke('fs_read', { path: 'nbedit/dirty.ipynb' });
    const call = invoke('fs_edit', { path: 'nbedit/dirty.ipynb', cell: 2, new_string: 'rows = list(range(10))\nprint(len(rows))' });
    await reviewTab();
    assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
    const { text } = await call;
    assert.match(text, /not saved|unsaved/);
    assert.equal(nb.cellAt(0).document.getText(), '# Analysis (draft)\nCounts rows.', 'the person\'s unsaved cell is kept');
    assert.equal(nb.cellAt(1).document.getText(), 'rows = list(range(10))\nprint(len(rows))');
    assert.equal(nb.isDirty, true, 'not saved behind the person');
    assert.equal(fs.readFileSync(uri.fsPath, 'utf8'), NOTEBOOK, 'the file is as it was');
    // a whole-file change would overwrite the unsaved cells: refused, pointing to the edit by cell
    const write = await invoke('fs_write', { path: 'nbedit/dirty.ipynb', content: NOTEBOOK.replace('Counts rows.', 'Counts.') });
    assert.match(write.text, /open in a notebook editor with unsaved changes.*fs_edit and `cell`/s);
    assert.equal(nb.cellAt(0).document.getText(), '# Analysis (draft)\nCounts rows.');
  });

  it('an open, saved notebook: what fs_write, fs_edit by cell and a change on disk report is what the next fs_read gives', async () => {
    const uri = seed('nbedit/version.ipynb');
    const nb = await vscode.workspace.openNotebookDocument(uri);
    await vscode.window.showNotebookDocument(nb);
    const versionIn = (text: string) => /versions?:? (?:nbedit\/version\.ipynb )?([0-9a-f]{8})/i.exec(text)?.[1];
    const read = async () => versionIn((await invoke('fs_read', { path: 'nbedit/version.ipynb' })).text);
    const first = await read();
    assert.ok(first);
    const write = invoke('fs_write', { path: 'nbedit/version.ipynb', content: NOTEBOOK.replace('Counts rows.', 'Counts the rows.') });
    await reviewTab();
    assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
    const written = versionIn((await write).text);
    assert.ok(written && written !== first);
    await waitFor('the notebook to reload', () => (nb.cellAt(0).document.getText().includes('Counts the rows.') && !nb.isDirty) || undefined);
    assert.equal(await read(), written, 'the version fs_write reported is the one fs_read gives');
    const cell = invoke('fs_edit', { path: 'nbedit/version.ipynb', cell: 2, new_string: 'rows = [4]\nprint(len(rows))' });
    await reviewTab();
    assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
    const edited = versionIn((await cell).text);
    assert.equal(nb.isDirty, false);
    assert.equal(await read(), edited, 'the version the edit by cell reported is the one fs_read gives');
    // outputs changed on disk, the cells as they were: the JSON the model saw is gone, so writing over it is stale
    const onDisk = fs.readFileSync(uri.fsPath, 'utf8');
    fs.writeFileSync(uri.fsPath, onDisk.replace('"3\\n"', '"30\\n"'));
    await waitFor('the notebook to reload', () => (new TextDecoder().decode(nb.cellAt(1).outputs[0]?.items[0]?.data) === '30\n' && !nb.isDirty) || undefined);
    const stale = await invoke('fs_write', { path: 'nbedit/version.ipynb', content: NOTEBOOK });
    assert.match(stale.text, /changed since you last read it/);
    assert.notEqual(fs.readFileSync(uri.fsPath, 'utf8'), NOTEBOOK);
  });

  it("a notebook's review is read-only and a text file's takes edits, as the change tools' descriptions tell the model", async () => {
    for (const name of ['fs_edit', 'fs_write', 'fs_apply_patch']) {
      assert.match(vscode.lm.tools.find((t) => t.name === name)!.description, /edit \(not notebooks\) or reject/, name);
    }
    seed('nbedit/readonly.ipynb');
    await invoke('fs_read', { path: 'nbedit/readonly.ipynb' });
    const cell = invoke('fs_edit', { path: 'nbedit/readonly.ipynb', cell: 2, old_string: 'rows = [1, 2, 3]', new_string: 'rows = []' });
    const nbTab = await reviewTab();
    assert.ok(nbTab.input instanceof vscode.TabInputNotebookDiff);
    const proposed = nbTab.input.modified;
    assert.equal((await vscode.workspace.fs.stat(proposed)).permissions, vscode.FilePermission.Readonly);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(proposed, new TextEncoder().encode('{}'))), 'the proposal cannot be written');
    assert.equal(await vscode.commands.executeCommand('agentFileTools.rejectChange', undefined, 'test'), true);
    assert.match((await cell).text, /The user rejected this change/);
    await vscode.commands.executeCommand('workbench.action.closeAllGroups');
    fs.writeFileSync(wsUri('nbedit/plain.txt').fsPath, 'rows\n');
    await invoke('fs_read', { path: 'nbedit/plain.txt' });
    const text = invoke('fs_edit', { path: 'nbedit/plain.txt', old_string: 'rows', new_string: 'columns' });
    const textTab = await reviewTab();
    assert.ok(textTab.input instanceof vscode.TabInputTextDiff);
    assert.notEqual((await vscode.workspace.fs.stat(textTab.input.modified)).permissions, vscode.FilePermission.Readonly, 'a text proposal takes the person\'s edits');
    assert.equal(await vscode.commands.executeCommand('agentFileTools.rejectChange', undefined, 'test'), true);
    assert.match((await text).text, /The user rejected this change/);
  });

  it('inserts and deletes cells through the notebook, and Reject changes nothing', async () => {
    const uri = seed('nbedit/cells.ipynb');
    await invoke('fs_read', { path: 'nbedit/cells.ipynb' });
    const rejected = invoke('fs_edit', { path: 'nbedit/cells.ipynb', cell: 1, delete_cell: true });
    await reviewTab();
    assert.equal(await vscode.commands.executeCommand('agentFileTools.rejectChange', undefined, 'keep the title'), true);
    assert.match((await rejected).text, /The user rejected this change; nothing was written/);
    assert.equal(fs.readFileSync(uri.fsPath, 'utf8'), NOTEBOOK);
    const open = notebookOf(uri);
    assert.ok(!open || (open.cellCount === 2 && !open.isDirty));
    const inserted = invoke('fs_edit', { path: 'nbedit/cells.ipynb', cell: 3, insert_cell: 'markdown', new_string: 'The end.' });
    await reviewTab();
    assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
    assert.match((await inserted).text, /Inserted a markdown cell as cell 3 of 3\./);
    const nb = notebookOf(uri)!;
    assert.equal(nb.cellCount, 3);
    assert.equal(nb.cellAt(2).kind, vscode.NotebookCellKind.Markup);
    assert.equal(nb.cellAt(2).document.getText(), 'The end.');
    assert.equal(nb.cellAt(1).outputs.length, 1);
  });
});
