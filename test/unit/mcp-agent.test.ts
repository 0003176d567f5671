import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { codexConfig, responsesStandIn, run, toolOutputs } from '../mcp/standIn';

const root = path.resolve(__dirname, '../../..');

/**
 * The pinned clients' entry points, installed on demand beside the test host
 * (scripts/mcp-clients.mjs): a first install fetches them, later runs find them there.
 */
async function pinnedClients(): Promise<{ codex: string; inspector: string }> {
  const r = await run(process.execPath, [path.join(root, 'scripts/mcp-clients.mjs')], { timeoutMs: 590_000 });
  if (r.code !== 0) {
    throw new Error(`the pinned MCP clients could not be installed (scripts/mcp-clients.mjs, exit ${r.code}):\n${r.stderr.slice(-3000)}`);
  }
  return JSON.parse(r.stdout) as { codex: string; inspector: string };
}

/**
 * Codex CLI, a real agent from npm, against `agent-file-tools mcp --http`: its model is a
 * script behind a stand-in of the Responses API on the loopback address. (The MCP suite does
 * the same against a VS Code window's server, where the change waits in the review.)
 */
describe('MCP: Codex CLI against agent-file-tools mcp --http', function () {
  this.timeout(90_000);
  let tmp: string;
  let codex: string;
  before(async function () {
    this.timeout(600_000);
    codex = (await pinnedClients()).codex;
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aft-codex-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('lists the seven tools, reads and edits through them, and each call is logged under its name', async () => {
    const ws = path.join(tmp, 'ws');
    const home = path.join(tmp, 'codex-home');
    fs.mkdirSync(ws);
    fs.mkdirSync(home);
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'saved line\nsecond\n');
    const server = spawn(process.execPath, [path.join(root, 'dist/cli.js'), 'mcp', '--http', '--yes', '--root', ws], { env: { ...process.env, AGENT_FILE_TOOLS_MCP_DIR: path.join(tmp, 'conn') }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    server.stderr!.on('data', (d: Buffer) => (err += d.toString('utf8')));
    const standIn = await responsesStandIn(({ body }) => {
      const outputs = toolOutputs(body);
      return outputs.length === 0
        ? { call: 'fs_read', args: { path: 'notes.txt' } }
        : outputs.length === 1
          ? { call: 'fs_edit', args: { path: 'notes.txt', old_string: 'second', new_string: 'SECOND' } }
          : { text: `done: ${outputs.length} results` };
    });
    try {
      for (let i = 0; i < 100 && !err.includes('\n'); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const file = /connection file (.+\.json)$/m.exec(err)![1];
      const { url, token } = JSON.parse(fs.readFileSync(file, 'utf8')) as { url: string; token: string };
      const server = ['[mcp_servers.agent-file-tools]', `url = "${url}"`, `http_headers = { Authorization = "Bearer ${token}" }`, 'default_tools_approval_mode = "approve"'];
      fs.writeFileSync(path.join(home, 'config.toml'), codexConfig(standIn.baseUrl, server.join('\n')));
      const r = await run(process.execPath, [codex, 'exec', '--skip-git-repo-check', '--json', 'Capitalise the second line of notes.txt'], { cwd: ws, env: { CODEX_HOME: home }, timeoutMs: 60_000 });
      assert.equal(r.code, 0, r.stderr.slice(-2000));
      // Codex offered the model our seven tools, under the server's name
      const offered = standIn.requests[0].body.tools.find((t) => t.type === 'namespace' && t.tools?.some((x) => x.name === 'fs_read'));
      assert.deepEqual(offered?.tools?.map((t) => t.name).sort(), ['fs_apply_patch', 'fs_edit', 'fs_glob', 'fs_grep', 'fs_list', 'fs_read', 'fs_write']);
      const outputs = toolOutputs(standIn.requests[2].body);
      assert.match(outputs[0], /<content>\nL1: saved line\nL2: second\n<\/content>\nEnd of file\./);
      assert.match(outputs[1], /Edited notes\.txt: \+1 -1 lines/);
      assert.match(r.stdout, /done: 2 results/);
      assert.equal(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8'), 'saved line\nSECOND\n');
      assert.match(err, /MCP: Codex [\d.]+ connected/);
      assert.match(err, /MCP Codex: fs_read \{"path":"notes\.txt"\} -> ok/);
      assert.match(err, /MCP Codex: fs_edit \{"path":"notes\.txt","old_string":"second","new_string":"SECOND"\} -> ok/);
    } finally {
      standIn.close();
      server.kill('SIGTERM');
    }
  });
});

/**
 * The MCP Inspector's CLI, an MCP client no one here wrote, against `agent-file-tools mcp` over
 * stdio (it starts the server itself): it lists the seven tools and calls each; with `--yes` the
 * changes land on disk. (The MCP suite does the same against a VS Code window's server.)
 */
describe('MCP: the MCP Inspector\'s CLI against agent-file-tools mcp over stdio', function () {
  this.timeout(60_000);
  let tmp: string;
  let inspector: string;
  before(async function () {
    this.timeout(600_000);
    inspector = (await pinnedClients()).inspector;
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aft-inspector-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** One run of the Inspector's CLI, which starts `agent-file-tools mcp --yes --root tmp` over stdio. */
  async function cli(args: string[]): Promise<{ out: unknown; stderr: string }> {
    const r = await run(process.execPath, [inspector, '--cli', process.execPath, path.join(root, 'dist/cli.js'), 'mcp', '--yes', '--root', tmp, ...args], { cwd: tmp, timeoutMs: 50_000 });
    assert.equal(r.code, 0, `mcp-inspector exited with ${r.code}:\n${r.stdout}\n${r.stderr}`);
    return { out: JSON.parse(r.stdout) as unknown, stderr: r.stderr };
  }
  const call = async (tool: string, args: Record<string, string>) => {
    const { out, stderr } = await cli(['--method', 'tools/call', '--tool-name', tool, ...Object.entries(args).flatMap(([k, v]) => ['--tool-arg', `${k}=${v}`])]);
    const r = out as { content: { type: string; text?: string }[]; isError?: boolean };
    assert.notEqual(r.isError, true, JSON.stringify(r));
    // the server's log on standard error names the client and the call
    assert.match(stderr, new RegExp(`MCP inspector-cli: ${tool} .* -> ok`));
    return r.content.map((c) => c.text ?? '').join('\n');
  };

  it('lists the seven tools and calls each: reads answer, changes land with --yes', async () => {
    const { out } = await cli(['--method', 'tools/list']);
    assert.deepEqual((out as { tools: { name: string }[] }).tools.map((t) => t.name), ['fs_read', 'fs_list', 'fs_glob', 'fs_grep', 'fs_edit', 'fs_write', 'fs_apply_patch']);
    fs.mkdirSync(path.join(tmp, 'inspect'));
    fs.writeFileSync(path.join(tmp, 'inspect/a.txt'), 'alpha\nbeta\n');
    assert.match(await call('fs_read', { path: 'inspect/a.txt' }), /^L1: alpha\nL2: beta$/m);
    assert.match(await call('fs_list', { path: 'inspect' }), /^a\.txt$/m);
    assert.match(await call('fs_glob', { pattern: 'inspect/*.txt' }), /^inspect\/a\.txt$/m);
    assert.match(await call('fs_grep', { pattern: 'beta', path: 'inspect' }), /^inspect\/a\.txt\n {2}L2: beta$/m);
    assert.match(await call('fs_edit', { path: 'inspect/a.txt', old_string: 'beta', new_string: 'BETA' }), /^Edited inspect\/a\.txt: \+1 -1 lines/);
    assert.match(await call('fs_write', { path: 'inspect/b.txt', content: 'new\n' }), /^Created inspect\/b\.txt/);
    const patch = '*** Begin Patch\n*** Update File: inspect/a.txt\n-alpha\n+ALPHA\n BETA\n*** Add File: inspect/c.txt\n+c\n*** End Patch';
    assert.match(await call('fs_apply_patch', { patch }), /inspect\/a\.txt[^]*inspect\/c\.txt/);
    assert.equal(fs.readFileSync(path.join(tmp, 'inspect/a.txt'), 'utf8'), 'ALPHA\nBETA\n');
    assert.equal(fs.readFileSync(path.join(tmp, 'inspect/b.txt'), 'utf8'), 'new\n');
    assert.equal(fs.readFileSync(path.join(tmp, 'inspect/c.txt'), 'utf8'), 'c\n');
  });
});
