// Outlines and by-symbol edits in the real host: the symbols come from VS Code's built-in
// TypeScript extension (its language server), and a by-symbol edit goes through the review.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitFor } from './ui';
import { invoke, wsUri } from './util';

const SCHEME = 'agent-file-tools-proposal';

const PARSER = [
  'export class Parser {',
  '  private pos = 0;',
  '',
  '  /** One pass over the text. */',
  '  parse(text: string): number {',
  '    return text.length;',
  '  }',
  '',
  '  peek(): number {',
  '    return this.pos;',
  '  }',
  '}',
  '',
  'export function helper(n: number): number {',
  '  return n * 2;',
  '}',
  '',
].join('\n');

function seed(rel: string, text: string): string {
  const uri = wsUri(rel);
  fs.mkdirSync(uri.with({ path: uri.path.replace(/\/[^/]*$/, '') }).fsPath, { recursive: true });
  fs.writeFileSync(uri.fsPath, text);
  return uri.fsPath;
}

describe('outlines and edits by symbol in VS Code', function () {
  this.timeout(180_000);
  before(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllGroups');
  });

  it('has the built-in TypeScript extension, whose language server gives the outline', async () => {
    assert.ok(vscode.extensions.getExtension('vscode.typescript-language-features'), 'the host ships the TypeScript extension');
    seed('outline/parser.ts', PARSER);
    // The language server starts on the first TypeScript file: until it answers, the outline comes from tree-sitter.
    const started = Date.now();
    let text = '';
    const times: number[] = [];
    while (Date.now() - started < 120_000) {
      const t0 = Date.now();
      text = (await invoke('fs_read', { path: 'outline/parser.ts', mode: 'outline' })).text;
      times.push(Date.now() - t0);
      if (text.includes('from the language server')) {
        break;
      }
      assert.match(text, /from the syntax tree \(tree-sitter\)/, 'meanwhile the parser answers');
      await new Promise((r) => setTimeout(r, 1000));
    }
    console.log(`[aft] outline calls until the language server answered: ${times.join(', ')} ms`);
    assert.match(text, /<meta>symbols 1-\d+ of \d+, from the language server, 16 lines, utf-8, LF, version [0-9a-f]{8}<\/meta>/, text);
    assert.match(text, /^L1-12 class Parser$/m);
    assert.match(text, /^ {2}L5-7 method parse$/m);
    assert.match(text, /^ {2}L9-11 method peek$/m);
    assert.match(text, /^L14-16 function helper$/m);
    const t0 = Date.now();
    await invoke('fs_read', { path: 'outline/parser.ts', mode: 'outline' });
    console.log(`[aft] outline from the language server, warm: ${Date.now() - t0} ms`);
  });

  it('reads a symbol with its doc comment from the language server\'s range', async () => {
    const { text } = await invoke('fs_read', { path: 'outline/parser.ts', symbol: 'Parser.parse' });
    assert.match(text, /<meta>lines 4-7 of 16, method Parser\.parse \(documentation from line 4\), outline from language server, /);
    assert.match(text, /\nL4: {3}\/\*\* One pass over the text\. \*\/\nL5: {3}parse\(text: string\): number \{\n/);
    assert.match(text, /\nEnd of symbol\.$/);
  });

  it('replaces a symbol through the review: the diff shows the change, Accept lands it', async () => {
    const p = wsUri('outline/parser.ts').fsPath;
    const call = invoke('fs_edit', { path: 'outline/parser.ts', symbol: 'Parser.peek', new_string: '  peek(): number {\n    return this.pos + 1;\n  }\n' });
    const tab = await waitFor('the review of parser.ts', () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === SCHEME && t.label.startsWith('parser.ts ')),
    );
    const proposal = await vscode.workspace.openTextDocument((tab.input as vscode.TabInputTextDiff).modified);
    assert.equal(proposal.getText(), PARSER.replace('return this.pos;', 'return this.pos + 1;'));
    assert.equal(fs.readFileSync(p, 'utf8'), PARSER, 'nothing lands before the answer');
    assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
    const { text } = await call;
    assert.match(text, /^Edited outline\/parser\.ts: \+1 -1 lines; version [0-9a-f]{8}\.\nReplaced method Parser\.peek \(lines 9-11, outline from language server\)\.\n<diff>\n/);
    assert.equal(fs.readFileSync(p, 'utf8'), PARSER.replace('return this.pos;', 'return this.pos + 1;'));
  });
  it('parses off the extension host\'s thread: the host keeps running during a long parse, and a cancelled call ends at once', async () => {
    // Python: no language server in this host, so tree-sitter parses it
    const big = Array.from({ length: 15000 }, (_, i) => `def f${i}(a):\n    return a + ${i}\n`).join('\n');
    seed('outline/big/many.py', big);
    let widest = 0;
    let at = Date.now();
    const beat = setInterval(() => {
      widest = Math.max(widest, Date.now() - at);
      at = Date.now();
    }, 10);
    const t0 = Date.now();
    const { text } = await invoke('fs_read', { path: 'outline/big/many.py', mode: 'outline' });
    const took = Date.now() - t0;
    clearInterval(beat);
    console.log(`[aft] outline of 15000 Python functions (${big.length} bytes) in the host: ${took} ms, the host's longest pause ${widest} ms`);
    assert.match(text, /from the syntax tree \(tree-sitter\)/, text);
    assert.ok(widest < Math.max(took / 2, 250), `the host paused ${widest} ms during a ${took} ms outline`);
    const source = new vscode.CancellationTokenSource();
    seed('outline/big/many2.py', big.replace(/return a/g, 'return a * 2'));
    const call = invoke('fs_read', { path: 'outline/big/many2.py', mode: 'outline' }, source.token).then(
      () => 'answered',
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    await new Promise((r) => setTimeout(r, 300));
    const cancelled = Date.now();
    source.cancel();
    const outcome = await call;
    const after = Date.now() - cancelled;
    console.log(`[aft] a cancelled outline ended ${after} ms after the cancellation: ${outcome.slice(0, 80)}`);
    assert.ok(after < 1000, `ended ${after} ms after the cancellation`);
  });

  it('answers the outline of big real files in about 2 KiB, and prints the figures', async () => {
    const modules = path.resolve(__dirname, '../../../node_modules');
    const files = ['typescript/lib/_tsc.js', 'pdfjs-dist/legacy/build/pdf.worker.mjs', 'typescript/lib/lib.dom.d.ts'].filter((f) => fs.existsSync(path.join(modules, f)));
    assert.ok(files.length > 0, `big files in ${modules}`);
    for (const f of files) {
      const rel = `outline/big/${path.basename(f)}`;
      seed(rel, fs.readFileSync(path.join(modules, f), 'utf8'));
      const t0 = Date.now();
      const { text } = await invoke('fs_read', { path: rel, mode: 'outline' });
      const ms = Date.now() - t0;
      const bytes = Buffer.byteLength(text, 'utf8');
      const meta = /<meta>(.*)<\/meta>/.exec(text)?.[1] ?? text;
      console.log(`[aft] outline of ${f} (${fs.statSync(wsUri(rel).fsPath).size} bytes): first answer ${bytes} bytes in ${ms} ms; ${meta}`);
      assert.ok(bytes <= 2048, `${bytes} bytes:\n${text}`);
      assert.match(text, /\nContinue with: fs_read \{"path":"outline\/big\/[^"]+","mode":"outline",/);
    }
    await vscode.commands.executeCommand('workbench.action.closeAllGroups');
  });
});
