// The macOS-semantics suite: the CLI on the platform cases (test/platform/cases-*.mjs) on a
// volume that looks names up as macOS's default APFS does (case-insensitive and insensitive to
// Unicode normalisation, each name kept as written): test/platform/foldfs.py, a FUSE
// passthrough mounted in the run folder. The cases run twice: with the kernel's attribute,
// entry and negative caches off (a local disk's semantics), then with FUSE's default
// one-second attribute and entry caches and no entry types in a folder's listing (as sshfs and
// other network and FUSE mounts can have them: each entry's type must then be asked for).
//
//   node scripts/run-macos-tests.mjs [--grep RE] [--files NAME[,NAME]]
//   npm run test:macos -- --grep NFD
//
// process.platform stays linux: what this suite shows is what a volume that folds names does
// to the tools, which is a property of the volume and not of the platform. Each mount is
// unmounted after its run, also when a run fails or this script is interrupted; the file
// system unmounts itself when this script dies without doing so. Writes
// test-output/macos-results.json; exit code 0 only when every case passed.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { debianPython, makeRunDir, root } from './host.mjs';
import { readPart, stopOnSignalOrTimeout, suiteArgs, writeResults } from './platform-suite.mjs';

const t0 = Date.now();
const log = (...a) => console.log(`[macos-tests +${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);
const args = suiteArgs();
if (args.only === 'units') {
  console.error('the macOS suite has CLI cases only');
  process.exit(2);
}
const foldfs = path.join(root, 'test/platform/foldfs.py');
const fusepy = spawnSync(debianPython, ['-c', 'import fusepy'], { stdio: 'ignore' });
if (fusepy.status !== 0 || !fs.existsSync('/dev/fuse') || spawnSync('fusermount3', ['-V'], { stdio: 'ignore' }).status !== 0) {
  console.error(`FUSE is not ready (${debianPython} with fusepy, fusermount3 and /dev/fuse are needed): run scripts/setup-host.sh`);
  process.exit(2);
}
if (!fs.existsSync(path.join(root, 'dist/cli.js'))) {
  console.error('missing dist/cli.js: run `npm run build` (or `npm test`)');
  process.exit(2);
}

const { dir: runDir } = makeRunDir('macos');
const keep = !!process.env.VSCODE_TEST_KEEP;
/** The mounts now up, each with what unmounts it. */
const mounts = new Set();
let current;
let stopping = false;

const isMounted = (dir) => fs.readFileSync('/proc/self/mounts', 'utf8').split('\n').some((l) => l.split(' ')[1] === dir);

async function unmount(m) {
  for (let i = 0; i < 20 && isMounted(m.dir); i++) {
    // a process that still has a file open there makes it busy for a moment; then lazily
    spawnSync('fusermount3', i < 10 ? ['-u', m.dir] : ['-u', '-z', m.dir], { stdio: 'ignore' });
    if (isMounted(m.dir)) {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await Promise.race([m.exited, new Promise((r) => setTimeout(r, 5000))]);
  if (m.child.exitCode === null) {
    m.child.kill('SIGKILL');
  }
  mounts.delete(m);
  if (isMounted(m.dir)) {
    throw new Error(`${m.dir} is still mounted`);
  }
}

/** Stops what runs, unmounts every volume, and exits; the first call decides the exit code. */
async function finish(code) {
  if (stopping) {
    return new Promise(() => {});
  }
  stopping = true;
  current?.kill('SIGKILL');
  for (const m of [...mounts]) {
    try {
      await unmount(m);
    } catch (e) {
      log(String(e.message ?? e));
      code ||= 1;
    }
  }
  log(`exit code ${code}${code === 0 && !keep ? '' : `; logs in ${runDir}`}`);
  if (code === 0 && !keep) {
    fs.rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
  }
  process.exit(code);
}
stopOnSignalOrTimeout(finish, log);

/** Mounts a fresh folding volume at <run>/<name>; resolves once it answers. */
async function mount(name, cache, types) {
  if (stopping) {
    throw new Error('stopped');
  }
  const backing = path.join(runDir, `${name}-backing`);
  const dir = path.join(runDir, name);
  const ready = path.join(runDir, `${name}.ready`);
  fs.mkdirSync(backing);
  fs.mkdirSync(dir);
  const logFd = fs.openSync(path.join(runDir, `${name}-foldfs.log`), 'w');
  const child = spawn(debianPython, [foldfs, backing, dir, '--cache', cache, '--types', types, '--ready', ready, '--parent', String(process.pid)], { stdio: ['ignore', logFd, logFd] });
  fs.closeSync(logFd);
  const m = { dir, child, exited: new Promise((r) => child.once('exit', r)) };
  mounts.add(m);
  for (let i = 0; !fs.existsSync(ready); i++) {
    if (child.exitCode !== null || i > 200) {
      throw new Error(`the folding volume did not mount at ${dir}; see ${name}-foldfs.log in the run folder`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return m;
}

/** The cases, in a Linux Node of their own, on the folder `base`. */
function runCases(base, label, variant, results) {
  const grep = args.grep ? ['--grep', args.grep] : [];
  const files = args.files ? ['--files', args.files] : [];
  const started = Date.now();
  current = spawn(process.execPath, [path.join(root, 'test/platform/run-cases.mjs'), '--platform', 'macos', ...(variant ? ['--variant', variant] : []), '--base', base, '--results', results, '--label', label, ...grep, ...files], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return new Promise((resolve) => {
    current.on('exit', (code, signal) => {
      log(`${label}: cases exited ${code ?? signal} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
      current = undefined;
      resolve(code);
    });
  });
}

try {
  log(`folding volume: ${foldfs}; run folder ${runDir}`);
  const parts = [];
  for (const [name, cache, types, label, variant] of [
    ['apfs', 'off', 'on', 'macos'],
    ['apfs-cached', 'default', 'off', 'macos, 1 s attribute cache', 'cached'],
  ]) {
    const m = await mount(name, cache, types);
    log(`mounted ${m.dir} (kernel caches ${cache === 'off' ? 'off' : 'at their one-second default'}; entry types in listings ${types})`);
    if (stopping) {
      break;
    }
    const results = path.join(runDir, `${name}.json`);
    const ws = path.join(m.dir, 'ws');
    fs.mkdirSync(ws);
    await runCases(ws, label, variant, results);
    await unmount(m);
    log(`unmounted ${m.dir}`);
    parts.push(readPart(results, `the CLI cases (${label})`));
  }
  const ok = writeResults('macos', parts, { seconds: Math.round((Date.now() - t0) / 1000) });
  await finish(ok ? 0 : 1);
} catch (e) {
  log('error:', e?.stack ?? e);
  await finish(1);
}
