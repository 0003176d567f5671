import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readLocalDirectory } from '../../src/host/localDirectory';
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
});
