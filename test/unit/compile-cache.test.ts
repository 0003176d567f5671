import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import { cacheFolder, loadBundle, mayImport } from '../../src/host/compileCache';
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
