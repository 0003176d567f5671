import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import { cacheFolder, loadBundle, loadBundleInHost, mayImport, ownFolder } from '../../src/host/compileCache';
import { ONE_CALL_V8_FLAGS } from '../../src/cli';
import { tempTree } from './helpers';

// The CLI's tool bundles through V8's code cache (Node's own from 22.1, ours on 20), in a folder of our own.
const requireCache = (Module as unknown as { _cache: Record<string, unknown> })._cache;

describe('the CLI bundles loaded through the code cache', () => {
  let tree: { root: string; cleanup(): void };
  let file: string;
  beforeEach(() => {
    tree = tempTree({ 'bundle.js': "exports.answer = 41 + 1;\nexports.dir = __dirname;\nexports.os = require('node:os').platform();\n" });
    file = path.join(tree.root, 'bundle.js');
  });
  afterEach(() => {
    delete requireCache[file];
    tree.cleanup();
  });

  it('gives the module as require would, and undefined for a missing file', () => {
    const b = loadBundle(file, module);
    assert.deepEqual(b, { answer: 42, dir: tree.root, os: process.platform });
    assert.equal(loadBundle(path.join(tree.root, 'missing.js'), module), undefined);
    // a second load is the same module
    assert.equal(loadBundle(file, module), b);
  });

  it("keeps a bundle's import() of a file beside it working, run after run, printing nothing on stderr", () => {
    fs.writeFileSync(path.join(tree.root, 'beside.cjs'), 'module.exports = { answer: 42 };\n');
    fs.writeFileSync(file, 'exports.loaded = import("./beside.cjs").then((m) => m.default.answer);\n');
    // a process of its own per run: the second one would compile from the cache where Node keeps one
    const script = `const { loadBundle } = require(${JSON.stringify(require.resolve('../../src/host/compileCache'))});
const m = require('node:module');
loadBundle(${JSON.stringify(file)}, module).loaded.then((n) => process.stdout.write(n + ' ' + (typeof m.getCompileCacheDir === 'function' ? m.getCompileCacheDir() : 'none')));`;
    for (let run = 0; run < 2; run++) {
      const out = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      const [answer, dir] = out.split(' ');
      assert.equal(answer, '42');
      // Node's cache, when it has one, is ours and never its shared default
      assert.ok(dir === 'none' || dir === 'undefined' || dir === cacheFolder(), dir);
    }
  });

  /** Runs `file` through loadBundle in a process of its own; what it printed. */
  const loadApart = (f: string): string => {
    const script = `const { loadBundle } = require(${JSON.stringify(require.resolve('../../src/host/compileCache'))});
process.stdout.write(String(loadBundle(${JSON.stringify(f)}, module).answer));`;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    return r.stdout;
  };
  const dataOf = (name: string): string[] => {
    const dir = cacheFolder();
    return dir ? fs.readdirSync(dir).filter((f) => f.startsWith(`${name}.`) && f.endsWith('.v8cache')).map((f) => path.join(dir, f)) : [];
  };

  /** Waits until a file written now has settled: data of a bundle changed moments ago is not kept. */
  const settle = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2100);
  const ownCache = () => typeof (Module as unknown as { enableCompileCache?: unknown }).enableCompileCache === 'function' || cacheFolder() === undefined;

  it('on Node without its own cache (20), keeps the data per bundle file: filed once the file settled, then used, and a changed bundle never runs old code', function () {
    this.timeout(20000);
    const name = `bundle-${path.basename(tree.root)}`;
    const f = path.join(tree.root, `${name}.js`);
    fs.writeFileSync(f, 'exports.answer = 40 + 2;\n');
    try {
      assert.equal(loadApart(f), '42');
      if (ownCache()) {
        // Node keeps the cache itself (the test above), or there is no folder of ours: no data of ours
        assert.deepEqual(dataOf(name), []);
        return;
      }
      // written moments ago: it may change again within its timestamps' resolution
      assert.deepEqual(dataOf(name), []);
      settle();
      assert.equal(loadApart(f), '42');
      const [data] = dataOf(name);
      assert.ok(data, 'data filed at exit');
      assert.equal(fs.statSync(data).mode & 0o777, 0o600);
      const filed = fs.statSync(data, { bigint: true });
      // taken, not filed again (refused data would be)
      assert.equal(loadApart(f), '42');
      assert.deepEqual(dataOf(name), [data]);
      assert.equal(fs.statSync(data, { bigint: true }).mtimeNs, filed.mtimeNs);
      // the same length, other code: V8 checks the length only, the name the file's identity
      fs.writeFileSync(f, 'exports.answer = 40 + 3;\n');
      assert.equal(loadApart(f), '43');
      settle();
      assert.equal(loadApart(f), '43');
      const now = dataOf(name);
      assert.equal(now.length, 1, 'the older data dropped');
      assert.notEqual(now[0], data);
      // data that is not V8's is refused (the bundle compiles as usual) and filed again
      fs.writeFileSync(now[0], 'not code cache data');
      assert.equal(loadApart(f), '43');
      assert.notEqual(fs.readFileSync(now[0], 'utf8'), 'not code cache data');
      // data another user's program could have written (group-writable) or linked to is not used, and is filed afresh
      for (const meddle of [() => fs.chmodSync(now[0], 0o620), () => fs.linkSync(now[0], `${now[0]}.link`)]) {
        const ino = fs.statSync(now[0]).ino;
        meddle();
        assert.equal(loadApart(f), '43');
        assert.notEqual(fs.statSync(now[0]).ino, ino, 'filed afresh');
        assert.equal(fs.statSync(now[0]).mode & 0o777, 0o600);
        fs.rmSync(`${now[0]}.link`, { force: true });
      }
    } finally {
      for (const d of dataOf(name)) {
        fs.rmSync(d, { force: true });
      }
    }
  });

  it('on Node 20, two copies of the CLI keep their own data of the same bundle', function () {
    this.timeout(20000);
    if (ownCache()) {
      return;
    }
    const name = `bundle-${path.basename(tree.root)}`;
    const copies = ['one', 'two'].map((c) => path.join(tree.root, c, `${name}.js`));
    for (const [k, f] of copies.entries()) {
      fs.mkdirSync(path.dirname(f));
      fs.writeFileSync(f, `exports.answer = 40 + ${k};\n`);
    }
    try {
      settle();
      assert.deepEqual(copies.map(loadApart), ['40', '41']);
      assert.equal(dataOf(name).length, 2);
      const kept = dataOf(name).map((d) => fs.statSync(d).ino);
      // each copy takes its own data, and neither drops the other's
      assert.deepEqual(copies.map(loadApart), ['40', '41']);
      assert.deepEqual(dataOf(name).map((d) => fs.statSync(d).ino), kept);
    } finally {
      for (const d of dataOf(name)) {
        fs.rmSync(d, { force: true });
      }
    }
  });

  it("on Node 20, the built CLI sets its search flags for V8 before fs_glob's bundle compiles, and none for fs_list; the data a call files is taken by the next", function () {
    this.timeout(30000);
    const built = path.join(__dirname, '..', '..', '..', 'dist');
    if (ownCache() || !fs.existsSync(path.join(built, 'cli.js'))) {
      assert.ok(ownCache(), 'dist/cli.js is missing: run `npm run build` first (npm test does)');
      return;
    }
    // a copy of its own (its data is filed apart), settled: data of a file changed moments ago is not kept
    const copy = path.join(tree.root, 'cli');
    fs.mkdirSync(copy);
    for (const f of ['cli.js', 'cli-fs_glob.js', 'cli-fs_list.js']) {
      fs.copyFileSync(path.join(built, f), path.join(copy, f));
    }
    // the copy's data: what other copies (the build's own) filed is there before it runs
    const others = new Set([...dataOf('cli-fs_glob'), ...dataOf('cli-fs_list')]);
    const ours = () => dataOf('cli-fs_glob').filter((d) => !others.has(d));
    // the flags set, and the bundles compiled, in order (a preload records both)
    const spy = path.join(tree.root, 'spy.cjs');
    fs.writeFileSync(
      spy,
      `const v8 = require('node:v8'); const vm = require('node:vm'); const seen = [];
const set = v8.setFlagsFromString; v8.setFlagsFromString = (f) => { seen.push('flag ' + f); return set(f); };
const S = vm.Script; vm.Script = class extends S { constructor(src, o) { seen.push('compile ' + require('node:path').basename(String(o && o.filename))); super(src, o); } };
process.on('exit', () => require('node:fs').writeSync(2, JSON.stringify(seen)));`,
    );
    const call = (tool: string, input: string, spied = false): string => {
      const r = spawnSync(process.execPath, [...(spied ? ['-r', spy] : []), path.join(copy, 'cli.js'), tool, '--root', tree.root, '--input', input], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /bundle\.js/);
      return r.stderr;
    };
    try {
      settle();
      // Node 20's V8 (11.x) alone gets them
      const flags = process.versions.v8.startsWith('11.') ? ONE_CALL_V8_FLAGS.map((f) => `flag ${f}`) : [];
      assert.deepEqual(JSON.parse(call('fs_glob', '{"pattern":"*.js"}', true)), [...flags, 'compile cli-fs_glob.js']);
      assert.deepEqual(JSON.parse(call('fs_list', '{"path":"."}', true)), ['compile cli-fs_list.js']);
      const [data] = ours();
      assert.ok(data, 'data filed at exit');
      const ino = fs.statSync(data).ino;
      // V8 refuses data made under other flags: flags set after the compile would file it again on every call
      call('fs_glob', '{"pattern":"*.js"}');
      call('fs_glob', '{"pattern":"*.js"}');
      assert.deepEqual(ours(), [data]);
      assert.equal(fs.statSync(data).ino, ino, 'taken, not filed again');
    } finally {
      for (const d of [...dataOf('cli-fs_glob'), ...dataOf('cli-fs_list')].filter((d) => !others.has(d))) {
        fs.rmSync(d, { force: true });
      }
    }
  });

  it('tells a text that may call import() from one that cannot', () => {
    for (const t of ['import("./a.js")', 'x = import ("a")', 'f(import(\n"a"))', '\timport\t(a)', 'await import(`./${n}`)']) {
      assert.equal(mayImport(t), true, t);
    }
    for (const t of ['', 'import_node_fs.readFileSync(x)', 'reimport(x)', '$import(x)', 'var imports = 1; important()', 'import', 'x.import_(y)']) {
      assert.equal(mayImport(t), false, t);
    }
  });

  it('uses no cache folder that another user could write to', () => {
    if (process.getuid === undefined) {
      // no owner to check (Windows): no cache folder of ours at all
      assert.equal(cacheFolder(), undefined);
      return;
    }
    const dir = cacheFolder()!;
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
    fs.chmodSync(dir, 0o777);
    try {
      assert.equal(cacheFolder(), undefined);
      assert.equal((loadBundle(file, module) as { answer: number }).answer, 42);
    } finally {
      fs.chmodSync(dir, 0o700);
    }
  });
});

// The extension's own code, loaded by its small entry in the extension host (src/extension.ts).
describe('the extension loaded through cached data in a process that lives on', () => {
  let tree: { root: string; cleanup(): void };
  beforeEach(() => {
    tree = tempTree({ 'extension-main.js': 'exports.answer = 40 + 2;\n' });
  });
  afterEach(() => tree.cleanup());

  /**
   * Loads the bundle with loadBundleInHost in a process of its own, as the extension host
   * would, where Node's process-wide cache may not be turned on; then files the data when
   * it may. Prints the answer and whether data was to be filed.
   */
  const loadInHost = (dir: string | undefined): { answer: string; kept: boolean } => {
    const script = `const m = require('node:module');
m.enableCompileCache = () => { throw new Error('the process-wide cache was turned on'); };
const { loadBundleInHost } = require(${JSON.stringify(require.resolve('../../src/host/compileCache'))});
const r = loadBundleInHost(${JSON.stringify(path.join(tree.root, 'extension-main.js'))}, module, ${JSON.stringify(dir)});
if (r.keep) r.keep();
process.stdout.write(r.exports.answer + ' ' + (r.keep ? 'kept' : 'used'));`;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    const [answer, how] = r.stdout.split(' ');
    return { answer, kept: how === 'kept' };
  };
  const settle = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2100);

  it('files the data when told, then runs from it; a changed bundle never runs old code; without a folder it is required as usual', function () {
    this.timeout(20000);
    const dir = ownFolder(path.join(tree.root, 'storage', 'code-cache'));
    if (process.getuid === undefined) {
      assert.equal(dir, undefined);
      assert.deepEqual(loadInHost(dir), { answer: '42', kept: false });
      return;
    }
    assert.ok(dir);
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
    const bundle = path.join(tree.root, 'extension-main.js');
    // changed moments ago (its time is a minute ahead): it may change again within its timestamps' resolution, so nothing is filed
    const now = Date.now() / 1000;
    fs.utimesSync(bundle, now, now + 60);
    assert.deepEqual(loadInHost(dir), { answer: '42', kept: false });
    assert.deepEqual(fs.readdirSync(dir), []);
    fs.utimesSync(bundle, now - 60, now - 60);
    // an older version's data (another copy's folder), a write cut short long ago, and one still going
    const older = path.join(dir, 'extension-main.0ld.v20.0.0-x64.1-2-3-4-5.v8cache');
    const cutShort = `${older}.123.tmp`;
    const going = path.join(dir, 'extension-main.0ld.v20.0.0-x64.1-2-3-4-6.v8cache.124.tmp');
    for (const f of [older, cutShort, going]) {
      fs.writeFileSync(f, 'data', { mode: 0o600 });
    }
    fs.utimesSync(cutShort, now - 120, now - 120);
    settle();
    assert.deepEqual(loadInHost(dir), { answer: '42', kept: true });
    assert.ok(fs.existsSync(going), 'a write still going is left alone');
    fs.rmSync(going);
    const files = fs.readdirSync(dir);
    assert.equal(files.length, 1, files.join(', '));
    assert.match(files[0], /^extension-main\..*\.v8cache$/);
    assert.equal(fs.statSync(path.join(dir, files[0])).mode & 0o777, 0o600);
    // the next process runs from the data: nothing to file
    assert.deepEqual(loadInHost(dir), { answer: '42', kept: false });
    assert.deepEqual(fs.readdirSync(dir), files);
    // the same length, other code (an update): the new code runs, and its data replaces the old
    fs.writeFileSync(bundle, 'exports.answer = 40 + 3;\n');
    settle();
    assert.deepEqual(loadInHost(dir), { answer: '43', kept: true });
    assert.equal(fs.readdirSync(dir).length, 1);
    assert.notDeepEqual(fs.readdirSync(dir), files);
    // no folder (a remote or virtual storage, or one that is not ours): required as usual
    assert.deepEqual(loadInHost(undefined), { answer: '43', kept: false });
    assert.deepEqual(loadBundleInHost(bundle, module, undefined), { exports: { answer: 43 } });
  });

  it("gives stack traces the bundle's own lines and columns", () => {
    const source = "exports.f = () => { throw new Error('from the bundle'); };\n";
    fs.writeFileSync(path.join(tree.root, 'extension-main.js'), source);
    const dir = ownFolder(path.join(tree.root, 'code-cache')) ?? path.join(tree.root, 'code-cache');
    fs.mkdirSync(dir, { recursive: true });
    const { exports } = loadBundleInHost(path.join(tree.root, 'extension-main.js'), module, dir);
    try {
      assert.throws(() => (exports as { f(): void }).f(), (e: Error) => {
        assert.ok(e.stack?.includes(`extension-main.js:1:${source.indexOf('new Error') + 1}`), e.stack);
        return true;
      });
    } finally {
      delete requireCache[path.join(tree.root, 'extension-main.js')];
    }
  });

  it('keeps data only in a folder of its own: not one others may open, not a link', () => {
    if (process.getuid === undefined) {
      assert.equal(ownFolder(path.join(tree.root, 'any')), undefined);
      return;
    }
    const open = path.join(tree.root, 'open');
    fs.mkdirSync(open, { mode: 0o755 });
    fs.chmodSync(open, 0o755);
    assert.equal(ownFolder(open), undefined);
    const mine = path.join(tree.root, 'a', 'b');
    assert.equal(ownFolder(mine), mine);
    assert.equal(fs.statSync(path.join(tree.root, 'a')).mode & 0o777, 0o700);
    fs.symlinkSync(mine, path.join(tree.root, 'link'));
    assert.equal(ownFolder(path.join(tree.root, 'link')), undefined);
    // a file where the folder should be
    fs.writeFileSync(path.join(tree.root, 'file'), '');
    assert.equal(ownFolder(path.join(tree.root, 'file')), undefined);
  });
});
