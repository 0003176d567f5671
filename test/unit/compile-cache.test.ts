import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import { cacheFolder, loadBundle } from '../../src/host/compileCache';
import { tempTree } from './helpers';

// The CLI's tool bundles through V8's code cache (Node 20; from 22.1 Node's own cache).
const nodeOwnCache = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
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
    const dir = cacheFolder();
    for (const f of dir ? fs.readdirSync(dir).filter((n) => n.startsWith('bundle.js.')) : []) {
      fs.rmSync(path.join(dir!, f), { force: true });
    }
    tree.cleanup();
  });

  it('gives the module as require would, and undefined for a missing file', () => {
    const b = loadBundle(file, module)!;
    assert.deepEqual(b.exports, { answer: 42, dir: tree.root, os: process.platform });
    assert.equal(loadBundle(path.join(tree.root, 'missing.js'), module), undefined);
    // a second load is the same module
    assert.equal(loadBundle(file, module)!.exports, b.exports);
  });

  it('compiles from the cache once saved, and never from the cache of an older build of the bundle', () => {
    const first = loadBundle(file, module)!;
    if (nodeOwnCache) {
      // Node keeps the cache itself
      assert.ok((Module as unknown as { getCompileCacheDir(): string | undefined }).getCompileCacheDir());
      return;
    }
    assert.equal(first.fromCache, false);
    first.save();
    const dir = cacheFolder()!;
    assert.equal(fs.readdirSync(dir).filter((n) => n.startsWith('bundle.js.')).length, 1);
    delete requireCache[file];
    const second = loadBundle(file, module)!;
    assert.equal(second.fromCache, true);
    assert.equal((second.exports as { answer: number }).answer, 42);
    delete requireCache[file];
    // a rebuilt bundle (same length, other content and time) meets no cache of the old one
    fs.writeFileSync(file, "exports.answer = 40 + 3;\nexports.dir = __dirname;\nexports.os = require('node:os').platform();\n");
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const rebuilt = loadBundle(file, module)!;
    assert.equal(rebuilt.fromCache, false);
    assert.equal((rebuilt.exports as { answer: number }).answer, 43);
    rebuilt.save();
    assert.equal(fs.readdirSync(dir).filter((n) => n.startsWith('bundle.js.')).length, 1, 'the older cache is removed');
  });

  it('uses no cache folder that another user could write to', () => {
    if (process.getuid === undefined) {
      // no owner to check (Windows): no cache folder of ours at all
      assert.equal(cacheFolder(), undefined);
      return;
    }
    const dir = cacheFolder()!;
    fs.chmodSync(dir, 0o777);
    try {
      assert.equal(cacheFolder(), undefined);
      const b = loadBundle(file, module)!;
      b.save();
      assert.equal(b.fromCache, false);
      assert.equal((b.exports as { answer: number }).answer, 42);
      assert.deepEqual(fs.readdirSync(dir).filter((n) => n.startsWith('bundle.js.')), []);
    } finally {
      fs.chmodSync(dir, 0o700);
    }
  });
});
