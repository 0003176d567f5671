import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NEVER_CANCELLED } from '../../src/core/cancel';
import { applyOnDisk, NODE_APPLY_IO, refuseReadOnly, type ApplyIo } from '../../src/host/nodeApply';
import { retryTransient } from '../../src/host/transient';
import { NodeWorkspace } from '../../src/host/nodeWorkspace';
import type { ApplyOptions, ApplyReport, FileChange } from '../../src/host/workspace';
import { EXACT_NAMES, FOLDING_NAMES } from '../../src/core/names';
import { fileKey } from '../../src/services/target';
import { call, context, tempTree, TestWorkspace } from './helpers';

const NFC = 'caf\u00e9.txt';
const NFD = 'cafe\u0301.txt';

const opts = { signal: NEVER_CANCELLED, saveIfClean: true, label: 'test' };

function fault(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected`), { code });
}

/** node:fs with renames (or deletes) failing the first `n` times with `code`, as while a scanner holds the file. */
function heldFor(n: number, code: string, op: 'rename' | 'unlink' = 'rename'): ApplyIo & { tries: number } {
  const io = {
    ...NODE_APPLY_IO,
    tries: 0,
    [op]: async (...args: [string, string]) => {
      io.tries++;
      if (io.tries <= n) {
        throw fault(code);
      }
      return (NODE_APPLY_IO[op] as (...a: [string, string]) => Promise<void>)(...args);
    },
  };
  return io;
}

describe('transient failures: a rename or delete refused for a moment is tried again, within a bound', () => {
  it('tries again after 50, 100, 200 and 400 ms, five tries in all, then its last error stands', async () => {
    const waits: number[] = [];
    let tries = 0;
    await assert.rejects(
      retryTransient(
        async () => {
          tries++;
          throw fault('EBUSY');
        },
        async (ms) => void waits.push(ms),
      ),
      /EBUSY/,
    );
    assert.equal(tries, 5);
    assert.deepEqual(waits, [50, 100, 200, 400]);
  });

  it('an error that is not transient stands at once', async () => {
    let tries = 0;
    await assert.rejects(
      retryTransient(async () => {
        tries++;
        throw fault('ENOSPC');
      }),
      /ENOSPC/,
    );
    assert.equal(tries, 1);
  });

  for (const code of ['EPERM', 'EBUSY', 'EACCES']) {
    it(`an edit whose rename fails ${code} three times lands, in one answer`, async () => {
      const t = tempTree({ 'a.txt': 'one\n' });
      try {
        const io = heldFor(3, code);
        const ws = await NodeWorkspace.create([t.root]);
        const changes: FileChange[] = [{ kind: 'edit', path: path.join(t.root, 'a.txt'), base: 'one\n', edits: [], text: 'two\n' }];
        await applyOnDisk(changes, opts, io);
        assert.equal(fs.readFileSync(path.join(t.root, 'a.txt'), 'utf8'), 'two\n');
        assert.equal(io.tries, 4);
        void ws;
      } finally {
        t.cleanup();
      }
    });
  }

  it('a rename held longer than the bound fails, and every file is as it was', async () => {
    const t = tempTree({ 'a.txt': 'one\n', 'b.txt': 'bee\n' });
    try {
      const io = heldFor(1000, 'EBUSY');
      const changes: FileChange[] = [
        { kind: 'edit', path: path.join(t.root, 'a.txt'), base: 'one\n', edits: [], text: 'two\n' },
        { kind: 'delete', path: path.join(t.root, 'b.txt') },
      ];
      await assert.rejects(applyOnDisk(changes, opts, io), /EBUSY/);
      assert.deepEqual(fs.readdirSync(t.root).sort(), ['a.txt', 'b.txt']);
      assert.equal(fs.readFileSync(path.join(t.root, 'a.txt'), 'utf8'), 'one\n');
      assert.equal(fs.readFileSync(path.join(t.root, 'b.txt'), 'utf8'), 'bee\n');
    } finally {
      t.cleanup();
    }
  });

  it('a delete whose saved copy cannot be removed for a moment is removed on a later try', async () => {
    const t = tempTree({ 'a.txt': 'one\n' });
    try {
      const io = heldFor(2, 'EPERM', 'unlink');
      const report = await applyOnDisk([{ kind: 'delete', path: path.join(t.root, 'a.txt') }], opts, io);
      assert.deepEqual(report.savedCopiesLeft, []);
      assert.deepEqual(fs.readdirSync(t.root), []);
    } finally {
      t.cleanup();
    }
  });
});

describe('one file, one name: a rename of its spelling', () => {
  it('a rename to another spelling goes through a name of its own and keeps the content', async () => {
    const t = tempTree({ 'Src/App.ts': 'export const b = 2;\n' });
    try {
      const renames: [string, string][] = [];
      const io: ApplyIo = { ...NODE_APPLY_IO, rename: async (a, b) => (renames.push([path.basename(a), path.basename(b)]), NODE_APPLY_IO.rename(a, b)) };
      const from = path.join(t.root, 'Src', 'App.ts');
      const to = path.join(t.root, 'Src', 'app.ts');
      await applyOnDisk([{ kind: 'edit', path: from, base: 'export const b = 2;\n', edits: [], text: 'export const b = 6;\n' }, { kind: 'rename', from, to, overwrite: false, respell: true }], opts, io);
      assert.deepEqual(fs.readdirSync(path.join(t.root, 'Src')), ['app.ts']);
      assert.equal(fs.readFileSync(to, 'utf8'), 'export const b = 6;\n');
      // the edit's own rename, then App.ts to a name beside it, then that name to app.ts
      assert.equal(renames.length, 3);
      assert.equal(renames[1][0], 'App.ts');
      assert.equal(renames[2][1], 'app.ts');
      assert.equal(renames[1][1], renames[2][0]);
    } finally {
      t.cleanup();
    }
  });

  it('when the second rename fails, the file has its old name and content back', async () => {
    const t = tempTree({ 'Src/App.ts': 'export const b = 2;\n' });
    try {
      let n = 0;
      const io: ApplyIo = {
        ...NODE_APPLY_IO,
        rename: async (a, b) => {
          if (++n === 3) {
            throw fault('EIO');
          }
          return NODE_APPLY_IO.rename(a, b);
        },
      };
      const from = path.join(t.root, 'Src', 'App.ts');
      await assert.rejects(
        applyOnDisk([{ kind: 'edit', path: from, base: 'export const b = 2;\n', edits: [], text: 'x\n' }, { kind: 'rename', from, to: path.join(t.root, 'Src', 'app.ts'), overwrite: false, respell: true }], opts, io),
        /EIO/,
      );
      assert.deepEqual(fs.readdirSync(path.join(t.root, 'Src')), ['App.ts']);
      assert.equal(fs.readFileSync(from, 'utf8'), 'export const b = 2;\n');
    } finally {
      t.cleanup();
    }
  });
});

describe('volumes that cache attributes: the unchanged-file check asks what the volume vouches for', () => {
  /** node:fs with a name's stat as a caching volume gives it: its change time as it was before a link made through another name. */
  function staleAttributes(): ApplyIo {
    const first = new Map<string, fs.Stats>();
    return {
      ...NODE_APPLY_IO,
      lstat: async (p) => {
        const st = await NODE_APPLY_IO.lstat(p);
        const was = first.get(p) as fs.Stats | undefined;
        if (!was) {
          first.set(p, st as fs.Stats);
          return st;
        }
        return Object.assign(Object.create(Object.getPrototypeOf(st)), st, { ctimeMs: was.ctimeMs, nlink: was.nlink });
      },
    };
  }

  it('an edit lands where a stat answers from before the saved copy was linked', async () => {
    const t = tempTree({ 'a.txt': 'one\n' });
    try {
      const p = path.join(t.root, 'a.txt');
      await applyOnDisk([{ kind: 'edit', path: p, base: 'one\n', edits: [], text: 'two\n' }], opts, staleAttributes());
      assert.equal(fs.readFileSync(p, 'utf8'), 'two\n');
    } finally {
      t.cleanup();
    }
  });

  it('a file written meanwhile is still refused: its bytes are not the ones read', async () => {
    const t = tempTree({ 'a.txt': 'one\n' });
    try {
      const p = path.join(t.root, 'a.txt');
      const io = staleAttributes();
      let linked = false;
      const racing: ApplyIo = {
        ...io,
        link: async (a, b) => {
          await NODE_APPLY_IO.link(a, b);
          if (!linked) {
            linked = true;
            // an editor saves other bytes of the same length while the change is under way
            fs.writeFileSync(p, 'ONE\n');
          }
        },
      };
      await assert.rejects(applyOnDisk([{ kind: 'edit', path: p, base: 'one\n', edits: [], text: 'two\n' }], opts, racing), (e: Error) => e.name === 'StaleError');
      assert.equal(fs.readFileSync(p, 'utf8'), 'ONE\n');
    } finally {
      t.cleanup();
    }
  });
});

describe('folder swaps, where no /proc holds the folder', () => {
  /** node:fs with the folder `dir` swapped for a link to `to` just before the `at`-th realpath (the check), or inside the `at`-th open (after the check). */
  function swapping(dir: string, to: string, when: { realpath?: number; open?: number }): ApplyIo {
    let realpaths = 0;
    let opens = 0;
    const swap = () => {
      fs.renameSync(dir, `${dir}-moved`);
      fs.symlinkSync(to, dir);
    };
    return {
      ...NODE_APPLY_IO,
      realpath: async (p) => {
        if (++realpaths === when.realpath) {
          swap();
        }
        return NODE_APPLY_IO.realpath(p);
      },
      open: async (p, flags, mode) => {
        if (++opens === when.open) {
          swap();
        }
        return NODE_APPLY_IO.open(p, flags, mode);
      },
    };
  }

  it('a folder swapped for a link after the file was read is refused before anything is written', async () => {
    const t = tempTree({ 'dir/a.txt': 'one\n', 'outside/a.txt': 'secret\n' });
    try {
      const dir = path.join(t.root, 'dir');
      // the first check is the read's; the swap comes before the second, the temporary file's
      const io = swapping(dir, path.join(t.root, 'outside'), { realpath: 2 });
      await assert.rejects(applyOnDisk([{ kind: 'edit', path: path.join(dir, 'a.txt'), base: 'one\n', edits: [], text: 'two\n' }], opts, io, false), /changed while the change was applied/);
      assert.deepEqual(fs.readdirSync(path.join(t.root, 'outside')), ['a.txt']);
      assert.equal(fs.readFileSync(path.join(t.root, 'outside', 'a.txt'), 'utf8'), 'secret\n');
    } finally {
      t.cleanup();
    }
  });

  it('the moment left: a swap between the check and the open can put the temporary file beyond the link, never replace a file there', async () => {
    const t = tempTree({ 'dir/a.txt': 'one\n', 'outside/a.txt': 'secret\n' });
    try {
      const dir = path.join(t.root, 'dir');
      // the read opens the file (1); the temporary file's open (2) comes right after its folder was checked
      const io = swapping(dir, path.join(t.root, 'outside'), { open: 2 });
      await assert.rejects(applyOnDisk([{ kind: 'edit', path: path.join(dir, 'a.txt'), base: 'one\n', edits: [], text: 'two\n' }], opts, io, false), /changed while the change was applied/);
      assert.equal(fs.readFileSync(path.join(t.root, 'outside', 'a.txt'), 'utf8'), 'secret\n');
      // what SECURITY.md states as the race left where no /proc holds the folder
      assert.deepEqual(fs.readdirSync(path.join(t.root, 'outside')).filter((n) => n !== 'a.txt').length, 1);
    } finally {
      t.cleanup();
    }
  });

  it('where /proc holds the folder (Linux), the same swap puts nothing beyond the link', async () => {
    const t = tempTree({ 'dir/a.txt': 'one\n', 'outside/a.txt': 'secret\n' });
    try {
      const dir = path.join(t.root, 'dir');
      const io = swapping(dir, path.join(t.root, 'outside'), { open: 2 });
      // the held folder no longer has its path: it is let go, and the link is never opened as the folder
      await assert.rejects(applyOnDisk([{ kind: 'edit', path: path.join(dir, 'a.txt'), base: 'one\n', edits: [], text: 'two\n' }], opts, io, true), /changed while the change was applied/);
      assert.deepEqual(fs.readdirSync(path.join(t.root, 'outside')), ['a.txt']);
      assert.equal(fs.readFileSync(path.join(t.root, 'dir-moved', 'a.txt'), 'utf8'), 'one\n');
    } finally {
      t.cleanup();
    }
  });

  it("the editor's apply (which writes by path) is checked again just before its first write", async () => {
    const t = tempTree({ 'dir/a.txt': 'one\n', 'outside/a.txt': 'secret\n' });
    try {
      const dir = path.join(t.root, 'dir');
      /** As VS Code's apply: reads, asks beforeWrite, then writes by path through whatever the path is now. */
      class ByPath extends NodeWorkspace {
        override async applyChanges(changes: readonly FileChange[], o: ApplyOptions): Promise<ApplyReport> {
          fs.renameSync(dir, path.join(t.root, 'moved'));
          fs.symlinkSync(path.join(t.root, 'outside'), dir);
          await o.beforeWrite?.();
          for (const c of changes) {
            if (c.kind === 'edit' && c.text !== undefined) {
              fs.writeFileSync(c.path, c.text);
            }
          }
          return { unsaved: [], readOnly: [], savedCopiesLeft: [] };
        }
      }
      const ctx = await context(t.root);
      const ws = await ByPath.create([t.root]);
      const r = await call({ ...ctx, ws }, 'fs_edit', { path: 'dir/a.txt', old_string: 'one', new_string: 'two' });
      assert.equal(r.isError, true, r.text);
      assert.match(r.text, /changed while the change waited .* nothing was written/);
      assert.equal(fs.readFileSync(path.join(t.root, 'outside', 'a.txt'), 'utf8'), 'secret\n');
    } finally {
      t.cleanup();
    }
  });
});

describe('names on a POSIX volume', () => {
  let t: { root: string; cleanup(): void };
  afterEach(() => t.cleanup());

  it('a path with a backslash names the entry spelled so when it exists, and a printed path passed back reaches it', async () => {
    t = tempTree({ 'a\\b.txt': 'needle in backslash\n', 'a/b.txt': 'slash\n' });
    const ctx = await context(t.root);
    assert.match((await call(ctx, 'fs_read', { path: 'a\\b.txt' })).text, /L1: needle in backslash/);
    const found = (await call(ctx, 'fs_grep', { pattern: 'needle', output: 'files' })).text;
    const printed = /^(a.b\.txt)$/m.exec(found)![1];
    assert.match((await call(ctx, 'fs_read', { path: printed })).text, /L1: needle in backslash/);
    const r = await call(ctx, 'fs_apply_patch', { patch: '*** Begin Patch\n*** Delete File: a\\b.txt\n*** End Patch' });
    assert.equal(r.isError, false, r.text);
    assert.deepEqual(fs.readdirSync(t.root), ['a']);
    assert.equal(fs.readFileSync(path.join(t.root, 'a', 'b.txt'), 'utf8'), 'slash\n');
  });

  it('without such an entry, a backslash separates', async () => {
    t = tempTree({ 'a/b.txt': 'slash\n' });
    const ctx = await context(t.root);
    assert.match((await call(ctx, 'fs_read', { path: 'a\\b.txt' })).text, /<path>a\/b\.txt<\/path>[\s\S]*L1: slash/);
  });

  for (const [name, rule] of [
    ['CON', /reserved device name/],
    ['nul.txt', /reserved device name/],
    ['App.ts:evil', /alternate data stream/],
    ['b.txt.', /ends with a dot or a space/],
    ['c.txt ', /ends with a dot or a space/],
    ['a?b.txt', /no Windows name may hold/],
  ] as const) {
    it(`no tool creates a new file named ${JSON.stringify(name)}, naming the rule`, async () => {
      t = tempTree({ 'Src/App.ts': 'x\n' });
      const ctx = await context(t.root);
      for (const [tool, input] of [
        ['fs_write', { path: `Src/${name}`, content: 'x\n' }],
        ['fs_edit', { path: `Src/${name}`, old_string: '', new_string: 'x\n' }],
      ] as const) {
        const r = await call(ctx, tool, input);
        assert.equal(r.isError, true, `${tool}: ${r.text}`);
        assert.match(r.text, /is refused/);
        assert.match(r.text, rule);
        assert.match(r.text, /shared with Windows users/);
      }
      assert.deepEqual(fs.readdirSync(path.join(t.root, 'Src')), ['App.ts']);
    });
  }

  it('a patch adding such a name is refused, and nothing of it is written', async () => {
    t = tempTree({ 'Src/App.ts': 'x\n' });
    const ctx = await context(t.root);
    const r = await call(ctx, 'fs_apply_patch', { patch: '*** Begin Patch\n*** Add File: Src/ok.txt\n+ok\n*** Add File: Src/Aux.c\n+x\n*** End Patch' });
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /Src\/Aux\.c is refused: Aux\.c names Aux, which is a reserved device name/);
    assert.deepEqual(fs.readdirSync(path.join(t.root, 'Src')), ['App.ts']);
  });

  it('a file of the repository so named is read and changed: only a new name is refused here', async () => {
    t = tempTree({ 'CON': 'console\n', 'notes.': 'dot\n' });
    const ctx = await context(t.root);
    assert.match((await call(ctx, 'fs_read', { path: 'CON' })).text, /L1: console/);
    const r = await call(ctx, 'fs_edit', { path: 'notes.', old_string: 'dot', new_string: 'dots' });
    assert.equal(r.isError, false, r.text);
    assert.equal(fs.readFileSync(path.join(t.root, 'notes.'), 'utf8'), 'dots\n');
  });
});

describe('a read-only file', () => {
  const changes: FileChange[] = [
    { kind: 'edit', path: '/w/ro.txt', base: 'a', edits: [], text: 'b' },
    { kind: 'rename', from: '/w/x.txt', to: '/w/ro2.txt', overwrite: true },
  ];
  it('where the read-only attribute is the platform\'s word (Windows), a change to it is refused with that reason', () => {
    assert.throws(() => refuseReadOnly(changes, new Map([['/w/ro.txt', { mode: 0o444 }]]), true), /\/w\/ro\.txt is read-only \(its read-only attribute is set\)/);
    assert.throws(() => refuseReadOnly(changes.slice(1), new Map([['/w/ro2.txt', { mode: 0o444 }]]), true), /ro2\.txt is read-only/);
    assert.doesNotThrow(() => refuseReadOnly(changes, new Map([['/w/ro.txt', { mode: 0o666 }]]), true));
  });
  it('elsewhere its mode bits are its owner\'s: it is written and keeps them', async () => {
    assert.doesNotThrow(() => refuseReadOnly(changes, new Map([['/w/ro.txt', { mode: 0o444 }]]), false));
    const t = tempTree({ 'ro.txt': 'one\n' });
    try {
      const p = path.join(t.root, 'ro.txt');
      fs.chmodSync(p, 0o444);
      const report = await applyOnDisk([{ kind: 'edit', path: p, base: 'one\n', edits: [], text: 'two\n' }], opts);
      assert.deepEqual(report.readOnly, [p]);
      assert.equal(fs.statSync(p).mode & 0o777, 0o444);
      assert.equal(fs.readFileSync(p, 'utf8'), 'two\n');
    } finally {
      t.cleanup();
    }
  });
});

describe('one file, one key: what a session remembers of a file', () => {
  it('two spellings of a file are one key for the ledger and the locks where the volume folds, two where it does not', async () => {
    const t = tempTree({ 'a.txt': 'x' });
    try {
      const base = await context(t.root);
      const folding = { ...base, ws: new TestWorkspace([{ name: 'w', path: t.root, names: FOLDING_NAMES }]) };
      const strict = { ...base, ws: new TestWorkspace([{ name: 'w', path: t.root, names: EXACT_NAMES }]) };
      const [a, b] = [path.join(t.root, 'New.ts'), path.join(t.root, 'NEW.ts')];
      assert.equal(fileKey(folding, a), fileKey(folding, b));
      assert.notEqual(fileKey(strict, a), fileKey(strict, b));
      assert.equal(fileKey(folding, path.join(t.root, NFC)), fileKey(folding, path.join(t.root, NFD)));
      // one spelling waits for the other's lock
      const order: string[] = [];
      let release!: () => void;
      const first = folding.locks.withLocks([fileKey(folding, a)], () => new Promise<void>((r) => (release = () => (order.push('first'), r()))));
      const second = folding.locks.withLocks([fileKey(folding, b)], async () => void order.push('second'));
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(order, []);
      release();
      await Promise.all([first, second]);
      assert.deepEqual(order, ['first', 'second']);
    } finally {
      t.cleanup();
    }
  });
});
