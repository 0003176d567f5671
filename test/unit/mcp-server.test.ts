import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCP_MAX_CONCURRENT_CALLS, MCP_MAX_REQUEST_BYTES } from '../../src/core/limits';
import { serveHttp } from '../../src/mcp/http';
import { SILENT_LOGGER } from '../../src/services/types';
import type { McpBackend } from '../../src/mcp/types';
import { request, rpc } from '../mcp/rawHttp';
import { TOOL_NAMES } from '../../src/tools/registry';

const root = path.resolve(__dirname, '../../..');
const cli = path.join(root, 'dist/cli.js');

const INIT = rpc(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-test', version: '1' } });

/** Starts `agent-file-tools mcp --http`; its first line on stderr names the URL and the connection file. */
async function startHttpCli(rootDir: string, connDir: string, flags: string[] = []): Promise<{ proc: ChildProcess; url: string; file: string; stderr: () => string }> {
  const proc = spawn(process.execPath, [cli, 'mcp', '--http', '--root', rootDir, ...flags], { env: { ...process.env, AGENT_FILE_TOOLS_MCP_DIR: connDir }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  proc.stderr!.setEncoding('utf8');
  const first = await new Promise<string>((resolve, reject) => {
    proc.stderr!.on('data', (d: string) => {
      err += d;
      if (err.includes('\n')) {
        resolve(err.split('\n')[0]);
      }
    });
    proc.once('exit', (code) => reject(new Error(`exited with ${code}: ${err}`)));
  });
  const m = /^agent-file-tools MCP server at (http:\/\/127\.0\.0\.1:\d+\/mcp); connection file (.+\.json)$/.exec(first);
  assert.ok(m, `first line: ${first}`);
  return { proc, url: m[1], file: m[2], stderr: () => err };
}

describe('MCP: agent-file-tools mcp --http, the real server', function () {
  this.timeout(60_000);
  let tmp: string;
  let ws: string;
  let connDir: string;
  let server: Awaited<ReturnType<typeof startHttpCli>>;
  let token: string;
  let auth: Record<string, string>;

  before(async () => {
    if (!fs.existsSync(cli)) {
      throw new Error('dist/cli.js is missing: run `npm run build` first (npm test does)');
    }
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aft-mcp-http-'));
    ws = path.join(tmp, 'ws');
    connDir = path.join(tmp, 'conn');
    fs.mkdirSync(ws);
    fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
    // a crashed server's file: the start removes it
    fs.mkdirSync(connDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(connDir, 'cli-999999999-1.json'), JSON.stringify({ url: 'http://127.0.0.1:1/mcp', token: 'old', pid: 999999999, workspaceFolders: [ws] }), { mode: 0o600 });
    server = await startHttpCli(ws, connDir, ['--yes']);
    const info = JSON.parse(fs.readFileSync(server.file, 'utf8')) as { url: string; token: string; workspaceFolders: string[]; pid: number };
    token = info.token;
    auth = { host: new URL(server.url).host, authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  });
  after(() => {
    server?.proc.kill('SIGKILL');
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('writes a connection file of the user only (0600, folder 0700) holding the URL, a 32-byte token and the folder; a dead server\'s file is gone', () => {
    const info = JSON.parse(fs.readFileSync(server.file, 'utf8')) as { url: string; token: string; workspaceFolders: string[]; pid: number; kind: string };
    assert.equal(info.url, server.url);
    assert.match(info.token, /^[0-9a-f]{64}$/);
    assert.deepEqual(info.workspaceFolders, [fs.realpathSync(ws)]);
    assert.equal(info.pid, server.proc.pid);
    assert.equal(fs.statSync(server.file).mode & 0o777, 0o600);
    assert.equal(fs.statSync(connDir).mode & 0o777, 0o700);
    assert.deepEqual(fs.readdirSync(connDir), [path.basename(server.file)]);
    assert.equal(server.stderr().includes(token), false, 'the token is only in the file');
  });

  it('refuses without the token, with a wrong one, from a web page (Origin) and under a rebound Host: 401/403, and does nothing', async () => {
    const init = await request(server.url, { headers: auth, body: INIT });
    assert.equal(init.status, 200);
    const session = init.headers['mcp-session-id'] as string;
    assert.ok(session);
    await request(server.url, { headers: { ...auth, 'mcp-session-id': session }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    const write = (n: number) => rpc(n, 'tools/call', { name: 'fs_write', arguments: { path: `refused-${n}.txt`, content: 'x\n' } });
    const noToken = Object.fromEntries(Object.entries(auth).filter(([k]) => k !== 'authorization'));
    const cases: [string, Record<string, string>, number][] = [
      ['no token', noToken, 401],
      ['a wrong token', { ...auth, authorization: `Bearer ${'0'.repeat(64)}` }, 401],
      ['an Origin', { ...auth, origin: 'http://evil.example' }, 403],
      ['a same-host Origin', { ...auth, origin: `http://${auth.host}` }, 403],
      ['a rebound Host', { ...auth, host: `evil.example:${new URL(server.url).port}` }, 403],
    ];
    let n = 10;
    for (const [what, headers, status] of cases) {
      const r = await request(server.url, { headers: { ...headers, 'mcp-session-id': session }, body: write(n) });
      assert.equal(r.status, status, what);
      assert.equal(fs.existsSync(path.join(ws, `refused-${n}.txt`)), false, `${what}: nothing written`);
      // a new session is refused the same way
      assert.equal((await request(server.url, { headers, body: INIT })).status, status, `${what}: initialize`);
      n++;
    }
    assert.match(server.stderr(), /warning: MCP: refused a POST request: wrong bearer token/);
    // the same call, allowed, lands: the refusals above are what kept it out
    const ok = await request(server.url, { headers: { ...auth, 'mcp-session-id': session }, body: write(99) });
    assert.equal(ok.status, 200);
    assert.equal(fs.readFileSync(path.join(ws, 'refused-99.txt'), 'utf8'), 'x\n');
    // no tool outside the seven
    const other = await request(server.url, { headers: { ...auth, 'mcp-session-id': session }, body: rpc(100, 'tools/call', { name: 'exec', arguments: { cmd: 'touch pwned' } }) });
    assert.match(other.text, /"code":-32602[^]*Unknown tool \\"exec\\"/);
    assert.equal(fs.existsSync(path.join(ws, 'pwned')), false);
  });

  it('refuses a body over the bound with 413 before reading it', async () => {
    const r = await request(server.url, { headers: { ...auth, 'content-length': String(MCP_MAX_REQUEST_BYTES + 1) }, body: '' }).catch((e: Error) => ({ status: -1, text: e.message, headers: {} }));
    assert.equal(r.status, 413);
  });

  it('serves the seven tools to the SDK\'s own client: same text as the CLI, isError for failures', async () => {
    const client = new Client({ name: 'sdk-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name), [...TOOL_NAMES]);
      const read = await client.callTool({ name: 'fs_read', arguments: { path: 'a.txt' } });
      assert.equal(read.isError, undefined);
      const [text] = read.content as { type: string; text: string }[];
      assert.equal(text.type, 'text');
      assert.match(text.text, /^L1: alpha$/m);
      const missing = await client.callTool({ name: 'fs_read', arguments: { path: 'missing.txt' } });
      assert.equal(missing.isError, true);
      assert.match((missing.content as { text: string }[])[0].text, /^File not found: missing\.txt/);
      assert.match(server.stderr(), /MCP sdk-test: fs_read \{"path":"a\.txt"\} -> ok/);
    } finally {
      await client.close();
    }
  });

  it('bounds requests a second (429), then serves again', async () => {
    const results = await Promise.all(Array.from({ length: 120 }, () => request(server.url, { method: 'GET', headers: { ...auth, accept: 'text/event-stream' } })));
    assert.ok(results.some((r) => r.status === 429), 'some were refused');
    await new Promise((r) => setTimeout(r, 1100));
    assert.notEqual((await request(server.url, { headers: auth, body: INIT })).status, 429);
  });

  it('removes its connection file when stopped', async () => {
    const exited = new Promise<number | null>((resolve) => server.proc.once('exit', resolve));
    server.proc.kill('SIGTERM');
    assert.equal(await exited, 0);
    assert.equal(fs.existsSync(server.file), false);
  });
});

describe('MCP: agent-file-tools mcp over stdio, the CLI\'s approval rules', function () {
  this.timeout(60_000);
  let tmp: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aft-mcp-stdio-'));
    fs.writeFileSync(path.join(tmp, 'a.txt'), 'alpha\n');
    fs.writeFileSync(path.join(tmp, '.env'), 'TOKEN=s3cret\n');
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  async function connect(flags: string[]): Promise<Client> {
    const client = new Client({ name: 'stdio-test', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--root', tmp, ...flags], stderr: 'ignore' }));
    return client;
  }
  const textOf = (r: unknown) => (r as { content: { text: string }[] }).content[0].text;

  it('without --yes: reads, previews a change and writes nothing, and asks for a secret', async () => {
    const client = await connect([]);
    try {
      assert.deepEqual((await client.listTools()).tools.map((t) => t.name), [...TOOL_NAMES]);
      assert.match(textOf(await client.callTool({ name: 'fs_read', arguments: { path: 'a.txt' } })), /^L1: alpha$/m);
      const w = await client.callTool({ name: 'fs_write', arguments: { path: 'a.txt', content: 'beta\n' } });
      assert.equal(w.isError, true);
      assert.match(textOf(w), /-alpha\n\+beta[^]*nothing was written\. The MCP server was started without --yes, so it shows changes and writes none/);
      assert.equal(fs.readFileSync(path.join(tmp, 'a.txt'), 'utf8'), 'alpha\n');
      const env = await client.callTool({ name: 'fs_read', arguments: { path: '.env' } });
      assert.equal(env.isError, true);
      assert.match(textOf(env), /the MCP server was started without --yes; tell the user/);
      assert.doesNotMatch(textOf(env), /s3cret/);
    } finally {
      await client.close();
    }
  });

  it('with --yes: an ordinary change lands', async () => {
    const client = await connect(['--yes']);
    try {
      await client.callTool({ name: 'fs_read', arguments: { path: 'a.txt' } });
      const w = await client.callTool({ name: 'fs_edit', arguments: { path: 'a.txt', old_string: 'alpha', new_string: 'gamma' } });
      assert.equal(w.isError, undefined, textOf(w));
      assert.equal(fs.readFileSync(path.join(tmp, 'a.txt'), 'utf8'), 'gamma\n');
    } finally {
      await client.close();
    }
  });
});

describe('MCP: calls end with their client', function () {
  this.timeout(30_000);
  /** A backend whose calls wait until aborted (as a review waits for the person). */
  function waitingBackend() {
    const started: string[] = [];
    const aborted: string[] = [];
    const backend: McpBackend = {
      serverInfo: { name: 't', version: '1' },
      log: SILENT_LOGGER,
      tools: () => [{ name: 'fs_write', title: 'Write', description: 'd', inputSchema: { type: 'object' }, mutates: true }],
      call: (c) =>
        new Promise((resolve) => {
          started.push(String((c.args as { path?: string }).path));
          c.signal.addEventListener('abort', () => {
            aborted.push(String((c.args as { path?: string }).path));
            resolve({ isError: true, parts: [{ kind: 'text', text: 'cancelled' }] });
          });
        }),
    };
    return { backend, started, aborted };
  }
  const until = async (what: string, f: () => boolean) => {
    for (let i = 0; i < 100 && !f(); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(f(), what);
  };

  it('a dropped connection cancels the call its answer was to come on; ending the session cancels the rest', async () => {
    const { backend, started, aborted } = waitingBackend();
    const token = 'b'.repeat(64);
    const srv = await serveHttp(backend, { token });
    try {
      const auth = { host: `127.0.0.1:${srv.port}`, authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const init = await request(srv.url, { headers: auth, body: INIT });
      const session = init.headers['mcp-session-id'] as string;
      await request(srv.url, { headers: { ...auth, 'mcp-session-id': session }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
      assert.deepEqual(srv.clients().map((c) => c.name), ['raw-test']);
      // a call whose connection is dropped while it waits
      const u = new URL(srv.url);
      const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { ...auth, 'mcp-session-id': session }, setHost: false });
      req.on('error', () => {});
      req.end(rpc(2, 'tools/call', { name: 'fs_write', arguments: { path: 'dropped' } }));
      await until('the call started', () => started.includes('dropped'));
      req.destroy();
      await until('the dropped call was cancelled', () => aborted.includes('dropped'));
      // a call left waiting when the client ends its session
      void request(srv.url, { headers: { ...auth, 'mcp-session-id': session }, body: rpc(3, 'tools/call', { name: 'fs_write', arguments: { path: 'waiting' } }) }).catch(() => {});
      await until('the second call started', () => started.includes('waiting'));
      assert.equal((await request(srv.url, { method: 'DELETE', headers: { ...auth, 'mcp-session-id': session } })).status, 200);
      await until('ending the session cancelled its call', () => aborted.includes('waiting'));
      assert.deepEqual(srv.clients(), []);
    } finally {
      await srv.close();
    }
  });

  it('counts a client while it is there: one that closes its event stream and goes is no longer counted', async () => {
    const told: string[][] = [];
    const { backend } = waitingBackend();
    backend.onClients = (cs) => told.push(cs.map((c) => c.name));
    const token = 'd'.repeat(64);
    const srv = await serveHttp(backend, { token });
    try {
      const client = new Client({ name: 'Leaving Agent', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(srv.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      await until('counted', () => srv.clients().some((c) => c.name === 'Leaving Agent'));
      // the SDK's close ends its stream without ending the session: the client is gone all the same
      await client.close();
      await until('no longer counted', () => srv.clients().length === 0);
      assert.deepEqual(told, [['Leaving Agent'], []]);
    } finally {
      await srv.close();
    }
  });

  it(`runs at most ${MCP_MAX_CONCURRENT_CALLS} calls at once; one more is answered at once with an error`, async () => {
    const { backend, started } = waitingBackend();
    const token = 'c'.repeat(64);
    const srv = await serveHttp(backend, { token });
    const client = new Client({ name: 'many', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    try {
      const waiting = Array.from({ length: MCP_MAX_CONCURRENT_CALLS }, (_, i) => client.callTool({ name: 'fs_write', arguments: { path: `w${i}` } }).catch(() => undefined));
      await until('all started', () => started.length === MCP_MAX_CONCURRENT_CALLS);
      const extra = await client.callTool({ name: 'fs_write', arguments: { path: 'extra' } });
      assert.equal(extra.isError, true);
      assert.match((extra.content as { text: string }[])[0].text, new RegExp(`^${MCP_MAX_CONCURRENT_CALLS} calls are running already`));
      assert.equal(started.includes('extra'), false);
      await client.close();
      await Promise.all(waiting);
    } finally {
      await srv.close();
    }
  });
});
