import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readLocalDirectory, readLocalNames } from '../../src/host/localDirectory';
import { tempTree } from './helpers';

describe('local folders read by name', () => {
  it('give every entry the type a read with types gives, looked up when asked, links not followed', async () => {
    const tree = tempTree({ 'dir/a.txt': 'a', 'dir/sub/x': 'x', 'dir/.gitignore': '*.log\n' });
    try {
      const dir = path.join(tree.root, 'dir');
      fs.symlinkSync('sub', path.join(dir, 'link-to-sub'));
      fs.symlinkSync('nowhere', path.join(dir, 'dangling'));
      const typed = (await readLocalDirectory(dir)).map((e) => ({ name: e.name, type: e.type }));
      const byName = await readLocalDirectory(dir, 0);
      fs.rmSync(path.join(dir, 'a.txt'));
      const seen = byName.map((e) => ({ name: e.name, type: e.type }));
      const sort = <T extends { name: string }>(xs: T[]): T[] => [...xs].sort((x, y) => (x.name < y.name ? -1 : 1));
      // a.txt was removed after the read and before its type was asked: it is no longer a file
      assert.deepEqual(sort(seen), sort(typed.map((e) => (e.name === 'a.txt' ? { ...e, type: 'other' } : e))));
      assert.deepEqual(sort(typed).map((e) => `${e.name}:${e.type}`), ['.gitignore:file', 'a.txt:file', 'dangling:symlink', 'link-to-sub:symlink', 'sub:directory']);
    } finally {
      tree.cleanup();
    }
  });

  it('give a walk the names alone and each type by index when asked, the same answer each time', async () => {
    const tree = tempTree({ 'dir/a.txt': 'a', 'dir/sub/x': 'x', 'dir/b.txt': 'b' });
    try {
      const dir = path.join(tree.root, 'dir');
      fs.symlinkSync('sub', path.join(dir, 'link-to-sub'));
      const typed = await readLocalNames(dir);
      assert.ok(Array.isArray(typed), 'a small folder comes with its types');
      const named = await readLocalNames(dir, 0);
      assert.ok(!Array.isArray(named));
      const at = (name: string) => named.names.indexOf(name);
      assert.equal(named.type(at('b.txt')), 'file');
      fs.rmSync(path.join(dir, 'a.txt'));
      fs.rmSync(path.join(dir, 'b.txt'));
      fs.mkdirSync(path.join(dir, 'b.txt'));
      // asked once before the change: kept; first asked after it: as it is now
      assert.equal(named.type(at('b.txt')), 'file');
      assert.equal(named.type(at('a.txt')), 'other');
      assert.deepEqual(
        [...named.names].sort().map((n) => `${n}:${named.type(at(n))}`),
        ['a.txt:other', 'b.txt:file', 'link-to-sub:symlink', 'sub:directory'],
      );
    } finally {
      tree.cleanup();
    }
  });
});
