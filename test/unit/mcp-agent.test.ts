import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { responsesStandIn, run, toolOutputs } from '../mcp/standIn';

const root = path.resolve(__dirname, '../../..');

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
    // the pinned Codex CLI, installed on demand beside the test host (scripts/mcp-clients.mjs):
    // a first install fetches it, later runs find it there
    this.timeout(600_000);
    const r = await run(process.execPath, [path.join(root, 'scripts/mcp-clients.mjs')], { timeoutMs: 590_000 });
    if (r.code !== 0) {
      throw new Error(`the pinned Codex CLI could not be installed (scripts/mcp-clients.mjs, exit ${r.code}):\n${r.stderr.slice(-3000)}`);
    }
    codex = (JSON.parse(r.stdout) as { codex: string }).codex;
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
      fs.writeFileSync(
        path.join(home, 'config.toml'),
        [
          'model = "scripted"',
          'model_provider = "standin"',
          'approval_policy = "never"',
          'sandbox_mode = "read-only"',
          '[model_providers.standin]',
          'name = "standin"',
          `base_url = "${standIn.baseUrl}"`,
          'wire_api = "responses"',
          '[mcp_servers.agent-file-tools]',
          `url = "${url}"`,
          `http_headers = { Authorization = "Bearer ${token}" }`,
          'default_tools_approval_mode = "approve"',
        ].join('\n'),
      );
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
