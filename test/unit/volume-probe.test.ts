import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { probeNames } from '../../src/host/volume';
import { tempTree } from './helpers';

// The probe says what the folder's volume does, whatever the platform: these run on Linux
// (ext4: strict), in the Windows suite (Wine folds case as NTFS does) and on a Mac alike.
// What the volume does is asked here directly, as a user of it would see it.

const NFD = 'cafe\u0301.txt';
const NFC = 'caf\u00e9.txt';

/** Whether `other` finds the entry `name` in `dir`: the same file, as the volume answers. */
function finds(dir: string, name: string, other: string): boolean {
  const a = fs.lstatSync(path.join(dir, name));
  const b = fs.lstatSync(path.join(dir, other), { throwIfNoEntry: false });
  return b !== undefined && a.ino === b.ino && a.dev === b.dev;
}

describe('volume: the probe says what the folder does', () => {
  let t: { root: string; cleanup(): void };
  afterEach(() => t.cleanup());

  it('for case, from a name of the folder, leaving nothing behind', () => {
    t = tempTree({ 'App.ts': 'a' });
    assert.equal(probeNames(t.root).foldsCase, finds(t.root, 'App.ts', 'aPP.TS'));
    assert.deepEqual(fs.readdirSync(t.root), ['App.ts']);
  });

  it('for normalisation, from a name of the folder', () => {
    t = tempTree({ [NFD]: 'c' });
    const stored = fs.readdirSync(t.root)[0];
    assert.equal(probeNames(t.root).foldsNormalization, finds(t.root, stored, stored === NFD ? NFC : NFD));
  });

  it('in an empty folder, with a name of its own made and removed at once', () => {
    t = tempTree({});
    const c = probeNames(t.root);
    const [foldsCase, foldsNormalization] = [c.foldsCase, c.foldsNormalization];
    assert.deepEqual(fs.readdirSync(t.root), []);
    fs.writeFileSync(path.join(t.root, 'Probe.txt'), 'x');
    fs.writeFileSync(path.join(t.root, NFC), 'x');
    assert.equal(foldsCase, finds(t.root, 'Probe.txt', 'pROBE.TXT'));
    assert.equal(foldsNormalization, finds(t.root, fs.readdirSync(t.root).find((n) => n.startsWith('caf'))!, NFD));
  });

  it('each question is asked only when its answer is read: a project of plain names is never asked about normalisation', () => {
    t = tempTree({ 'a.ts': 'a' });
    const made: string[] = [];
    const watcher = fs.watch(t.root, (_e, name) => name && made.push(String(name)));
    try {
      assert.equal(typeof probeNames(t.root).foldsCase, 'boolean');
    } finally {
      watcher.close();
    }
    assert.deepEqual(made, []);
  });

  it('a path that cannot be asked (not a folder, nothing to list, nothing to make there) answers no', () => {
    t = tempTree({ 'not-a-folder': 'x' });
    const c = probeNames(path.join(t.root, 'not-a-folder'));
    assert.equal(c.foldsCase, false);
    assert.equal(c.foldsNormalization, false);
  });
});
