import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NEVER_CANCELLED } from '../../src/core/cancel';
import { textEdits } from '../../src/core/diff';
import { APPLY_FSYNCS_IN_FLIGHT } from '../../src/core/limits';
import { applyOnDisk, NODE_APPLY_IO, type ApplyHandle, type ApplyIo } from '../../src/host/nodeApply';
import { StaleError, type FileChange } from '../../src/host/workspace';
import { tempTree } from './helpers';

// The order a change on node:fs puts things on the disk: every temporary file written and
// synced before the first rename, the syncs several at a time, the folders synced after.

const opts = { signal: NEVER_CANCELLED, saveIfClean: true, label: 'test' };

type Op = { op: string; path: string };

/** node:fs as the change uses it, each operation logged with the real path it reached; `failSync` fails the sync of the n-th file opened for writing. */
function recordingIo(failSync?: number, slowSyncMs = 0): { io: ApplyIo; ops: Op[]; maxInFlight: () => number } {
  const ops: Op[] = [];
  let opened = 0;
  let inFlight = 0;
  let most = 0;
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      // a descriptor path under /proc/self/fd of a file not yet there: its folder's real path and the name
      return path.join(fs.realpathSync(path.dirname(p)), path.basename(p));
    }
  };
  const wrap = (h: ApplyHandle, p: string, n: number | undefined): ApplyHandle => ({
    fd: h.fd,
    stat: () => h.stat(),
    readFile: () => h.readFile(),
    writeFile: (d) => h.writeFile(d),
    truncate: (l) => h.truncate(l),
    chmod: (m) => h.chmod(m),
    chown: (u, g) => h.chown(u, g),
    sync: async () => {
      ops.push({ op: 'fsync', path: p });
      inFlight++;
      most = Math.max(most, inFlight);
      try {
        if (slowSyncMs) {
          await new Promise((r) => setTimeout(r, slowSyncMs));
        }
        if (n !== undefined && n === failSync) {
          throw Object.assign(new Error('EIO: injected fault, fsync'), { code: 'EIO' });
        }
        await h.sync();
      } finally {
        inFlight--;
      }
    },
    close: () => h.close(),
  });
  const io: ApplyIo = {
    ...NODE_APPLY_IO,
    open: async (p, flags, mode) => {
      const at = real(p);
      const writing = (flags & fs.constants.O_WRONLY) !== 0;
      const h = await NODE_APPLY_IO.open(p, flags, mode);
      return wrap(h, at, writing ? ++opened : undefined);
    },
    rename: async (a, b) => {
      ops.push({ op: 'rename', path: `${real(a)} -> ${real(b)}` });
      return NODE_APPLY_IO.rename(a, b);
    },
  };
  return { io, ops, maxInFlight: () => most };
}

function listing(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const abs = path.join(dir, name);
      out.push(`${path.relative(root, abs)}${fs.statSync(abs).isDirectory() ? '/' : `: ${fs.readFileSync(abs, 'utf8')}`}`);
      if (fs.statSync(abs).isDirectory()) {
        walk(abs);
      }
    }
  };
  walk(root);
  return out;
}

/** node:fs with `meddle` run once: at the `atSync`-th sync of a file the change writes (with `atSync` the count it writes plus one: every file read and staged, none renamed), or after the `afterRename`-th rename. */
function meddlingIo(meddle: () => void, atSync: number, afterRename?: number): ApplyIo {
  let syncs = 0;
  let renames = 0;
  return {
    ...NODE_APPLY_IO,
    open: async (q, flags, mode) => {
      const h = await NODE_APPLY_IO.open(q, flags, mode);
      if ((flags & fs.constants.O_CREAT) === 0) {
        return h;
      }
      return {
        ...h,
        fd: h.fd,
        stat: () => h.stat(),
        readFile: () => h.readFile(),
        writeFile: (d) => h.writeFile(d),
        truncate: (l) => h.truncate(l),
        chmod: (m) => h.chmod(m),
        chown: (u, g) => h.chown(u, g),
        close: () => h.close(),
        sync: async () => {
          if (++syncs === atSync && afterRename === undefined) {
            meddle();
          }
          return h.sync();
        },
      };
    },
    rename: async (a, b) => {
      await NODE_APPLY_IO.rename(a, b);
      if (++renames === afterRename) {
        meddle();
      }
    },
  };
}

describe('the order a change on node:fs syncs and renames in', () => {
  const FILES = 40;
  let tree: { root: string; cleanup(): void };
  const p = (rel: string) => path.join(tree.root, rel);
  const changes = (): FileChange[] => [
    ...Array.from({ length: FILES }, (_, i): FileChange => ({ kind: 'edit', path: p(`d${i % 4}/f${i}.txt`), base: `old ${i}\n`, edits: textEdits(`old ${i}\n`, `new ${i}\n`) })),
    { kind: 'create', path: p('fresh/deep/new.txt'), bytes: Buffer.from('created\n'), overwrite: false },
  ];

  beforeEach(() => {
    tree = tempTree(Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`d${i % 4}/f${i}.txt`, `old ${i}\n`])));
  });
  afterEach(() => tree.cleanup());

  it('syncs every temporary file before the first rename, then the folders that got new names, once each', async () => {
    const { io, ops } = recordingIo();
    await applyOnDisk(changes(), opts, io);
    for (let i = 0; i < FILES; i++) {
      assert.equal(fs.readFileSync(p(`d${i % 4}/f${i}.txt`), 'utf8'), `new ${i}\n`);
    }
    const firstRename = ops.findIndex((o) => o.op === 'rename');
    const lastRename = ops.length - 1 - [...ops].reverse().findIndex((o) => o.op === 'rename');
    const fileSyncs = ops.slice(0, firstRename).filter((o) => o.op === 'fsync');
    assert.equal(fileSyncs.length, FILES + 1, 'one sync per file written, all before the first rename');
    assert.ok(fileSyncs.every((o) => o.path.endsWith('.tmp')));
    assert.equal(ops.filter((o) => o.op === 'rename').length, FILES + 1);
    const folderSyncs = ops.slice(lastRename + 1).filter((o) => o.op === 'fsync').map((o) => path.relative(tree.root, o.path) || '.');
    assert.deepEqual(folderSyncs.sort(), ['.', 'd0', 'd1', 'd2', 'd3', 'fresh', 'fresh/deep'].sort());
    assert.ok(!ops.slice(firstRename, lastRename).some((o) => o.op === 'fsync'), 'no sync between the renames');
  });

  it('keeps several syncs in flight, never more than the limit', async () => {
    const { io, maxInFlight } = recordingIo(undefined, 5);
    await applyOnDisk(changes(), opts, io);
    assert.ok(maxInFlight() > 1, `at most ${maxInFlight()} at once`);
    assert.ok(maxInFlight() <= APPLY_FSYNCS_IN_FLIGHT, `${maxInFlight()} at once`);
  });

  for (const k of [1, 7, FILES + 1]) {
    it(`when the sync of the temporary file ${k} fails: nothing renamed, every temporary file and new folder removed`, async () => {
      const before = listing(tree.root);
      const { io, ops } = recordingIo(k);
      await assert.rejects(applyOnDisk(changes(), opts, io), /EIO: injected fault \(writing /);
      assert.equal(ops.filter((o) => o.op === 'rename').length, 0);
      assert.deepEqual(listing(tree.root), before);
    });
  }

  it('a folder that fails its sync after every rename leaves the change landed', async () => {
    const { io: base, ops } = recordingIo();
    const io: ApplyIo = {
      ...base,
      open: async (q, flags, mode) => {
        const h = await base.open(q, flags, mode);
        return (flags & fs.constants.O_DIRECTORY) !== 0 && path.basename(q) === 'd2' ? { ...h, sync: async () => Promise.reject(Object.assign(new Error('EIO: injected'), { code: 'EIO' })) } : h;
      },
    };
    const report = await applyOnDisk(changes(), opts, io);
    assert.deepEqual(report.savedCopiesLeft, []);
    assert.equal(fs.readFileSync(p('d2/f2.txt'), 'utf8'), 'new 2\n');
    assert.equal(fs.readFileSync(p('fresh/deep/new.txt'), 'utf8'), 'created\n');
    assert.ok(ops.some((o) => o.op === 'rename'));
    assert.ok(!listing(tree.root).some((l) => /\.(tmp|saved)/.test(l)), 'no temporary file or saved copy left');
  });

  it('writes a path an earlier step of the change deleted or made a folder of in its turn, on what that step left', async () => {
    const { io } = recordingIo();
    const steps: FileChange[] = [
      { kind: 'edit', path: p('d0/f0.txt'), base: 'old 0\n', edits: textEdits('old 0\n', 'edited, then moved\n') },
      { kind: 'rename', from: p('d0/f0.txt'), to: p('d0/g0.txt'), overwrite: false },
      { kind: 'delete', path: p('d1/f1.txt') },
      { kind: 'create', path: p('d1/f1.txt'), bytes: Buffer.from('created where one was deleted\n'), overwrite: true },
      { kind: 'delete', path: p('d2/f2.txt') },
      { kind: 'create', path: p('d2/f2.txt/inside.txt'), bytes: Buffer.from('a folder where a file was\n'), overwrite: false },
    ];
    await applyOnDisk(steps, opts, io);
    assert.equal(fs.readFileSync(p('d0/g0.txt'), 'utf8'), 'edited, then moved\n');
    assert.ok(!fs.existsSync(p('d0/f0.txt')));
    assert.equal(fs.readFileSync(p('d1/f1.txt'), 'utf8'), 'created where one was deleted\n');
    assert.equal(fs.readFileSync(p('d2/f2.txt/inside.txt'), 'utf8'), 'a folder where a file was\n');
    assert.ok(!listing(tree.root).some((l) => /\.(tmp|saved)/.test(l)), 'no temporary file or saved copy left');
  });
});

describe('a file someone else saves after a change read it and before its rename', () => {
  const FILES = 40;
  let tree: { root: string; cleanup(): void };
  const p = (rel: string) => path.join(tree.root, rel);
  const file = (i: number) => `d${i % 4}/f${i}.txt`;
  const changes = (): FileChange[] => [
    ...Array.from({ length: FILES }, (_, i): FileChange => ({ kind: 'edit', path: p(file(i)), base: `old ${i}\n`, edits: textEdits(`old ${i}\n`, `new ${i}\n`) })),
    { kind: 'create', path: p('fresh/deep/new.txt'), bytes: Buffer.from('created\n'), overwrite: false },
  ];

  beforeEach(() => {
    tree = tempTree(Object.fromEntries(Array.from({ length: FILES }, (_, i) => [file(i), `old ${i}\n`])));
  });
  afterEach(() => tree.cleanup());

  /** Applies the change through `io`, which has `theirs` saved at `rel`: refused as stale, every file as it was but theirs, byte for byte, nothing of the change left. */
  async function refusedWithTheirsKept(io: ApplyIo, rel: string, theirs: string, expected: string[]): Promise<void> {
    await assert.rejects(applyOnDisk(changes(), opts, io), (e: unknown) => e instanceof StaleError && e.path === p(rel));
    assert.deepEqual(listing(tree.root), expected);
    assert.equal(fs.readFileSync(p(rel), 'utf8'), theirs);
  }

  const theirsIn = (before: string[], rels: string[], theirs: string) => before.map((l) => (rels.some((r) => l.startsWith(`${r}: `)) ? `${l.slice(0, l.indexOf(': '))}: ${theirs}` : l));

  it('replaced by a new file (an editor saving through a temporary file and a rename) while the others sync: refused, theirs kept', async () => {
    const before = listing(tree.root);
    const theirs = 'their save, renamed over\n';
    const io = meddlingIo(() => {
      fs.writeFileSync(p('d0/their.swp'), theirs);
      fs.renameSync(p('d0/their.swp'), p(file(0)));
    }, FILES + 1);
    await refusedWithTheirsKept(io, file(0), theirs, theirsIn(before, [file(0)], theirs));
  });

  it('rewritten in place while the others sync: refused, theirs kept', async () => {
    const before = listing(tree.root);
    const theirs = 'their save, written in place\n';
    const io = meddlingIo(() => fs.writeFileSync(p(file(0)), theirs), FILES + 1);
    await refusedWithTheirsKept(io, file(0), theirs, theirsIn(before, [file(0)], theirs));
  });

  it('rewritten in place after earlier files were renamed: refused, those renames taken back, theirs kept', async () => {
    const before = listing(tree.root);
    const theirs = 'their save of the last file\n';
    const last = file(FILES - 1);
    const io = meddlingIo(() => fs.writeFileSync(p(last), theirs), FILES + 1, 3);
    await refusedWithTheirsKept(io, last, theirs, theirsIn(before, [last], theirs));
  });

  it('a file with a second hard link, rewritten in place while the others sync: refused, theirs kept under both names', async () => {
    fs.linkSync(p(file(0)), p('d0/also.txt'));
    const before = listing(tree.root);
    const theirs = 'their save through the other name\n';
    const io = meddlingIo(() => fs.writeFileSync(p('d0/also.txt'), theirs), FILES + 1);
    await refusedWithTheirsKept(io, file(0), theirs, theirsIn(before, [file(0), 'd0/also.txt'], theirs));
    assert.equal(fs.statSync(p(file(0))).ino, fs.statSync(p('d0/also.txt')).ino, 'still one file');
  });
});

describe('the folders a change on node:fs writes in', () => {
  const FILES = 40;
  let tree: { root: string; cleanup(): void };
  let outside: { root: string; cleanup(): void };
  const p = (rel: string) => path.join(tree.root, rel);
  const file = (i: number) => `d${i % 4}/f${i}.txt`;
  const changes = (): FileChange[] => [
    ...Array.from({ length: FILES }, (_, i): FileChange => ({ kind: 'edit', path: p(file(i)), base: `old ${i}\n`, edits: textEdits(`old ${i}\n`, `new ${i}\n`) })),
    { kind: 'create', path: p('fresh/deep/new.txt'), bytes: Buffer.from('created\n'), overwrite: false },
  ];

  beforeEach(() => {
    tree = tempTree(Object.fromEntries(Array.from({ length: FILES }, (_, i) => [file(i), `old ${i}\n`])));
    outside = tempTree(Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`f${i}.txt`, `old ${i}\n`])));
  });
  afterEach(() => {
    tree.cleanup();
    outside.cleanup();
  });

  /** node:fs counting the folders opened to be held (not followed through a link), by path, and the descriptors still open. */
  function countingIo(): { io: ApplyIo; held: Map<string, number>; open: () => number } {
    const held = new Map<string, number>();
    let open = 0;
    const io: ApplyIo = {
      ...NODE_APPLY_IO,
      open: async (q, flags, mode) => {
        const h = await NODE_APPLY_IO.open(q, flags, mode);
        open++;
        if ((flags & fs.constants.O_DIRECTORY) !== 0 && (flags & fs.constants.O_NOFOLLOW) !== 0) {
          held.set(q, (held.get(q) ?? 0) + 1);
        }
        return { ...h, fd: h.fd, stat: () => h.stat(), readFile: () => h.readFile(), writeFile: (d) => h.writeFile(d), truncate: (l) => h.truncate(l), chmod: (m) => h.chmod(m), chown: (u, g) => h.chown(u, g), sync: () => h.sync(), close: async () => (open--, h.close()) };
      },
    };
    return { io, held, open: () => open };
  }

  it('opens each folder once for the whole change, and closes every descriptor by its end', async () => {
    const { io, held, open } = countingIo();
    await applyOnDisk(changes(), opts, io);
    for (let i = 0; i < FILES; i++) {
      assert.equal(fs.readFileSync(p(file(i)), 'utf8'), `new ${i}\n`);
    }
    if (process.platform === 'linux') {
      // each file is reached about ten times through its folder: read twice, staged, kept, renamed, its saved copy removed
      assert.deepEqual([...held].filter(([, n]) => n > 1), []);
      assert.ok(held.has(p('d0')) && held.has(p('fresh/deep')));
    }
    assert.equal(open(), 0, 'a descriptor left open');
  });

  it('a held folder moved away and replaced by a link part-way: nothing written through the link nor in the moved folder', async () => {
    const before = listing(tree.root);
    // every file read and staged, none renamed: d0, held since its first file was read, goes
    const io = meddlingIo(() => {
      fs.renameSync(p('d0'), p('d0.old'));
      fs.symlinkSync(outside.root, p('d0'));
    }, FILES + 1);
    await assert.rejects(applyOnDisk(changes(), opts, io), /changed while the change was applied|putting the files back failed too|could not be applied/);
    const outsideNow = fs.readdirSync(outside.root).sort().map((f) => `${f}: ${fs.readFileSync(path.join(outside.root, f), 'utf8')}`);
    assert.deepEqual(outsideNow, Array.from({ length: FILES }, (_, i) => `f${i}.txt: old ${i}\n`).sort(), 'nothing written through the link');
    // the moved folder holds its files as they were (a temporary file the change could not reach there any more may be left beside them)
    fs.unlinkSync(p('d0'));
    fs.renameSync(p('d0.old'), p('d0'));
    assert.deepEqual(listing(tree.root).filter((l) => !/\.tmp/.test(l)), before);
  });
});
