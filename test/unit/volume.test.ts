import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EXACT_NAMES, FOLDING_NAMES, CASE_FOLDING_NAMES } from '../../src/core/names';
import { neighboursEol } from '../../src/host/lineEndings';
import { probeNames, Volumes } from '../../src/host/volume';
import { revertStates } from '../../src/services/journal';
import { tempTree } from './helpers';

// This machine's temporary folder is a strict volume (ext4, tmpfs): what a probe finds
// there is asserted; a volume that folds is the macOS suite's (a FUSE mount). How paths are
// spelled on a folding volume is asserted here with the comparison given, which the
// listing of a strict folder answers the same way.

const NFD = 'cafe\u0301.txt';
const NFC = 'caf\u00e9.txt';

describe('volume: a strict volume, asked', () => {
  let t: { root: string; cleanup(): void };
  afterEach(() => t.cleanup());

  it('a folder listing both spellings compares them apart, whatever links join them', () => {
    t = tempTree({ 'Readme.md': 'a' });
    // a hard link under the other spelling would pass a check of inode numbers alone
    fs.linkSync(path.join(t.root, 'Readme.md'), path.join(t.root, 'rEADME.MD'));
    assert.equal(probeNames(t.root).foldsCase, false);
  });

  it('this machine\'s temporary folder is strict, and the probe says so from its own names', () => {
    t = tempTree({ 'App.ts': 'a', [NFD]: 'c' });
    const c = probeNames(t.root);
    assert.equal(c.foldsCase, false);
    assert.equal(c.foldsNormalization, false);
  });
});

describe('volume: paths spelled as on disk', () => {
  let t: { root: string; cleanup(): void };
  afterEach(() => t.cleanup());

  it('a folding volume gives each existing name its spelling on disk, and the missing rest as given', () => {
    t = tempTree({ 'Src/App.ts': 'a', [`Docs/${NFD}`]: 'c' });
    const v = new Volumes();
    assert.equal(v.spelled(path.join(t.root, 'src', 'APP.TS'), t.root, FOLDING_NAMES), path.join(t.root, 'Src', 'App.ts'));
    assert.equal(v.spelled(path.join(t.root, 'docs', NFC), t.root, FOLDING_NAMES), path.join(t.root, 'Docs', NFD));
    assert.equal(v.spelled(path.join(t.root, 'src', 'new', 'File.ts'), t.root, FOLDING_NAMES), path.join(t.root, 'Src', 'new', 'File.ts'));
    // NTFS folds case, not normalisation: the other form is another name
    assert.equal(v.spelled(path.join(t.root, 'docs', NFC), t.root, CASE_FOLDING_NAMES), path.join(t.root, 'Docs', NFC));
  });

  it('a strict volume gives the path as it is, without reading a folder', () => {
    t = tempTree({ 'Src/App.ts': 'a' });
    const v = new Volumes();
    assert.equal(v.spelled(path.join(t.root, 'src', 'app.ts'), t.root, EXACT_NAMES), path.join(t.root, 'src', 'app.ts'));
  });

  it('where two names fold alike (a strict folder read as folding), the entry the path finds is the one given', () => {
    t = tempTree({ 'Src/App.ts': 'a', 'Src/APP.ts': 'b' });
    const v = new Volumes();
    assert.equal(v.spelled(path.join(t.root, 'Src', 'APP.ts'), t.root, FOLDING_NAMES), path.join(t.root, 'Src', 'APP.ts'));
    assert.equal(v.spelled(path.join(t.root, 'Src', 'App.ts'), t.root, FOLDING_NAMES), path.join(t.root, 'Src', 'App.ts'));
  });

  it('a listing is read again once its folder changed', () => {
    t = tempTree({ 'Src/App.ts': 'a' });
    const v = new Volumes();
    assert.equal(v.spelled(path.join(t.root, 'src', 'app.ts'), t.root, FOLDING_NAMES), path.join(t.root, 'Src', 'App.ts'));
    fs.renameSync(path.join(t.root, 'Src', 'App.ts'), path.join(t.root, 'Src', 'app.TS'));
    // a folder's time moves with the rename (or within its resolution: the listing is then read again once it does)
    const dir = path.join(t.root, 'Src');
    const later = new Date(fs.statSync(dir).mtimeMs + 5000);
    fs.utimesSync(dir, later, later);
    assert.equal(v.spelled(path.join(t.root, 'src', 'app.ts'), t.root, FOLDING_NAMES), path.join(t.root, 'Src', 'app.TS'));
  });

  it('a path under a workspace folder takes its folder comparison; an outside one its own volume', () => {
    t = tempTree({ 'a.txt': 'a' });
    const v = new Volumes();
    const roots = [{ path: t.root, names: FOLDING_NAMES }];
    assert.equal(v.of(path.join(t.root, 'x', 'y'), roots), FOLDING_NAMES);
    assert.equal(v.of('/', roots).foldsCase, false);
  });
});

describe('line endings of a new file, from the files beside it', () => {
  let t: { root: string; cleanup(): void };
  afterEach(() => t.cleanup());

  it('takes the line ending most files of its folder start with', () => {
    t = tempTree({ 'win/a.txt': 'a\r\nb\r\n', 'win/b.txt': 'c\r\n', 'win/c.txt': 'e\n', 'unix/a.txt': 'a\n', 'unix/b.txt': 'b\n' });
    assert.equal(neighboursEol(path.join(t.root, 'win', 'new.txt'), t.root), 'CRLF');
    assert.equal(neighboursEol(path.join(t.root, 'unix', 'new.txt'), t.root), 'LF');
  });

  it('asks the folder above when its own has no text file, never above the workspace folder; binaries and folders say nothing', () => {
    t = tempTree({ 'a.txt': 'a\r\n', 'b.txt': 'b\r\n', 'deep/er/img.bin': new Uint8Array([0x89, 0x50, 0x0a, 0x00, 0x0d, 0x0a]), 'deep/er/sub/x.txt': 'x\n' });
    assert.equal(neighboursEol(path.join(t.root, 'deep', 'er', 'new.txt'), t.root), 'CRLF');
    assert.equal(neighboursEol(path.join(t.root, 'deep', 'er', 'new.txt'), path.join(t.root, 'deep')), undefined);
  });

  it('a tie, or a folder of files without a line break, says nothing', () => {
    t = tempTree({ 'a.txt': 'a\r\n', 'b.txt': 'b\n', 'c.txt': 'one line' });
    assert.equal(neighboursEol(path.join(t.root, 'new.txt'), t.root), undefined);
  });

  it('a FIFO beside it is never waited on', () => {
    t = tempTree({ 'a.txt': 'a\r\n' });
    execFileSync('mkfifo', [path.join(t.root, 'pipe')]);
    assert.equal(neighboursEol(path.join(t.root, 'new.txt'), t.root), 'CRLF');
  });
});

describe('history: a rename of a name spelling is reverted as one file', () => {
  it('gives one state: the text back, and the old spelling back', () => {
    const states = revertStates([
      {
        tool: 'fs_apply_patch',
        summary: 'patch',
        origin: 'chat',
        at: 1,
        files: [{ path: '/w/Src/app.ts', display: 'Src/app.ts', action: 'move', from: { path: '/w/Src/App.ts', display: 'Src/App.ts' }, respell: true, before: 'b = 2\n', after: 'b = 6\n', encoding: 'utf-8', added: 1, removed: 1, userEdited: false, kept: true }],
      },
    ]);
    assert.deepEqual(states, [{ path: '/w/Src/App.ts', display: 'Src/App.ts', restore: 'b = 2\n', wrote: 'b = 6\n', encoding: 'utf-8', respelledAs: { path: '/w/Src/app.ts', display: 'Src/app.ts' } }]);
  });
});
