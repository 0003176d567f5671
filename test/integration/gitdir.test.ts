import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { invoke } from './util';

/** A bare repository inside the workspace: git's data under another name than `.git`. */
describe('git directories not named .git, in the VS Code extension host', () => {
  const rel = 'gitdir-bare';
  let dir: string;
  let config: string;
  before(() => {
    dir = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, rel);
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('git', ['init', '-q', '--bare', 'repo.git'], { cwd: dir });
    config = fs.readFileSync(path.join(dir, 'repo.git/config'), 'utf8');
  });
  after(async () => {
    await vscode.workspace.getConfiguration('agentFileTools').update('approvalPolicy', undefined, vscode.ConfigurationTarget.Workspace);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('fs_edit, fs_write and fs_apply_patch refuse a bare repository\'s config and hooks under the "never" policy, and no review opens', async () => {
    await vscode.workspace.getConfiguration('agentFileTools').update('approvalPolicy', 'never', vscode.ConfigurationTarget.Workspace);
    for (const [tool, input] of [
      ['fs_edit', { path: `${rel}/repo.git/config`, old_string: '[core]', new_string: '[core]\n\tfsmonitor = "touch pwned"' }],
      ['fs_write', { path: `${rel}/repo.git/hooks/post-checkout`, content: '#!/bin/sh\ntouch pwned\n' }],
      ['fs_apply_patch', { patch: `*** Begin Patch\n*** Add File: ${rel}/repo.git/hooks/pre-commit\n+#!/bin/sh\n*** End Patch` }],
    ] as const) {
      const { text } = await invoke(tool, input);
      assert.match(text, /is inside the git folder gitdir-bare\/repo\.git \(a repository under another name than \.git\): git's own files are never written/, `${tool}: ${text}`);
      assert.equal(vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff).length, 0, `${tool} opened a review`);
    }
    assert.equal(fs.readFileSync(path.join(dir, 'repo.git/config'), 'utf8'), config);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'repo.git/hooks')).filter((f) => !f.endsWith('.sample')), []);
  });

  it('fs_list shows it collapsed and fs_grep finds nothing in it', async () => {
    const listed = await invoke('fs_list', { path: rel, depth: 3 });
    assert.match(listed.text, /^repo\.git\/ \(not listed\)$/m);
    assert.doesNotMatch(listed.text, /HEAD|objects|hooks/);
    const found = await invoke('fs_grep', { pattern: 'repositoryformatversion|bare', path: rel });
    assert.doesNotMatch(found.text, /repo\.git/);
  });
});
