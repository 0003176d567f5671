import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { buildHostileTree, OUTSIDE, SECRET, type HostileTree } from './hostileTree';
import { invoke } from './util';

describe('a hostile workspace in the VS Code extension host', () => {
  let h: HostileTree;
  before(() => {
    h = buildHostileTree(vscode.workspace.workspaceFolders![0].uri.fsPath);
  });
  after(() => h.remove());

  it('appends only the instruction files the path policy allows, saying which were skipped', async () => {
    const { text } = await invoke('fs_read', { path: `${h.rel}/pkg/main.ts` });
    assert.match(text, /<instructions path="hostile\/AGENTS\.md">\nUse tabs in this package\.\n<\/instructions>/);
    assert.match(text, /^\(Skipped hostile\/pkg\/AGENTS\.md: it resolves outside the workspace\.\)$/m);
    assert.match(text, /^\(Skipped hostile\/pkg\/CLAUDE\.md: it may hold secrets \(agentFileTools\.sensitiveFiles\)\.\)$/m);
    assert.ok(!text.includes(OUTSIDE) && !text.includes(SECRET), text);
  });

  it('skips an instruction file whose open editor shows a secret, too', async () => {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(`${vscode.workspace.workspaceFolders![0].uri.fsPath}/${h.rel}/pkg/CLAUDE.md`));
    await vscode.window.showTextDocument(doc);
    try {
      const { text } = await invoke('fs_read', { path: `${h.rel}/pkg/main.ts` });
      assert.ok(!text.includes(SECRET), text);
      assert.match(text, /Skipped hostile\/pkg\/CLAUDE\.md: it may hold secrets/);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('fs_grep answers a right guess at a secret as it answers a wrong one', async () => {
    const right = await invoke('fs_grep', { pattern: 'hunter2', path: h.rel });
    const wrong = await invoke('fs_grep', { pattern: 'hunter3', path: h.rel });
    assert.equal(right.text.replace('hunter2', 'hunter3'), wrong.text);
    assert.ok(!right.text.includes(SECRET));
  });

  it('refuses .git named as the path, saying why', async () => {
    for (const [tool, input] of [
      ['fs_grep', { pattern: 'hunter2', path: `${h.rel}/repo/.git` }],
      ['fs_read', { path: `${h.rel}/repo/.git/config` }],
      ['fs_list', { path: `${h.rel}/repo/.git` }],
    ] as const) {
      const { text } = await invoke(tool, input);
      assert.match(text, /is (inside )?a \.git folder: fs_\w+ never (reads|lists|searches) git's own data/, text);
      assert.ok(!text.includes(SECRET));
    }
  });

  it('lists tracked files without running the repository\'s core.fsmonitor', async () => {
    assert.equal(vscode.workspace.isTrusted, true);
    const { text } = await invoke('fs_list', { path: `${h.rel}/repo`, source: 'git' });
    assert.match(text, /^src\/$/m);
    assert.ok(!fs.existsSync(h.marker), 'the fsmonitor command ran');
  });

  it('stops a PDF that inflates within seconds, on a thread of its own', async function () {
    this.timeout(30000);
    const t0 = Date.now();
    const { text } = await invoke('fs_read', { path: `${h.rel}/bomb.pdf` });
    assert.match(text, /^Stopped extracting the text of page 1 of hostile\/bomb\.pdf: it (took more than 5 seconds|needed more than 512\.0 MiB of memory)/);
    assert.ok(Date.now() - t0 < 10000, `${Date.now() - t0} ms`);
  });
});
