import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { closeAllEditors, EXTENSION_ID, invoke, wsUri } from './util';

describe('fs_read in the VS Code extension host', () => {
  before(async () => {
    console.log(`[aft] vscode.version=${vscode.version} appName=${vscode.env.appName} uiKind=${vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop'} node=${process.version}`);
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is loaded`);
  });
  afterEach(closeAllEditors);

  it('runs in VS Code 1.139', () => {
    assert.match(vscode.version, /^1\.139\./);
  });

  it('is contributed to vscode.lm.tools with its schema, without activating first', () => {
    const tool = vscode.lm.tools.find((t) => t.name === 'fs_read');
    assert.ok(tool, 'fs_read is in vscode.lm.tools');
    const schema = tool.inputSchema as { required?: string[]; additionalProperties?: boolean; properties: Record<string, { description: string }> };
    // Agent mode checks input against this schema before the tool runs: it must let aliases and unknown fields through for the tool to answer.
    assert.equal(schema.required, undefined);
    assert.equal(schema.additionalProperties, undefined);
    assert.match(schema.properties.path.description, /^Required\. /);
  });

  it('gets fields the schema does not declare: vscode.lm.invokeTool does not check input against it', async () => {
    const alias = await invoke('fs_read', { file_path: 'hello.txt', start_line: 2, end_line: 2 });
    assert.match(alias.text, /^<path>hello\.txt<\/path>\n<type>file<\/type>\n<meta>line 2 of 2, [^\n]*\n<content>\nL2: second line\n<\/content>\nEnd of file\.$/);
    const camel = await invoke('fs_read', { filePath: 'hello.txt', limit: 1 });
    assert.match(camel.text, /\nContinue with: fs_read \{"path":"hello\.txt","offset":2,"limit":1\}$/);
    const unknown = await invoke('fs_read', { path: 'hello.txt', ofset: 2 });
    assert.match(unknown.text, /^Invalid input for fs_read:\n- unknown field `ofset`: did you mean `offset`\?/);
    const missing = await invoke('fs_read', {});
    assert.match(missing.text, /^Invalid input for fs_read:\n- `path` is required/);
  });

  it('reads a workspace file through vscode.lm.invokeTool', async () => {
    const { text } = await invoke('fs_read', { path: 'hello.txt' });
    assert.match(text, /^<path>hello\.txt<\/path>\n<type>file<\/type>\n<meta>lines 1-2 of 2, utf-8, LF, version [0-9a-f]{8}<\/meta>\n<content>\nL1: hello world\nL2: second line\n<\/content>\nEnd of file\.$/);
  });

  it('pages by agentFileTools.read.maxLines when the person lowers it, and says so', async () => {
    const uri = wsUri('notes/paged-by-setting.txt');
    fs.writeFileSync(uri.fsPath, Array.from({ length: 50 }, (_, i) => `row ${i + 1}`).join('\n') + '\n');
    const config = vscode.workspace.getConfiguration('agentFileTools');
    assert.match((await invoke('fs_read', { path: 'notes/paged-by-setting.txt' })).text, /<meta>lines 1-50 of 50, /, 'the settings as they were, read before the change');
    await config.update('read.maxLines', 10, vscode.ConfigurationTarget.Workspace);
    try {
      const { text } = await invoke('fs_read', { path: 'notes/paged-by-setting.txt' });
      assert.match(text, /<meta>lines 1-10 of 50, /);
      assert.match(text, /\nL10: row 10\n<\/content>\nPages here hold at most 10 lines \(the agentFileTools\.read\.maxLines setting\)\.\nContinue with: fs_read \{"path":"notes\/paged-by-setting\.txt","offset":11\}$/);
      await config.update('read.maxLines', undefined, vscode.ConfigurationTarget.Workspace);
      const back = await invoke('fs_read', { path: 'notes/paged-by-setting.txt' });
      assert.match(back.text, /<meta>lines 1-50 of 50, [^\n]*\n[\s\S]*\nL50: row 50\n<\/content>\nEnd of file\.$/, 'the next call reads the setting afresh');
    } finally {
      await config.update('read.maxLines', undefined, vscode.ConfigurationTarget.Workspace);
      fs.rmSync(uri.fsPath, { force: true });
    }
  });

  it('reads a CRLF file with real line numbers and says CRLF', async () => {
    const { text } = await invoke('fs_read', { path: 'crlf.txt', offset: 2, limit: 1 });
    assert.match(text, /, CRLF, /);
    assert.match(text, /\nL2: beta\n/);
    assert.match(text, /\nContinue with: fs_read \{"path":"crlf\.txt","offset":3,"limit":1\}$/);
  });

  it('returns the unsaved editor buffer and flags it, leaving the file on disk alone', async () => {
    const uri = wsUri('notes/buffer.txt');
    const onDisk = fs.readFileSync(uri.fsPath, 'utf8');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(0, 0, doc.lineCount, 0), 'buffer test: UNSAVED text\nadded line\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(doc.isDirty);
    try {
      const { text } = await invoke('fs_read', { path: 'notes/buffer.txt' });
      assert.match(text, /\nL1: buffer test: UNSAVED text\nL2: added line\n/);
      assert.match(text, /, unsaved changes in editor<\/meta>/);
      assert.equal(fs.readFileSync(uri.fsPath, 'utf8'), onDisk, 'the file on disk is untouched');
      assert.ok(doc.isDirty, 'the buffer was not saved');
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    assert.equal(doc.getText(), onDisk);
  });

  it('reads a clean open document as the same text as the file, without the flag', async () => {
    const doc = await vscode.workspace.openTextDocument(wsUri('src/app.ts'));
    await vscode.window.showTextDocument(doc);
    const { text } = await invoke('fs_read', { path: 'src/app.ts', limit: 2 });
    assert.match(text, /\nL1: export function greet\(name: string\): string \{\n/);
    assert.ok(!text.includes('unsaved changes'));
  });

  it('answers errors as text the model can act on', async () => {
    const past = await invoke('fs_read', { path: 'hello.txt', offset: 10 });
    assert.equal(past.text, 'offset=10 is past the end of hello.txt: the file has 2 lines. Use an offset from 1 to 2.');
    const missing = await invoke('fs_read', { path: 'helo.txt' });
    assert.match(missing.text, /^File not found: helo\.txt\nDid you mean one of these\?\n- hello\.txt/);
    const invalid = await invoke('fs_read', { path: 'hello.txt', offset: 'one' });
    assert.match(invalid.text, /^Invalid input for fs_read:\n- `offset`: expected a whole number/);
  });

  it('attaches an image as a LanguageModelDataPart.image with a text part describing it', async () => {
    const { text, result } = await invoke('fs_read', { path: 'media/logo.png' });
    assert.equal(text, '<path>media/logo.png</path>\n<type>image</type>\n<meta>PNG (image/png), 128x128 pixels, 575 bytes</meta>\nThe image is attached.');
    const data = result.content.find((p): p is vscode.LanguageModelDataPart => p instanceof vscode.LanguageModelDataPart);
    assert.ok(data, 'a data part');
    assert.equal(data.mimeType, 'image/png');
    assert.equal(data.data.byteLength, 575);
    assert.equal(Buffer.from(data.data.subarray(0, 4)).toString('hex'), '89504e47');
  });

  it('fits the page to tokenizationOptions.tokenBudget, measured with its countTokens', async () => {
    let counts = 0;
    const result = await vscode.lm.invokeTool(
      'fs_read',
      {
        input: { path: 'notes/long.txt' },
        toolInvocationToken: undefined,
        tokenizationOptions: {
          tokenBudget: 300,
          countTokens: async (t: string) => {
            counts++;
            return Math.ceil(t.length / 4);
          },
        },
      },
      new vscode.CancellationTokenSource().token,
    );
    const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    assert.ok(counts > 1, 'countTokens was called');
    assert.ok(Math.ceil(text.length / 4) <= 300, `${text.length} characters fit the budget`);
    const shown = text.split('\n').filter((l) => /^L\d+: /.test(l)).length;
    assert.ok(shown >= 5 && shown < 400, `${shown} lines`);
    assert.match(text, new RegExp(`\\nContinue with: fs_read \\{"path":"notes/long\\.txt","offset":${shown + 1}\\}$`));
  });

  it('reads the block around a line in indentation mode', async () => {
    const { text } = await invoke('fs_read', { path: 'src/app.ts', mode: 'indentation', indentation: { anchor_line: 6 } });
    assert.match(text, /\nL5: export function farewell\(name: string\): string \{\nL6: {3}return `goodbye \$\{name\}`;\nL7: \}\n/);
    assert.ok(!text.includes('L1: '));
    assert.match(text, /<meta>lines 5-7 of \d+, the block around line 6, /);
    assert.match(text, /\nEnd of block\.$/);
  });

  it('reads a notebook as cells, from the open notebook editor with its unsaved edit', async () => {
    const plain = await invoke('fs_read', { path: 'notebooks/analysis.ipynb' });
    assert.match(plain.text, /<type>notebook<\/type>/);
    assert.match(plain.text, /<cell index="2" kind="code" language="python"[^>]*>\nL1: rows = \[1, 2, 3\]\nL2: print\(len\(rows\)\)\n<outputs>\n[^<]*3\n/);
    const nb = await vscode.workspace.openNotebookDocument(wsUri('notebooks/analysis.ipynb'));
    await vscode.window.showNotebookDocument(nb);
    const cell = nb.cellAt(1);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(cell.document.uri, new vscode.Range(0, 0, 0, cell.document.lineAt(0).text.length), 'rows = [1, 2, 3, 4]');
    assert.ok(await vscode.workspace.applyEdit(edit));
    try {
      const { text } = await invoke('fs_read', { path: 'notebooks/analysis.ipynb' });
      assert.match(text, /L1: rows = \[1, 2, 3, 4\]/);
      assert.match(text, /unsaved changes/);
      assert.ok(!text.includes('"cell_type"'));
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });

  it('lists a folder in the directory envelope', async () => {
    const { text } = await invoke('fs_read', { path: 'src' });
    assert.equal(text, '<path>src</path>\n<type>directory</type>\n<meta>entry 1 of 1</meta>\n<entries>\napp.ts\n</entries>\nEnd of folder.');
  });

  it('accepts absolute paths and reports workspace-relative ones', async () => {
    const { text } = await invoke('fs_read', { path: wsUri('src/app.ts').fsPath, limit: 1 });
    assert.match(text, /^<path>src\/app\.ts<\/path>/);
  });
});
