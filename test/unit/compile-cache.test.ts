import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import { cacheFolder, loadBundle } from '../../src/host/compileCache';
import { tempTree } from './helpers';

// The CLI's tool bundles through Node's compile cache (22.1 and later), in a folder of our own.
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
