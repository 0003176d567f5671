// Test module for the packaged extension: loaded by a probe extension's host, checks that
// the installed .vsix is the one that provides the tools.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

const ID = 'agent-file-tools.agent-file-tools';

async function check(name: string, fn: () => Promise<void> | void, results: { title: string; state: string; err?: string }[]) {
  try {
    await fn();
    results.push({ title: name, state: 'passed' });
    console.log(`  ✔ ${name}`);
  } catch (e) {
    results.push({ title: name, state: 'failed', err: String((e as Error)?.stack ?? e) });
    console.log(`  1) ${name}: ${(e as Error)?.message}`);
  }
}

export async function run(): Promise<void> {
  const results: { title: string; state: string; err?: string }[] = [];
  await check('the vsix is installed in the extensions folder, not loaded from the source tree', () => {
    const ext = vscode.extensions.getExtension(ID);
    assert.ok(ext, `${ID} installed`);
    const dir = process.env.AFT_EXTENSIONS_DIR!;
    assert.ok(ext.extensionUri.fsPath.startsWith(dir), `${ext.extensionUri.fsPath} is under ${dir}`);
    assert.ok(fs.existsSync(path.join(ext.extensionUri.fsPath, 'dist/extension.js')));
    assert.ok(!fs.existsSync(path.join(ext.extensionUri.fsPath, 'src')), 'no sources in the installed extension');
  }, results);
  await check('its tools appear in vscode.lm.tools', () => {
    const names = vscode.lm.tools.map((t) => t.name);
    assert.ok(names.includes('fs_read'), `fs_read in ${names.join(', ')}`);
  }, results);
  await check('fs_read answers through vscode.lm.invokeTool', async () => {
    const r = await vscode.lm.invokeTool('fs_read', { input: { path: 'hello.txt' }, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
    const text = r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    assert.match(text, /\nL1: hello world\n/);
  }, results);
  await check('the PDF reader, bundled apart, loads from the installed extension', async () => {
    const r = await vscode.lm.invokeTool('fs_read', { input: { path: 'docs/guide.pdf' }, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
    const text = r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    assert.match(text, /=== Page 2 ===\n> Guide page two/);
  }, results);
  const failures = results.filter((r) => r.state === 'failed').length;
  fs.writeFileSync(process.env.AFT_RESULTS_FILE!, JSON.stringify({ passes: results.length - failures, failures, pending: 0, results }, null, 2));
  if (failures) {
    throw new Error(`${failures} vsix check(s) failed`);
  }
}
