import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ui, waitFor } from './ui';
import { closeAllEditors, wsUri } from './util';

describe('the command palette in the real workbench', () => {
  before(async () => {
    // The chat side bar narrows the editor area; screenshots should show the editor.
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    await ui([{ waitFor: '.monaco-workbench .part.statusbar', timeout: 60000 }]);
  });
  after(closeAllEditors);

  it('runs "Read Active File as a Model Sees It" and shows the tool output', async () => {
    const doc = await vscode.workspace.openTextDocument(wsUri('hello.txt'));
    await vscode.window.showTextDocument(doc);
    const title = 'Agent File Tools: Read Active File as a Model Sees It';
    const r = await ui([
      { waitFor: '.monaco-editor .view-lines' },
      { press: 'F1' },
      { waitFor: '.quick-input-widget input' },
      { type: 'Agent File Tools: Read Active' },
      { waitFor: `.quick-input-list .monaco-list-row[aria-label*="${title}"]`, timeout: 20000 },
      { screenshot: 'palette-read-active-file' },
      { press: 'Enter' },
    ]);
    assert.ok(r.ok, r.error);
    const editor = await waitFor('the result editor', () => {
      const e = vscode.window.activeTextEditor;
      return e?.document.uri.scheme === 'agent-file-tools-result' ? e : undefined;
    });
    const text = editor.document.getText();
    assert.match(text, /^<path>hello\.txt<\/path>/);
    assert.match(text, /\nL1: hello world\n/);
    const shot = await ui([{ waitFor: '.monaco-editor .view-lines' }, { screenshot: 'read-active-file-result' }]);
    assert.ok(shot.ok && shot.shots?.length === 1, shot.error);
    console.log(`[aft] screenshots: ${[...(r.shots ?? []), ...(shot.shots ?? [])].join(', ')}`);
  });
});
