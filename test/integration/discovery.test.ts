import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { closeAllEditors, invoke, wsUri } from './util';

/** Files under a folder whose path passes `keep`. */
function findFiles(dir: string, keep: (file: string) => boolean): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => (e.isDirectory() ? findFiles(path.join(dir, e.name), keep) : keep(path.join(dir, e.name)) ? [path.join(dir, e.name)] : []));
}

/** Sets `section.exclude` for the workspace and waits until the configuration reads it back. */
async function setExclude(section: 'files' | 'search', value: Record<string, boolean> | undefined): Promise<void> {
  const config = vscode.workspace.getConfiguration(section);
  await config.update('exclude', value, vscode.ConfigurationTarget.Workspace);
  const want = JSON.stringify(value ?? null);
  for (let i = 0; i < 100; i++) {
    const got = vscode.workspace.getConfiguration(section).inspect<Record<string, boolean>>('exclude')?.workspaceValue;
    if (JSON.stringify(got ?? null) === want) {
      return;
    }
    await new Promise<void>((resolve) => {
      const sub = vscode.workspace.onDidChangeConfiguration(() => {
        sub.dispose();
        resolve();
      });
      setTimeout(() => {
        sub.dispose();
        resolve();
      }, 50);
    });
  }
  throw new Error(`${section}.exclude did not take the value ${want}`);
}

describe('fs_list, fs_glob and fs_grep in the VS Code extension host', () => {
  afterEach(closeAllEditors);

  it('are contributed with their schemas', () => {
    for (const name of ['fs_list', 'fs_glob', 'fs_grep']) {
      const tool = vscode.lm.tools.find((t) => t.name === name);
      assert.ok(tool, `${name} is in vscode.lm.tools`);
    }
  });

  it('list a folder with .ignore rules collapsed', async () => {
    const { text } = await invoke('fs_list', { path: 'discovery', depth: 2 });
    assert.match(text, /^Folder discovery \(\/.*\/discovery\): \d+ entries, all shown\n/);
    assert.match(text, /\n\.ignore\nbuffer\.txt\nexcluded\/\n {2}b\.txt\nhidden-by-ignore-file\/ \(ignored\)\nkeep\/\n {2}a\.txt\nsearchonly\/\n {2}c\.txt\n/);
  });

  it('respect files.exclude (and search.exclude for fs_grep), and stop when the setting is removed', async () => {
    await setExclude('files', { '**/discovery/excluded': true });
    await setExclude('search', { '**/searchonly': true });
    try {
      const list = await invoke('fs_list', { path: 'discovery', depth: 2 });
      assert.match(list.text, /\nexcluded\/ \(ignored\)\n/);
      assert.ok(!list.text.includes('b.txt'));
      assert.match(list.text, /\nsearchonly\/\n {2}c\.txt\n/, 'search.exclude does not hide entries from a listing');

      const glob = await invoke('fs_glob', { pattern: '*.txt', path: 'discovery' });
      assert.ok(!glob.text.includes('discovery/excluded/b.txt'), glob.text);
      assert.equal(
        glob.text,
        '3 files match **/*.txt in discovery; all shown:\ndiscovery/buffer.txt\ndiscovery/keep/a.txt\ndiscovery/searchonly/c.txt\n' +
          'Left out by ignore rules: not searched: discovery/excluded/, discovery/hidden-by-ignore-file/. Add "respect_ignore": false to include them.',
      );

      const grep = await invoke('fs_grep', { pattern: 'discovery needle', path: 'discovery', output: 'files' });
      assert.match(grep.text, /\ndiscovery\/keep\/a\.txt\n/);
      assert.ok(!grep.text.includes('c.txt') && !grep.text.includes('b.txt'), grep.text);
      assert.match(grep.text, /\nLeft out by ignore rules: not searched: discovery\/excluded\/, discovery\/hidden-by-ignore-file\/, discovery\/searchonly\/\. /);
    } finally {
      await setExclude('files', undefined);
      await setExclude('search', undefined);
    }
    const after = await invoke('fs_grep', { pattern: 'discovery needle', path: 'discovery', output: 'files' });
    assert.match(after.text, /\ndiscovery\/excluded\/b\.txt\ndiscovery\/keep\/a\.txt\ndiscovery\/searchonly\/c\.txt\n/);
  });

  it('fs_grep finds text that exists only in an unsaved buffer, and not what the buffer removed', async () => {
    const uri = wsUri('discovery/buffer.txt');
    const onDisk = fs.readFileSync(uri.fsPath, 'utf8');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(0, 0, doc.lineCount, 0), 'first\nonly in the buffer: UNSAVED_7f3a needle\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(doc.isDirty);
    try {
      const found = await invoke('fs_grep', { pattern: 'UNSAVED_7f3a' });
      assert.match(found.text, /^1 matching line in 1 file for "UNSAVED_7f3a" in the workspace; all shown:\ndiscovery\/buffer\.txt\n {2}L2: only in the buffer: UNSAVED_7f3a needle/);
      const gone = await invoke('fs_grep', { pattern: 'another plain line', path: 'discovery' });
      assert.match(gone.text, /^No matching lines/, 'the text the buffer replaced is not found');
      assert.equal(fs.readFileSync(uri.fsPath, 'utf8'), onDisk, 'the file on disk is untouched');
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    assert.match((await invoke('fs_grep', { pattern: 'UNSAVED_7f3a' })).text, /^No matching lines/);
  });

  it('fs_grep runs the ripgrep bundled with the host', async () => {
    const exe = process.platform === 'win32' ? 'rg.exe' : 'rg';
    const app = vscode.env.appRoot;
    const bundled = [
      path.join(app, 'node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin', exe),
      path.join(app, 'node_modules', '@vscode', 'ripgrep', 'bin', exe),
      path.join(app, 'node_modules', '@vscode', 'ripgrep-universal', 'bin', `${process.platform}-${process.arch}`, exe),
    ].filter((p) => fs.existsSync(p));
    assert.ok(bundled.length > 0, `the host ships ripgrep under ${app}`);
    console.log(`[aft] bundled ripgrep: ${bundled[0]}`);
    const { text } = await invoke('fs_grep', { pattern: 'discovery needle alpha' });
    assert.match(text, /\ndiscovery\/keep\/a\.txt\n {2}L1: discovery needle alpha/);
    assert.ok(!/ripgrep/.test(text), 'which engine ran is for the log, not the model');
    // The extension's log (its Output channel, written under the run's user data) names the binary.
    const logs = path.join(path.dirname(process.env.AFT_WORKSPACE!), 'user-data', 'logs');
    const wanted = `Searching with ripgrep at ${bundled[0]} (bundled with the editor)`;
    let found = false;
    for (let i = 0; i < 100 && !found; i++) {
      found = findFiles(logs, (f) => f.endsWith('.log') && f.includes('agent-file-tools')).some((f) => fs.readFileSync(f, 'utf8').includes(wanted));
      if (!found) {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    assert.ok(found, `the log says: ${wanted}`);
  });

  it('fs_grep reports an invalid regex and fs_list a missing folder in words a model can act on', async () => {
    const bad = await invoke('fs_grep', { pattern: 'a(b' });
    assert.match(bad.text, /^Invalid pattern: regex parse error:[\s\S]*unclosed group[\s\S]*fixed_strings/);
    const missing = await invoke('fs_list', { path: 'discovry' });
    assert.match(missing.text, /^Folder not found: discovry\nDid you mean one of these\?\n- discovery/);
  });
});
