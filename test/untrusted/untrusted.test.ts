import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { buildHostileTree, OUTSIDE, SECRET, splitIndex, type HostileTree } from '../integration/hostileTree';
import { invoke } from '../integration/util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

describe('the tools in an untrusted workspace (Restricted Mode)', () => {
  let h: HostileTree;
  let workspace: string;
  before(() => {
    workspace = vscode.workspace.workspaceFolders![0].uri.fsPath;
    h = buildHostileTree(workspace);
  });
  after(() => h.remove());

  it('runs with the workspace untrusted', () => {
    assert.equal(vscode.workspace.isTrusted, false);
    assert.ok(vscode.lm.tools.some((t) => t.name === 'fs_read'), 'the read tools are there in Restricted Mode');
  });

  it('reads, and appends only the instruction files the path policy allows', async () => {
    const { text } = await invoke('fs_read', { path: `${h.rel}/pkg/main.ts` });
    assert.match(text, /\nL1: export const x = 1;\n/);
    assert.match(text, /<instructions path="hostile\/AGENTS\.md">\nUse tabs in this package\.\n<\/instructions>/);
    assert.match(text, /^\(Skipped hostile\/pkg\/AGENTS\.md: it resolves outside the workspace\.\)$/m);
    assert.ok(!text.includes(OUTSIDE) && !text.includes(SECRET), text);
  });

  it('lists what git tracks from the index, and never runs the repository\'s core.fsmonitor', async () => {
    const { text } = await invoke('fs_list', { path: `${h.rel}/repo`, source: 'git' });
    assert.match(text, /^src\/$/m);
    assert.ok(!fs.existsSync(h.marker), 'the fsmonitor command ran');
  });

  it('does not run git at all for an index only git can read, and says why', async () => {
    splitIndex(workspace, h);
    const { text } = await invoke('fs_list', { path: `${h.rel}/repo`, source: 'git' });
    assert.match(text, /uses a split index, which fs_list reads only by running git, and git is not run in an untrusted workspace/);
    assert.ok(!fs.existsSync(h.marker), 'the fsmonitor command ran');
  });

  it('searches and globs as in a trusted workspace', async () => {
    const grep = await invoke('fs_grep', { pattern: 'export', path: h.rel });
    assert.match(grep.text, /^hostile\/pkg\/main\.ts\n {2}L1: export const x = 1;$/m);
    const glob = await invoke('fs_glob', { pattern: '*.ts', path: h.rel });
    assert.match(glob.text, /^hostile\/pkg\/main\.ts$/m);
  });

  it('refuses every change, says how to trust the folder, and writes nothing', async () => {
    const file = `${h.rel}/pkg/main.ts`;
    const before = fs.readFileSync(`${workspace}/${file}`, 'utf8');
    const calls: [string, object][] = [
      ['fs_edit', { path: file, old_string: 'export const x = 1;', new_string: 'export const x = 2;' }],
      ['fs_write', { path: file, content: 'replaced\n' }],
      ['fs_write', { path: `${h.rel}/new.txt`, content: 'new\n' }],
      ['fs_apply_patch', { patch: `*** Begin Patch\n*** Add File: ${h.rel}/patched.txt\n+x\n*** End Patch` }],
    ];
    for (const [tool, input] of calls) {
      const { text } = await invoke(tool, input);
      assert.match(text, new RegExp(`^${tool} changes files, and this workspace is not trusted, so it refuses\\..*Manage Workspace Trust`, 's'), tool);
    }
    assert.equal(fs.readFileSync(`${workspace}/${file}`, 'utf8'), before);
    assert.equal(fs.existsSync(`${workspace}/${h.rel}/new.txt`), false);
    assert.equal(fs.existsSync(`${workspace}/${h.rel}/patched.txt`), false);
  });

  it('an MCP client gets the same: the server starts by the command, reads answer, every change is refused and nothing is written', async () => {
    const url = await vscode.commands.executeCommand<string>('agentFileTools.mcp.start');
    assert.match(url ?? '', /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const info = await vscode.commands.executeCommand<{ file: string }>('agentFileTools.mcp.info');
    const { token } = JSON.parse(fs.readFileSync(info!.file, 'utf8')) as { token: string };
    const client = new Client({ name: 'untrusted-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url!), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    try {
      const text = (r: unknown) => (r as { content: { text: string }[] }).content[0].text;
      assert.match(text(await client.callTool({ name: 'fs_read', arguments: { path: `${h.rel}/pkg/main.ts` } })), /\nL1: export const x = 1;\n/);
      const w = await client.callTool({ name: 'fs_write', arguments: { path: `${h.rel}/mcp.txt`, content: 'x\n' } });
      assert.equal(w.isError, true);
      assert.match(text(w), /^fs_write changes files, and this workspace is not trusted, so it refuses\./);
      assert.equal(fs.existsSync(`${workspace}/${h.rel}/mcp.txt`), false);
    } finally {
      await client.close();
      await vscode.commands.executeCommand('agentFileTools.mcp.stop');
    }
  });
});
