import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

// Where the VS Code test host and its runs live (scripts/host-paths.mjs), and the check that
// the Unix sockets a run makes fit the system's limit before anything listens.

interface Socket {
  who: string;
  path: string;
}
interface HostPaths {
  hostDirectory(env?: Record<string, string | undefined>, home?: string): string;
  hostVersions(env?: Record<string, string | undefined>): { node: string; codeServer: string };
  runsDirectory(env?: Record<string, string | undefined>): string;
  socketPaths(at: { chromiumTmp?: string; serverTmp?: string; userDataDir?: string }): Socket[];
  checkSocketPaths(sockets: Socket[], limit?: number): void;
  UNIX_SOCKET_PATH_MAX: number;
}
interface Host {
  makeRunDir(prefix: string): { dir: string; env: Record<string, string> };
  launchChromium(env?: Record<string, string>): Promise<unknown>;
  startCodeServer(opts: Record<string, unknown>): Promise<unknown>;
}

const scripts = path.resolve(__dirname, '../../../scripts');
const load = <T>(name: string): Promise<T> => import(pathToFileURL(path.join(scripts, name)).href) as Promise<T>;

/** A folder path of exactly `length` characters under `base`, with a space and a non-ASCII letter in one of its names. */
function deepPath(base: string, length: number): string {
  const name = 'my projects ü';
  let p = path.join(base, name);
  while (p.length < length) {
    p = path.join(p, 'x'.repeat(Math.min(40, length - p.length - 1)));
  }
  return p.slice(0, length);
}

describe('the VS Code test host (scripts/host-paths.mjs, scripts/host.mjs)', function () {
  this.timeout(20_000);
  let paths: HostPaths;
  let host: Host;
  before(async () => {
    paths = await load<HostPaths>('host-paths.mjs');
    host = await load<Host>('host.mjs');
  });

  describe('the test host and its runs: where they live', () => {
    it('the host is one folder per version in the user cache, the same for every clone; VSCODE_HOST_DIR overrides it', () => {
      const v = paths.hostVersions({});
      const name = `code-server-${v.codeServer}-node-${v.node}`;
      assert.equal(paths.hostDirectory({}, '/home/ann'), `/home/ann/.cache/agent-file-tools/vscode-host/${name}`);
      assert.equal(paths.hostDirectory({ XDG_CACHE_HOME: '/var/cache/ann' }, '/home/ann'), `/var/cache/ann/agent-file-tools/vscode-host/${name}`);
      assert.equal(paths.hostDirectory({ XDG_CACHE_HOME: 'relative/cache' }, '/home/ann'), `/home/ann/.cache/agent-file-tools/vscode-host/${name}`, 'a relative XDG_CACHE_HOME is ignored, as the XDG rules say');
      assert.equal(paths.hostDirectory({ VSCODE_HOST_DIR: '/opt/host', XDG_CACHE_HOME: '/var/cache/ann' }, '/home/ann'), '/opt/host');
      assert.match(paths.hostDirectory({ CODE_SERVER_VERSION: '4.140.0' }, '/home/ann'), /code-server-4\.140\.0-node-/, 'another version is another folder');
    });

    it('a run gets a short folder under the system temporary folder, or under VSCODE_TEST_RUNS_DIR', () => {
      assert.equal(paths.runsDirectory({}), os.tmpdir());
      assert.equal(paths.runsDirectory({ VSCODE_TEST_RUNS_DIR: '/tmp/r38' }), '/tmp/r38');
      const saved = process.env.VSCODE_TEST_RUNS_DIR;
      delete process.env.VSCODE_TEST_RUNS_DIR;
      try {
        const { dir, env } = host.makeRunDir('agent-capi');
        try {
          assert.equal(path.dirname(dir), os.tmpdir());
          assert.match(path.basename(dir), /^aft-agent-capi-/);
          assert.equal(env.TMPDIR, path.join(dir, 't'));
          assert.ok(fs.statSync(env.TMPDIR).isDirectory());
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      } finally {
        if (saved !== undefined) {
          process.env.VSCODE_TEST_RUNS_DIR = saved;
        }
      }
    });
  });

  describe('Unix socket paths: checked before anything listens', () => {

    it('a path of 107 bytes passes and one of 108 fails, naming the path, its length and the limit; bytes, not characters, count', () => {
      assert.equal(paths.UNIX_SOCKET_PATH_MAX, process.platform === 'darwin' ? 103 : 107);
      const at = (n: number) => `/${'a'.repeat(n - 1)}`;
      assert.doesNotThrow(() => paths.checkSocketPaths([{ who: 'a server', path: at(107) }], 107));
      assert.throws(
        () => paths.checkSocketPaths([{ who: 'a server', path: at(108) }], 107),
        (e: Error) => e.message === `a server would be ${at(108)}: 108 bytes, over the 107 bytes a Unix socket path may have. Set VSCODE_TEST_RUNS_DIR (or TMPDIR) to a shorter folder, such as /tmp/aft-runs.`,
      );
      // 106 characters, 107 bytes, then 108
      assert.doesNotThrow(() => paths.checkSocketPaths([{ who: 'x', path: `/ü${'a'.repeat(104)}` }], 107));
      assert.throws(() => paths.checkSocketPaths([{ who: 'x', path: `/ü${'a'.repeat(105)}` }], 107), /108 bytes, over the 107 bytes/);
    });

    it('the run folder of a clone 125 characters deep, where runs used to live, is refused with our words before any server starts', () => {
      const clone = deepPath('/home/ann', 125);
      const old = path.join(clone, '.vscode-test-runs', 'agent-capi-AbC123');
      const sockets = paths.socketPaths({ chromiumTmp: path.join(old, 't'), serverTmp: path.join(old, 't'), userDataDir: path.join(old, 'user-data') });
      assert.deepEqual(
        sockets.map((s) => s.who),
        ["chromium's singleton socket", "Copilot Chat's agent host socket", "code-server's session socket"],
      );
      assert.throws(() => paths.checkSocketPaths(sockets), (e: Error) => e.message.startsWith(`chromium's singleton socket would be ${path.join(old, 't')}/.org.chromium.Chromium.XXXXXX/SingletonSocket: `) && /over the 10[37] bytes a Unix socket path may have/.test(e.message));
      // the same run under /tmp fits
      const now = '/tmp/aft-agent-capi-AbC123';
      assert.doesNotThrow(() => paths.checkSocketPaths(paths.socketPaths({ chromiumTmp: `${now}/t`, serverTmp: `${now}/t`, userDataDir: `${now}/user-data` })));
    });

    it('makeRunDir, launchChromium and startCodeServer refuse a socket path over the limit before they start anything, and leave nothing behind', async () => {
      const base = fs.mkdtempSync(path.join(os.tmpdir(), 'aft-sock-'));
      const long = deepPath(base, 100);
      fs.mkdirSync(long, { recursive: true });
      const saved = process.env.VSCODE_TEST_RUNS_DIR;
      process.env.VSCODE_TEST_RUNS_DIR = long;
      try {
        assert.throws(() => host.makeRunDir('agent-capi'), /^Error: chromium's singleton socket would be .*: \d+ bytes, over the 10[37] bytes a Unix socket path may have/);
        assert.deepEqual(fs.readdirSync(long), [], 'the run folder made for the check is gone');
        await assert.rejects(host.launchChromium({ TMPDIR: long }), /chromium's singleton socket would be .*over the 10[37] bytes/);
        const runDir = path.join(long, 'run');
        await assert.rejects(
          host.startCodeServer({ runDir, runEnv: { TMPDIR: '/tmp' }, workspace: base, port: 1 }),
          (e: Error) => e.message.startsWith(`code-server's session socket would be ${runDir}/user-data/code-server-ipc.sock: `),
        );
        assert.equal(fs.existsSync(runDir), false, 'code-server was not started');
      } finally {
        if (saved === undefined) {
          delete process.env.VSCODE_TEST_RUNS_DIR;
        } else {
          process.env.VSCODE_TEST_RUNS_DIR = saved;
        }
        fs.rmSync(base, { recursive: true, force: true });
      }
    });
  });
});
