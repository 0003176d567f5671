// Outlines and by-symbol edits in the real host: the symbols come from VS Code's built-in
// TypeScript extension (its language server), and a by-symbol edit goes through the review.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
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
});
