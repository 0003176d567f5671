import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isMultiDiffTab } from '../../src/approval/diffReview';
import { waitFor } from './ui';
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
    await vscode.workspace.getConfiguration('agentFileTools').update('approvalPolicy', undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('fs_edit, fs_write and fs_apply_patch refuse a bare repository\'s config and hooks under the "never" policy, and no review opens', async () => {
    await vscode.workspace.getConfiguration('agentFileTools').update('approvalPolicy', 'never', vscode.ConfigurationTarget.Global);
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

  it('a bare repository made of the file\'s folder while its review waits stops the write at Accept, with the words of a refusal at plan time', async () => {
    await vscode.workspace.getConfiguration('agentFileTools').update('approvalPolicy', 'always', vscode.ConfigurationTarget.Global);
    const folder = path.join(dir, 'later');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'notes.txt'), 'notes\n');
    const call = invoke('fs_edit', { path: `${rel}/later/notes.txt`, old_string: 'notes', new_string: 'hooked' });
    await waitFor('the review of notes.txt', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label.startsWith('notes.txt ') && t.input instanceof vscode.TabInputTextDiff));
    execFileSync('git', ['init', '-q', '--bare', '.'], { cwd: folder });
    assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
    const { text } = await call;
    assert.match(text, /^gitdir-bare\/later\/notes\.txt is inside the git folder gitdir-bare\/later \(a repository under another name than \.git\): git's own files are never written by these tools\./, text);
    assert.equal(fs.readFileSync(path.join(folder, 'notes.txt'), 'utf8'), 'notes\n');
  });

  it('HEAD, objects and refs appearing in a folder above two files while their multi-diff review waits stop the patch at Accept: nothing is written, the other file neither', async () => {
    await vscode.workspace.getConfiguration('agentFileTools').update('approvalPolicy', 'always', vscode.ConfigurationTarget.Global);
    const deep = path.join(dir, 'deep');
    fs.mkdirSync(path.join(deep, 'inner'), { recursive: true });
    fs.writeFileSync(path.join(deep, 'inner/keep.txt'), 'keep\n');
    fs.writeFileSync(path.join(dir, 'plain.txt'), 'plain\n');
    const call = invoke('fs_apply_patch', {
      patch: `*** Begin Patch\n*** Update File: ${rel}/plain.txt\n@@\n-plain\n+changed\n*** Update File: ${rel}/deep/inner/keep.txt\n@@\n-keep\n+hooked\n*** Add File: ${rel}/deep/inner/new.txt\n+new\n*** End Patch`,
    });
    await waitFor('the multi-diff review', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find(isMultiDiffTab));
    // the folder above becomes a repository while the person reads the change
    fs.mkdirSync(path.join(deep, 'objects'));
    fs.mkdirSync(path.join(deep, 'refs'));
    fs.writeFileSync(path.join(deep, 'HEAD'), 'ref: refs/heads/main\n');
    assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
    const { text } = await call;
    assert.match(text, /^gitdir-bare\/deep\/inner\/keep\.txt is inside the git folder gitdir-bare\/deep \(a repository under another name than \.git\): git's own files are never written by these tools\./, text);
    assert.equal(fs.readFileSync(path.join(deep, 'inner/keep.txt'), 'utf8'), 'keep\n');
    assert.equal(fs.existsSync(path.join(deep, 'inner/new.txt')), false);
    assert.equal(fs.readFileSync(path.join(dir, 'plain.txt'), 'utf8'), 'plain\n', 'all or nothing: the file outside git\'s data is not written either');
  });

  it('fs_list shows it collapsed and fs_grep finds nothing in it', async () => {
    const listed = await invoke('fs_list', { path: rel, depth: 3 });
    assert.match(listed.text, /^repo\.git\/ \(not listed\)$/m);
    assert.doesNotMatch(listed.text, /HEAD|objects|hooks/);
    const found = await invoke('fs_grep', { pattern: 'repositoryformatversion|bare', path: rel });
    assert.doesNotMatch(found.text, /repo\.git/);
  });
});
