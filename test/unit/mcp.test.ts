import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkRequest, isLoopbackHost, RateLimit } from '../../src/mcp/guard';
import { clientConfig, terminalEnvironment } from '../../src/mcp/clientConfig';
import { toMcpContent, toolsFromManifest } from '../../src/mcp/results';
import { clientName } from '../../src/mcp/session';
import { connectionDir, ensurePrivateDir, pickConnection, readConnectionFiles, removeConnectionFile, removeStaleConnectionFiles, writeConnectionFile, type ConnectionInfo } from '../../src/host/connectionFile';
import { readManifestTools } from '../../src/host/manifest';
import { findTool, TOOL_NAMES } from '../../src/tools/registry';

const root = path.resolve(__dirname, '../../..');
const TOKEN = 'a'.repeat(64);

describe('MCP: who may call (guard.ts)', () => {
  const ok = { host: '127.0.0.1:4000', authorization: `Bearer ${TOKEN}` };
  it('lets through the loopback Host with the port and the token', () => {
    assert.equal(checkRequest(ok, 4000, TOKEN), undefined);
    assert.equal(checkRequest({ ...ok, host: 'LOCALHOST:4000', authorization: `bearer ${TOKEN}` }, 4000, TOKEN), undefined);
  });
  it('refuses a request without the token, or with a wrong one, with 401', () => {
    assert.equal(checkRequest({ host: ok.host }, 4000, TOKEN)?.status, 401);
    assert.equal(checkRequest({ ...ok, authorization: `Bearer ${'b'.repeat(64)}` }, 4000, TOKEN)?.status, 401);
    assert.equal(checkRequest({ ...ok, authorization: `Bearer ${TOKEN}x` }, 4000, TOKEN)?.status, 401);
    assert.equal(checkRequest({ ...ok, authorization: TOKEN }, 4000, TOKEN)?.status, 401);
    assert.equal(checkRequest({ ...ok, authorization: [ok.authorization, ok.authorization] }, 4000, TOKEN)?.status, 401);
  });
  it('refuses a web page (any Origin) and a rebound or foreign Host with 403, whatever the token', () => {
    assert.equal(checkRequest({ ...ok, origin: 'http://127.0.0.1:4000' }, 4000, TOKEN)?.status, 403);
    assert.equal(checkRequest({ ...ok, origin: 'null' }, 4000, TOKEN)?.status, 403);
    assert.equal(checkRequest({ ...ok, host: 'attacker.example:4000' }, 4000, TOKEN)?.status, 403);
    assert.equal(checkRequest({ ...ok, host: '127.0.0.1:4001' }, 4000, TOKEN)?.status, 403);
    assert.equal(checkRequest({ ...ok, host: '127.0.0.1' }, 4000, TOKEN)?.status, 403);
    assert.equal(checkRequest({ authorization: ok.authorization }, 4000, TOKEN)?.status, 403);
    assert.equal(isLoopbackHost('127.0.0.2:4000', 4000), false);
    assert.equal(isLoopbackHost('[::1]:4000', 4000), false);
    assert.equal(isLoopbackHost('localhost.attacker.example:4000', 4000), false);
  });
  it('bounds requests a second, and refills', () => {
    let now = 0;
    const r = new RateLimit(5, () => now);
    assert.deepEqual([1, 2, 3, 4, 5, 6].map(() => r.take()), [true, true, true, true, true, false]);
    now += 400;
    assert.deepEqual([r.take(), r.take(), r.take()], [true, true, false]);
  });
});

describe('MCP: the tools and their results', () => {
  it('lists the seven tools with the descriptions and schemas of package.json, and nothing else', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { contributes: { languageModelTools: { name: string; modelDescription: string; inputSchema: object; displayName: string }[] } };
    const entries = [...pkg.contributes.languageModelTools, { name: 'fs_delete', modelDescription: 'not ours', inputSchema: {} }];
    const tools = toolsFromManifest(entries, TOOL_NAMES, (n) => findTool(n)!.mutates);
    assert.deepEqual(tools.map((t) => t.name), [...TOOL_NAMES]);
    for (const t of tools) {
      const e = pkg.contributes.languageModelTools.find((x) => x.name === t.name)!;
      assert.equal(t.description, e.modelDescription);
      assert.deepEqual(t.inputSchema, e.inputSchema);
      assert.equal(t.title, e.displayName);
    }
    assert.deepEqual(tools.filter((t) => t.mutates).map((t) => t.name), ['fs_edit', 'fs_write', 'fs_apply_patch']);
    // the CLI reads the same entries from the package's own package.json
    assert.deepEqual(readManifestTools(path.join(root, 'out/src/cli')), pkg.contributes.languageModelTools);
  });

  it('gives the text a chat model gets (text parts joined by a line break), images as image content, failures as isError', () => {
    const png = new Uint8Array([137, 80, 78, 71]);
    assert.deepEqual(toMcpContent({ isError: false, parts: [{ kind: 'text', text: 'page' }, { kind: 'text', text: 'addition' }, { kind: 'data', mime: 'image/png', data: png }] }), {
      content: [
        { type: 'text', text: 'page\naddition' },
        { type: 'image', data: Buffer.from(png).toString('base64'), mimeType: 'image/png' },
      ],
    });
    assert.deepEqual(toMcpContent({ isError: true, parts: [{ kind: 'text', text: 'File not found' }] }), { content: [{ type: 'text', text: 'File not found' }], isError: true });
  });

  it('shows a client by the name it gave, on one bounded line', () => {
    assert.equal(clientName({ name: 'codex-mcp-client', title: 'Codex' }), 'Codex');
    assert.equal(clientName({ name: 'evil\nfs_write -> ok\u001b[2J' }), 'evil fs_write -> ok [2J');
    assert.equal(clientName({ name: 'x'.repeat(100) }).length, 65);
    assert.equal(clientName(undefined), 'unnamed client');
  });
});

describe('MCP: configuration for each agent', () => {
  const url = 'http://127.0.0.1:4321/mcp';
  it('Claude Code: one claude mcp add command with the header', () => {
    assert.equal(clientConfig('claudeCode', url, TOKEN), `claude mcp add --transport http agent-file-tools ${url} --header "Authorization: Bearer ${TOKEN}"\n`);
  });
  it('Codex CLI: an [mcp_servers] table with the header, a timeout a review fits in, and no second approval', () => {
    const t = clientConfig('codex', url, TOKEN);
    assert.match(t, /^\[mcp_servers\.agent-file-tools\]\nurl = "http:\/\/127\.0\.0\.1:4321\/mcp"\nhttp_headers = \{ Authorization = "Bearer a{64}" \}\n/);
    assert.match(t, /\ntool_timeout_sec = 900\n/);
    assert.match(t, /\ndefault_tools_approval_mode = "approve"\n/);
  });
  it('Gemini CLI and OpenCode: JSON of their own shapes', () => {
    assert.deepEqual(JSON.parse(clientConfig('geminiCli', url, TOKEN)), { mcpServers: { 'agent-file-tools': { httpUrl: url, headers: { Authorization: `Bearer ${TOKEN}` }, timeout: 900000, trust: true } } });
    assert.deepEqual(JSON.parse(clientConfig('openCode', url, TOKEN)), { mcp: { 'agent-file-tools': { type: 'remote', url, headers: { Authorization: `Bearer ${TOKEN}` }, enabled: true } } });
  });
  it('a terminal gets the URL, the token and the file', () => {
    assert.deepEqual(terminalEnvironment(url, TOKEN, '/f.json'), { AGENT_FILE_TOOLS_MCP_URL: url, AGENT_FILE_TOOLS_MCP_TOKEN: TOKEN, AGENT_FILE_TOOLS_MCP_FILE: '/f.json' });
  });
});

describe('MCP: connection files', function () {
  if (process.platform === 'win32') {
    return;
  }
  let home: string;
  let dir: string;
  const info = (over: Partial<ConnectionInfo> = {}): ConnectionInfo => ({ url: 'http://127.0.0.1:4321/mcp', token: TOKEN, port: 4321, pid: process.pid, workspaceFolders: ['/w/app'], name: 'app', kind: 'vscode', startedAt: new Date(0).toISOString(), ...over });
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'aft-mcp-'));
    dir = path.join(home, '.agent-file-tools', 'mcp');
  });
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  it('lives in ~/.agent-file-tools/mcp unless AGENT_FILE_TOOLS_MCP_DIR names an absolute folder', () => {
    assert.equal(connectionDir({ AGENT_FILE_TOOLS_MCP_DIR: '/x/y' }), '/x/y');
    assert.equal(connectionDir({ AGENT_FILE_TOOLS_MCP_DIR: 'relative' }), path.join(os.homedir(), '.agent-file-tools', 'mcp'));
  });

  it('is written whole (no temporary file left), 0600 in folders of mode 0700, and read back only so', () => {
    const file = writeConnectionFile(dir, info());
    assert.equal(path.basename(file), `vscode-${process.pid}-4321.json`);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
    assert.equal(fs.statSync(path.dirname(dir)).mode & 0o777, 0o700);
    assert.deepEqual(fs.readdirSync(dir), [path.basename(file)]);
    assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), info());
    assert.deepEqual(readConnectionFiles(dir), [{ file, info: info() }]);
    // a file others can read is not trusted
    fs.chmodSync(file, 0o644);
    assert.deepEqual(readConnectionFiles(dir), []);
  });

  it('tightens a folder others can open, and refuses a folder that is a symlink', () => {
    fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    ensurePrivateDir(dir);
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
    const elsewhere = path.join(home, 'elsewhere');
    fs.mkdirSync(elsewhere);
    const linked = path.join(home, 'linked', 'mcp');
    fs.mkdirSync(path.dirname(linked));
    fs.symlinkSync(elsewhere, linked);
    assert.throws(() => writeConnectionFile(linked, info()), /is not a folder/);
    assert.deepEqual(fs.readdirSync(elsewhere), []);
  });

  it('is removed by its server only (same token), and a dead process leaves nothing the next start keeps', () => {
    const mine = writeConnectionFile(dir, info());
    removeConnectionFile(mine, 'other-token');
    assert.ok(fs.existsSync(mine));
    removeConnectionFile(mine, TOKEN);
    assert.equal(fs.existsSync(mine), false);
    const dead = writeConnectionFile(dir, info({ pid: 999_999_999, port: 1 }));
    const live = writeConnectionFile(dir, info({ port: 2 }));
    const temp = path.join(dir, '.vscode-1-1.json.abc.tmp');
    fs.writeFileSync(temp, '{');
    const past = new Date(Date.now() - 120_000);
    fs.utimesSync(temp, past, past);
    // a reader skips it before any cleaning
    assert.deepEqual(readConnectionFiles(dir).map((f) => f.file), [live]);
    assert.deepEqual(removeStaleConnectionFiles(dir).sort(), [temp, dead].sort());
    assert.deepEqual(fs.readdirSync(dir), [path.basename(live)]);
  });

  it('a client picks the server whose workspace folder holds its folder most closely', () => {
    const a = { file: 'a', info: info({ workspaceFolders: ['/w'] }) };
    const b = { file: 'b', info: info({ workspaceFolders: ['/w/app', '/other'] }) };
    assert.equal(pickConnection([a, b], '/w/app/src')?.file, 'b');
    assert.equal(pickConnection([a, b], '/w/lib')?.file, 'a');
    assert.equal(pickConnection([a, b], '/w/app..x')?.file, 'a');
    assert.equal(pickConnection([a, b], '/elsewhere'), undefined);
  });
});
