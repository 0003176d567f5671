import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { pickConnection, readConnectionFiles } from '../../src/host/connectionFile';
import { closeAllEditors, invoke, wsUri } from '../integration/util';
import { ui, waitFor } from '../integration/ui';
import { clientPath, codexConfig, inspector, repo, request, responsesStandIn, rpc, run, toolOutputs, windowServer, type ServerInfo } from './clients';

const SCHEME = 'agent-file-tools-proposal';
const TOOLS = ['fs_read', 'fs_list', 'fs_glob', 'fs_grep', 'fs_edit', 'fs_write', 'fs_apply_patch'];

function reviewTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => (t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === SCHEME) || t.label.includes('proposed by'));
}

/** Resolves with the time (performance.now()) a review tab whose label starts with `name` showed. */
function reviewShows(name: string): Promise<number> {
  const has = () => reviewTabs().some((t) => t.label.startsWith(name));
  if (has()) {
    return Promise.resolve(performance.now());
  }
  return new Promise((resolve) => {
    const sub = vscode.window.tabGroups.onDidChangeTabs(() => {
      if (has()) {
        sub.dispose();
        resolve(performance.now());
      }
    });
  });
}

function seed(rel: string, text: string): string {
  const p = wsUri(rel).fsPath;
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
  return p;
}

async function sdkClient(s: ServerInfo, name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } }));
  return client;
}

const textOf = (r: unknown) => ((r as { content: { type: string; text?: string }[] }).content.find((c) => c.type === 'text')?.text ?? '');

async function statusText(): Promise<string> {
  // the workbench draws the item a moment after the extension sets it
  const r = await ui([{ waitFor: '.statusbar-item:has-text("MCP")', timeout: 15000 }, { eval: `[...document.querySelectorAll('.statusbar-item')].map((e) => e.textContent).filter((t) => /MCP/.test(t ?? '')).join('|')` }]);
  assert.ok(r.ok, r.error);
  return String(r.evals?.[0] ?? '');
}

describe('MCP: the window\'s server', function () {
  this.timeout(120_000);
  let s: ServerInfo;
  before(async () => {
    const ext = vscode.extensions.getExtension('agent-file-tools.agent-file-tools')!;
    await ext.activate();
    s = await waitFor<ServerInfo>('the server started by the setting', async () => ((await vscode.commands.executeCommand('agentFileTools.mcp.info')) ? windowServer() : undefined));
  });
  afterEach(closeAllEditors);

  it('runs on 127.0.0.1 at a port chosen at start, its connection file 0600 in a 0700 folder, naming this window\'s folder', async () => {
    assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.match(s.token, /^[0-9a-f]{64}$/);
    assert.equal(path.dirname(s.file), path.join(process.env.HOME!, '.agent-file-tools', 'mcp'));
    assert.equal(fs.statSync(s.file).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.dirname(s.file)).mode & 0o777, 0o700);
    assert.deepEqual(s.workspaceFolders, [vscode.workspace.workspaceFolders![0].uri.fsPath]);
    // the status bar shows it
    assert.match(await statusText(), /MCP 0/);
  });

  it('a terminal of the window gets the URL, the token and the file in its environment', async () => {
    const out = wsUri('mcp-env.txt').fsPath;
    const t = vscode.window.createTerminal({ name: 'env', shellPath: '/bin/sh', shellArgs: ['-c', `printf '%s\\n%s\\n%s\\n' "$AGENT_FILE_TOOLS_MCP_URL" "$AGENT_FILE_TOOLS_MCP_TOKEN" "$AGENT_FILE_TOOLS_MCP_FILE" > '${out}'`] });
    try {
      const text = await waitFor('the terminal wrote its environment', () => (fs.existsSync(out) && fs.readFileSync(out, 'utf8').split('\n').length >= 4 ? fs.readFileSync(out, 'utf8') : undefined));
      assert.equal(text, `${s.url}\n${s.token}\n${s.file}\n`);
    } finally {
      t.dispose();
      fs.rmSync(out, { force: true });
    }
  });

  it('refuses a request without the token, with a wrong one, with an Origin or a rebound Host (401/403), and does nothing', async () => {
    const host = new URL(s.url).host;
    const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = rpc(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    const cases: [string, Record<string, string>, number][] = [
      ['no token', { ...base, host }, 401],
      ['a wrong token', { ...base, host, authorization: `Bearer ${'0'.repeat(64)}` }, 401],
      ['a web page', { ...base, host, authorization: `Bearer ${s.token}`, origin: 'http://localhost:3000' }, 403],
      ['a rebound Host', { ...base, host: `attacker.example:${new URL(s.url).port}`, authorization: `Bearer ${s.token}` }, 403],
    ];
    for (const [what, headers, status] of cases) {
      assert.equal((await request(s.url, { headers, body: init })).status, status, what);
      // a call without a session is refused the same way before anything is read
      assert.equal((await request(s.url, { headers, body: rpc(2, 'tools/call', { name: 'fs_write', arguments: { path: 'mcp/refused.txt', content: 'x' } }) })).status, status, `${what}: a call`);
    }
    assert.equal(fs.existsSync(wsUri('mcp/refused.txt').fsPath), false);
    assert.deepEqual(reviewTabs(), []);
  });

  it('the MCP Inspector\'s CLI lists the seven tools and calls each: reads answer, changes wait for Accept in the review', async () => {
    const list = (await inspector(s, ['--method', 'tools/list'])) as { tools: { name: string; description: string }[] };
    assert.deepEqual(list.tools.map((t) => t.name), TOOLS);
    seed('mcp/inspect/a.txt', 'alpha\nbeta\n');
    const call = (tool: string, args: Record<string, string>) => inspector(s, ['--method', 'tools/call', '--tool-name', tool, ...Object.entries(args).flatMap(([k, v]) => ['--tool-arg', `${k}=${v}`])]);
    assert.match(textOf(await call('fs_read', { path: 'mcp/inspect/a.txt' })), /^L1: alpha\nL2: beta$/m);
    assert.match(textOf(await call('fs_list', { path: 'mcp/inspect' })), /^a\.txt$/m);
    assert.match(textOf(await call('fs_glob', { pattern: 'mcp/inspect/*.txt' })), /^mcp\/inspect\/a\.txt$/m);
    assert.match(textOf(await call('fs_grep', { pattern: 'beta', path: 'mcp/inspect' })), /^mcp\/inspect\/a\.txt\n {2}L2: beta$/m);
    const reviewed = async (name: string, pending: Promise<unknown>) => {
      await reviewShows(name);
      assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
      return textOf(await pending);
    };
    assert.match(await reviewed('a.txt', call('fs_edit', { path: 'mcp/inspect/a.txt', old_string: 'beta', new_string: 'BETA' })), /^Edited mcp\/inspect\/a\.txt: \+1 -1 lines/);
    assert.match(await reviewed('b.txt', call('fs_write', { path: 'mcp/inspect/b.txt', content: 'new\n' })), /^Created mcp\/inspect\/b\.txt/);
    const patch = '*** Begin Patch\n*** Update File: mcp/inspect/a.txt\n-alpha\n+ALPHA\n BETA\n*** Add File: mcp/inspect/c.txt\n+c\n*** End Patch';
    assert.match(await reviewed('', call('fs_apply_patch', { patch })), /mcp\/inspect\/a\.txt[^]*mcp\/inspect\/c\.txt/);
    assert.equal(fs.readFileSync(wsUri('mcp/inspect/a.txt').fsPath, 'utf8'), 'ALPHA\nBETA\n');
    assert.equal(fs.readFileSync(wsUri('mcp/inspect/c.txt').fsPath, 'utf8'), 'c\n');
  });
});

describe('MCP: the same review, history and questions as a chat\'s', function () {
  this.timeout(120_000);
  let s: ServerInfo;
  let client: Client;
  before(async () => {
    s = await waitFor<ServerInfo>('the server', async () => ((await vscode.commands.executeCommand('agentFileTools.mcp.info')) ? windowServer() : undefined));
    client = await sdkClient(s, 'Test Agent');
  });
  after(() => client?.close());
  afterEach(closeAllEditors);

  it('baseline of the same run: a call through vscode.lm.invokeTool (as Copilot calls) to its review showing', async () => {
    seed('mcp/review/base.txt', 'one\ntwo\n');
    const doc = await vscode.workspace.openTextDocument(wsUri('mcp/review/base.txt'));
    await vscode.window.showTextDocument(doc);
    await invoke('fs_read', { path: 'mcp/review/base.txt' });
    const shown = reviewShows('base.txt');
    const t0 = performance.now();
    const call = invoke('fs_edit', { path: 'mcp/review/base.txt', old_string: 'two', new_string: 'TWO' });
    console.log(`[aft] vscode.lm.invokeTool call to review shown: ${((await shown) - t0).toFixed(0)} ms (the baseline: fs_edit of a file open in the editor)`);
    assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
    assert.match((await call).text, /^Edited mcp\/review\/base\.txt/);
  });

  it('a change opens the review and waits for Accept, lands as an undoable edit, and is listed under the client\'s name', async () => {
    const p = seed('mcp/review/undo.txt', 'one\ntwo\n');
    const doc = await vscode.workspace.openTextDocument(wsUri('mcp/review/undo.txt'));
    await vscode.window.showTextDocument(doc);
    await client.callTool({ name: 'fs_read', arguments: { path: 'mcp/review/undo.txt' } });
    // the status bar counts the client
    assert.match(await statusText(), /MCP [1-9]/);
    const shown = reviewShows('undo.txt');
    const t0 = performance.now();
    const call = client.callTool({ name: 'fs_edit', arguments: { path: 'mcp/review/undo.txt', old_string: 'two', new_string: 'TWO' } });
    const ms = (await shown) - t0;
    console.log(`[aft] MCP call to review shown: ${ms.toFixed(0)} ms (SDK client, fs_edit of a file open in the editor)`);
    assert.equal(fs.readFileSync(p, 'utf8'), 'one\ntwo\n', 'nothing lands before the answer');
    assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
    const r = await call;
    assert.equal(r.isError, undefined);
    assert.match(textOf(r), /^Edited mcp\/review\/undo\.txt: \+1 -1 lines; version [0-9a-f]{8}\.\n<diff>\n[^]*-two\n\+TWO\n/);
    assert.equal(fs.readFileSync(p, 'utf8'), 'one\nTWO\n');
    const entries = await vscode.commands.executeCommand<{ tool: string; origin: string; client?: string; files: { display: string }[] }[]>('agentFileTools.historyEntries');
    assert.deepEqual({ tool: entries[0].tool, origin: entries[0].origin, client: entries[0].client, file: entries[0].files[0].display }, { tool: 'fs_edit', origin: 'mcp', client: 'Test Agent', file: 'mcp/review/undo.txt' });
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    assert.equal(doc.getText(), 'one\ntwo\n');
  });

  it('reports the person\'s own edits to the proposal and the new errors, as to a chat', async () => {
    seed('mcp/review/data.json', '{\n  "a": 1\n}\n');
    // JSON's server checks the documents shown in editors
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(wsUri('mcp/review/data.json')));
    await client.callTool({ name: 'fs_read', arguments: { path: 'mcp/review/data.json' } });
    const shown = reviewShows('data.json');
    const call = client.callTool({ name: 'fs_edit', arguments: { path: 'mcp/review/data.json', old_string: '"a": 1', new_string: '"a": 2' } });
    await shown;
    const tab = reviewTabs().find((t) => t.label.startsWith('data.json'))!;
    const proposal = await vscode.workspace.openTextDocument((tab.input as vscode.TabInputTextDiff).modified);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(proposal.uri, new vscode.Range(0, 0, proposal.lineCount, 0), '{\n  "a": 3,,\n}\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
    const text = textOf(await call);
    assert.match(text, /The user edited your proposal before accepting it; what landed differs from what you proposed by:\n<user-edits>\n[^]*\+ {2}"a": 3,,\n[^]*<\/user-edits>/);
    assert.match(text, /New errors in mcp\/review\/data\.json:\nL2:\d+: Property expected/);
  });

  it('a client that goes away ends its waiting review as cancelled, and nothing is written', async () => {
    const p = seed('mcp/review/gone.txt', 'keep\n');
    const host = new URL(s.url).host;
    const headers = { host, authorization: `Bearer ${s.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await request(s.url, { headers, body: rpc(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'Vanishing Agent', version: '1' } }) });
    const session = init.headers['mcp-session-id'] as string;
    await request(s.url, { headers: { ...headers, 'mcp-session-id': session }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    await request(s.url, { headers: { ...headers, 'mcp-session-id': session }, body: rpc(2, 'tools/call', { name: 'fs_read', arguments: { path: 'mcp/review/gone.txt' } }) });
    const u = new URL(s.url);
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { ...headers, 'mcp-session-id': session }, setHost: false });
    req.on('error', () => {});
    req.end(rpc(3, 'tools/call', { name: 'fs_write', arguments: { path: 'mcp/review/gone.txt', content: 'replaced\n' } }));
    await reviewShows('gone.txt');
    req.destroy();
    await waitFor('the review withdrawn', () => (reviewTabs().length === 0 ? true : undefined));
    assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), false, 'nothing is left to accept');
    assert.equal(fs.readFileSync(p, 'utf8'), 'keep\n');
    assert.equal((await vscode.workspace.openTextDocument(wsUri('mcp/review/gone.txt'))).getText(), 'keep\n');
  });

  it('a read that asks (a secret) asks in a modal dialog naming the client, and reads nothing unanswered', async () => {
    // A window run for tests refuses to show a modal dialog that waits for a button (VS Code's
    // test-mode DialogService throws, quoting the dialog's contents): the call asks, names the
    // client, and with no yes reads nothing.
    const r = await client.callTool({ name: 'fs_read', arguments: { path: '.env' } });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /refused to show dialog in tests\. Contents: Test Agent \(an MCP client\) asks: Allow Agent File Tools to read a sensitive file\?/);
    assert.doesNotMatch(textOf(r), /not-a-real-secret/);
  });

  it('several windows: each server\'s file names its folders, and a client picks the one holding its folder', async () => {
    const other = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'other-'));
    const cli = path.join(repo, 'dist/cli.js');
    const { spawn } = await import('node:child_process');
    const proc = spawn(process.execPath, [cli, 'mcp', '--http', '--root', other], { stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      const line = await new Promise<string>((resolve) => {
        let err = '';
        proc.stderr!.on('data', (d: Buffer) => {
          err += d.toString('utf8');
          if (err.includes('\n')) {
            resolve(err.split('\n')[0]);
          }
        });
      });
      const otherFile = /connection file (.+\.json)$/.exec(line)![1];
      const files = readConnectionFiles(path.dirname(s.file));
      assert.deepEqual(files.map((f) => f.file).sort(), [s.file, otherFile].sort());
      assert.equal(pickConnection(files, path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'src'))?.file, s.file);
      assert.equal(pickConnection(files, path.join(fs.realpathSync(other), 'deep'))?.file, otherFile);
    } finally {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('MCP: Codex CLI, a real agent, driven by a scripted model', function () {
  this.timeout(180_000);
  afterEach(closeAllEditors);

  it('reads an unsaved buffer through the server, makes an edit that opens the review, and gets the result after Accept', async () => {
    const s = await windowServer();
    const p = seed('mcp/codex/notes.txt', 'saved line\n');
    const uri = wsUri('mcp/codex/notes.txt');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const unsaved = new vscode.WorkspaceEdit();
    unsaved.insert(uri, new vscode.Position(1, 0), 'unsaved line\n');
    assert.ok(await vscode.workspace.applyEdit(unsaved));
    assert.ok(doc.isDirty);

    // the scripted model: read, then edit what it read, then say what it got
    const standIn = await responsesStandIn(({ body, n }) => {
      const outputs = toolOutputs(body);
      if (n === 1) {
        return { call: 'fs_read', args: { path: 'mcp/codex/notes.txt' } };
      }
      if (outputs.length === 1) {
        return { call: 'fs_edit', args: { path: 'mcp/codex/notes.txt', old_string: 'unsaved line', new_string: 'edited by codex' } };
      }
      return { text: `done: ${outputs.length} results` };
    });
    const home = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'codex-home-'));
    try {
      // the configuration the command copies for Codex, as a person pastes it, and a model provider pointing at the stand-in
      const copied = await vscode.commands.executeCommand<string>('agentFileTools.mcp.copyConfig.codex');
      assert.ok(copied?.includes(s.url));
      fs.writeFileSync(path.join(home, 'config.toml'), codexConfig(standIn.baseUrl, copied!));
      const codex = clientPath('codex');
      const shown = reviewShows('notes.txt');
      const done = run(process.execPath, [codex, 'exec', '--skip-git-repo-check', '--json', 'Change the unsaved line of mcp/codex/notes.txt'], {
        cwd: vscode.workspace.workspaceFolders![0].uri.fsPath,
        env: { CODEX_HOME: home },
        timeoutMs: 150_000,
      });
      const shownAt = await Promise.race([shown, done.then((r) => Promise.reject(new Error(`codex ended before the review showed (exit ${r.code}):\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`)))]);
      // the model's fs_edit call left the stand-in at answeredAt; the review showed at shownAt
      const sent = standIn.requests.find((r) => 'call' in r.turn && r.turn.call === 'fs_edit')!;
      console.log(`[aft] MCP call to review shown: ${(shownAt - sent.answeredAt).toFixed(0)} ms (Codex CLI, from the model's fs_edit leaving the stand-in to the diff tab)`);
      // what the model got from fs_read: the unsaved buffer
      assert.match(toolOutputs(standIn.requests[1].body)[0], /L2: unsaved line/);
      assert.equal(fs.readFileSync(p, 'utf8'), 'saved line\n', 'nothing lands before the answer');
      assert.equal(await vscode.commands.executeCommand('agentFileTools.acceptChange'), true);
      const r = await done;
      assert.equal(r.code, 0, `${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
      const last = toolOutputs(standIn.requests[standIn.requests.length - 1].body);
      assert.match(last[1], /Edited mcp\/codex\/notes\.txt: \+1 -1 lines/);
      assert.match(r.stdout, /done: 2 results/);
      // the change landed in the buffer, which stays unsaved; the disk is untouched
      assert.equal(doc.getText(), 'saved line\nedited by codex\n');
      assert.ok(doc.isDirty);
      assert.equal(fs.readFileSync(p, 'utf8'), 'saved line\n');
      const entries = await vscode.commands.executeCommand<{ origin: string; client?: string }[]>('agentFileTools.historyEntries');
      assert.equal(entries[0].origin, 'mcp');
      assert.match(entries[0].client ?? '', /codex/i);
    } finally {
      standIn.close();
      fs.rmSync(home, { recursive: true, force: true });
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });
});
