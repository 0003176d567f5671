import * as assert from 'node:assert/strict';
import { textVersion } from '../../src/core/hash';
import { constants as fsConstants } from 'node:fs';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { encodeText } from '../../src/core/text/encoding';
import { applyOnDisk, NODE_APPLY_IO, type ApplyHandle, type ApplyIo } from '../../src/host/nodeApply';
import { NodeWorkspace } from '../../src/host/nodeWorkspace';
import type { ApplyOptions, ApplyReport, FileChange } from '../../src/host/workspace';
import { call, context, tempTree } from './helpers';

/**
 * The way SQLite proves its I/O-error handling: run a change once to count its file
 * operations, then once for every k, failing the k-th operation, and check after each run
 * that the tree is byte for byte as before or as after the whole change, and that the
 * result says which. Three ways to fail:
 * - once: the k-th operation fails with ENOSPC, EIO or EACCES, the rest succeed;
 * - disk full: from the k-th on, whatever needs new space fails with ENOSPC (creating a
 *   file or folder, writing past a file's end; a write that does fail writes what fits);
 * - broken disk: from the k-th on, every operation fails with EIO, undoing included; the
 *   tree may then be part-changed, and the error must name every path that is not as it
 *   was, with a saved copy holding its previous bytes.
 */
type Fault = { kind: 'once' | 'diskFull' | 'broken'; at: number; code: string };

function injected(code: string, op: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected fault, ${op}`), { code });
}

class FaultyIo {
  ops = 0;
  constructor(private readonly fault?: Fault) {}

  /** Counts one operation; throws when the fault says this one fails. */
  private hit(op: string, needsSpace: boolean): void {
    const n = ++this.ops;
    const f = this.fault;
    if (!f) {
      return;
    }
    const fails = f.kind === 'once' ? n === f.at : n >= f.at && (f.kind === 'broken' || needsSpace);
    if (fails) {
      throw injected(f.code, op);
    }
  }

  private handle(h: ApplyHandle): ApplyHandle {
    return {
      fd: h.fd,
      stat: async () => (this.hit('fstat', false), h.stat()),
      readFile: async () => (this.hit('read', false), h.readFile()),
      writeFile: async (data) => {
        const size = (await h.stat()).size;
        try {
          // on a full disk only a write past the file's end needs space
          this.hit('write', data.length > size);
        } catch (e) {
          const fits = (e as NodeJS.ErrnoException).code === 'ENOSPC' ? Math.min(size, data.length) : data.length >> 1;
          await h.writeFile(data.subarray(0, fits));
          throw e;
        }
        return h.writeFile(data);
      },
      truncate: async (len) => (this.hit('truncate', false), h.truncate(len)),
      chmod: async (mode) => (this.hit('fchmod', false), h.chmod(mode)),
      chown: async (uid, gid) => (this.hit('fchown', false), h.chown(uid, gid)),
      // counted and failed like the others, but not made: what a run leaves is checked in the page cache, and 2,000 runs of real fsyncs take minutes
      sync: async () => this.hit('fsync', false),
      close: () => h.close(),
    };
  }

  readonly io: ApplyIo = {
    open: async (p, flags, mode) => {
      this.hit('open', (flags & fsConstants.O_CREAT) !== 0);
      return this.handle(await NODE_APPLY_IO.open(p, flags, mode));
    },
    readlink: async (p) => (this.hit('readlink', false), NODE_APPLY_IO.readlink(p)),
    realpath: async (p) => (this.hit('realpath', false), NODE_APPLY_IO.realpath(p)),
    lstat: async (p) => (this.hit('lstat', false), NODE_APPLY_IO.lstat(p)),
    rename: async (a, b) => (this.hit('rename', false), NODE_APPLY_IO.rename(a, b)),
    link: async (a, b) => (this.hit('link', false), NODE_APPLY_IO.link(a, b)),
    unlink: async (p) => (this.hit('unlink', false), NODE_APPLY_IO.unlink(p)),
    mkdir: async (p) => (this.hit('mkdir', true), NODE_APPLY_IO.mkdir(p)),
    rmdir: async (p) => (this.hit('rmdir', false), NODE_APPLY_IO.rmdir(p)),
  };
}

/** The Node workspace with its changes going through a faulty layer. */
class FaultyWorkspace extends NodeWorkspace {
  layer = new FaultyIo();
  override applyChanges(changes: readonly FileChange[], opts: ApplyOptions): Promise<ApplyReport> {
    return applyOnDisk(changes, opts, this.layer.io);
  }
}

/** The first path (in sorted order) of each file with several hard links in the tree, by path. */
const LEADERS = new WeakMap<Map<string, string>, Map<string, string>>();

/** Every entry of a tree: a file's bytes, mode and owner, a folder as "dir", and which files are one (hard links). */
function treeOf(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const leaders = new Map<string, string>();
  LEADERS.set(out, leaders);
  const inodes = new Map<number, string>();
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const abs = path.join(dir, name);
      const rel = path.relative(root, abs).split(path.sep).join('/');
      const st = fs.lstatSync(abs);
      if (st.isDirectory()) {
        out.set(rel, 'dir');
        walk(abs);
      } else {
        const same = inodes.get(st.ino);
        inodes.set(st.ino, same ?? rel);
        leaders.set(rel, same ?? rel);
        out.set(rel, `${fs.readFileSync(abs).toString('hex')} mode ${(st.mode & 0o7777).toString(8)} uid ${st.uid}${same ? ` linked to ${same}` : ''}`);
      }
    }
  };
  walk(root);
  return out;
}

function same(a: Map<string, string>, b: Map<string, string>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
}

function differing(a: Map<string, string>, b: Map<string, string>): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k)).sort();
}

interface Scenario {
  name: string;
  files: () => Record<string, string | Uint8Array>;
  /** Extra setup on the tree (hard links, owners). */
  setup?: (root: string) => void;
  tool: string;
  input: object;
  success: RegExp;
}

const CRLF = 'one\r\ntwo\r\nthree\r\n';
const BOM = encodeText('alpha\nbeta\n', 'utf-8-bom');
const UTF16 = encodeText('x\ny\n', 'utf-16le');

const PATCH = [
  '*** Begin Patch',
  '*** Delete File: del.txt',
  '*** Add File: new/deep/add.txt',
  '+added',
  '*** Update File: crlf.txt',
  '@@',
  ' one',
  '-two',
  '+TWO, longer',
  '*** Update File: bom.txt',
  '@@',
  '-beta',
  '+BETA',
  '*** Update File: u16.txt',
  '@@',
  '-y',
  '+Y and more',
  '*** Update File: src.txt',
  '*** Move to: dst.txt',
  '@@',
  '-moving',
  '+moved',
  '*** Update File: linked.txt',
  '@@',
  '-shared',
  '+SHARED, and longer than before',
  '*** Update File: owned.txt',
  '@@',
  '-mine',
  '+still mine',
  '*** Add File: add2.txt',
  '+two',
  '*** End Patch',
].join('\n');

const SCENARIOS: Scenario[] = [
  {
    name: 'a patch: delete, adds (one in new folders), CRLF, BOM and UTF-16 updates, a move over an existing file, a hard-linked file, a file of another owner',
    files: () => ({
      'del.txt': 'delete me\n',
      'crlf.txt': CRLF,
      'bom.txt': BOM,
      'u16.txt': UTF16,
      'src.txt': 'moving\n',
      'dst.txt': 'old dst\n',
      'linked.txt': 'shared\n',
      'owned.txt': 'mine\n',
      'keep.txt': 'untouched\n',
    }),
    setup: (root) => {
      fs.linkSync(path.join(root, 'linked.txt'), path.join(root, 'linked-alias.txt'));
      fs.chmodSync(path.join(root, 'crlf.txt'), 0o640);
      if (process.getuid?.() === 0) {
        fs.chownSync(path.join(root, 'owned.txt'), 4242, 4343);
      }
    },
    tool: 'fs_apply_patch',
    input: { patch: PATCH },
    success: /^Success\. Updated the following files:\nD del\.txt\nA new\/deep\/add\.txt\nM crlf\.txt\nM bom\.txt\nM u16\.txt\nM dst\.txt \(moved from src\.txt, replacing the file that was there\)\nM linked\.txt\nM owned\.txt\nA add2\.txt\n/,
  },
  {
    name: 'the full-disk case of the report: delete A, add B and C',
    files: () => ({ 'A.txt': 'the only copy of A\n' }),
    tool: 'fs_apply_patch',
    input: { patch: '*** Begin Patch\n*** Delete File: A.txt\n*** Add File: B.txt\n+b\n*** Add File: C.txt\n+c\n*** End Patch' },
    success: /^Success\. Updated the following files:\nD A\.txt\nA B\.txt\nA C\.txt\n/,
  },
  {
    name: 'fs_write over a CRLF file',
    files: () => ({ 'w.txt': CRLF }),
    tool: 'fs_write',
    input: { path: 'w.txt', content: 'one\ntwo\nthree\nfour\n', version: textVersion(CRLF) },
    success: /^Wrote w\.txt: \+1 -0 lines; version [0-9a-f]{8}\./,
  },
  {
    name: 'fs_write creating a file in new folders',
    files: () => ({}),
    tool: 'fs_write',
    input: { path: 'a/b/new.txt', content: 'new\n' },
    success: /^Created a\/b\/new\.txt: 1 line; version [0-9a-f]{8}\./,
  },
  {
    name: 'fs_edit of a UTF-16 file with a BOM',
    files: () => ({ 'e.txt': encodeText('\uFEFFfirst\r\nsecond\r\n', 'utf-16be') }),
    tool: 'fs_edit',
    input: { path: 'e.txt', old_string: 'second', new_string: 'SECOND' },
    success: /^Edited e\.txt: \+1 -1 lines; version [0-9a-f]{8}\./,
  },
  {
    name: 'fs_edit of a hard-linked file',
    files: () => ({ 'h.txt': 'keep the link\n' }),
    setup: (root) => fs.linkSync(path.join(root, 'h.txt'), path.join(root, 'h-other.txt')),
    tool: 'fs_edit',
    input: { path: 'h.txt', old_string: 'keep the link', new_string: 'kept the link, and it is longer' },
    success: /^Edited h\.txt: \+1 -1 lines; version [0-9a-f]{8}\./,
  },
];

/** What a failed run's error names: each path it lists, and the saved copy of each. */
function listedStates(text: string): { path: string; savedAt?: string }[] {
  return [...text.matchAll(/^- (\S+) .*?(?:; its previous content is saved at (\S+))?\.$/gm)].map((m) => ({ path: m[1], savedAt: m[2] }));
}

describe('a change under injected file-system faults (every operation k, Node host)', function () {
  this.timeout(600_000);
  const tally = { runs: 0, before: 0, after: 0, partialReported: 0, ops: 0 };
  after(() => {
    console.log(`      fault injection, Node host: ${tally.runs} runs over ${tally.ops} operations of ${SCENARIOS.length} changes (5 fault kinds each: ENOSPC, EIO, EACCES once; disk full; broken disk): ${tally.before} left everything as before, ${tally.after} landed whole, ${tally.partialReported} part-changed with every path and saved copy named`);
  });

  async function run(s: Scenario, fault: Fault | undefined) {
    const tree = tempTree(s.files());
    try {
      s.setup?.(tree.root);
      const base = await context(tree.root);
      const ws = await FaultyWorkspace.create([tree.root]);
      ws.layer = new FaultyIo(fault);
      const r = await call({ ...base, ws }, s.tool, s.input);
      return { r, tree: treeOf(tree.root), ops: ws.layer.ops };
    } finally {
      tree.cleanup();
    }
  }

  for (const s of SCENARIOS) {
    it(`${s.name}: as before or as after every fault, and the result says which`, async () => {
      const t0 = tempTree(s.files());
      s.setup?.(t0.root);
      const before = treeOf(t0.root);
      t0.cleanup();
      const clean = await run(s, undefined);
      assert.match(clean.r.text, s.success);
      const after = clean.tree;
      assert.ok(!same(before, after));
      const n = clean.ops;
      tally.ops += n;
      const faults: Fault[] = [];
      for (let k = 1; k <= n; k++) {
        faults.push({ kind: 'once', at: k, code: 'ENOSPC' }, { kind: 'once', at: k, code: 'EIO' }, { kind: 'once', at: k, code: 'EACCES' }, { kind: 'diskFull', at: k, code: 'ENOSPC' }, { kind: 'broken', at: k, code: 'EIO' });
      }
      for (const f of faults) {
        const { r, tree } = await run(s, f);
        const what = `${f.kind} ${f.code} at operation ${f.at} of ${n}: ${r.text.slice(0, 600)}`;
        tally.runs++;
        if (same(tree, before)) {
          tally.before++;
          assert.equal(r.isError, true, what);
          assert.match(r.text, /nothing was written|Nothing was written/, what);
          continue;
        }
        if (same(tree, after)) {
          tally.after++;
          assert.equal(r.isError, false, what);
          assert.match(r.text, s.success, what);
          continue;
        }
        // Only a disk that fails its undo too may leave a change part-way, and it must say so exactly.
        assert.equal(f.kind, 'broken', `tree neither as before nor as after: ${differing(before, tree).join(', ')}; ${what}`);
        tally.partialReported++;
        const named = listedStates(r.text);
        if (r.isError) {
          assert.doesNotMatch(r.text, /nothing was written/i, what);
          assert.match(r.text, /putting the files back failed too/, what);
          const namedPaths = new Set(named.flatMap((x) => (x.savedAt ? [x.path, x.savedAt] : [x.path])));
          const leader = (p: string) => LEADERS.get(tree)!.get(p) ?? p;
          const unlinked = (p: string, m: Map<string, string>) => m.get(p)?.replace(/ linked to \S+$/, '');
          for (const d of differing(before, tree)) {
            const ok = [...namedPaths].some(
              (p) =>
                p === d ||
                // a folder, named itself or through a file in it
                p.startsWith(`${d}/`) ||
                d.startsWith(`${p}/`) ||
                // another hard link of a named file, or a file that only shares its bytes with a named copy
                leader(p) === leader(d),
            );
            assert.ok(ok || unlinked(d, before) === unlinked(d, tree), `${d} differs but is not named; ${what}`);
          }
          for (const x of named.filter((x) => x.savedAt)) {
            assert.equal(tree.get(x.savedAt!)?.split(' ')[0], before.get(x.path)?.split(' ')[0], `the saved copy of ${x.path} holds its previous bytes; ${what}`);
          }
        } else {
          // landed, with saved copies it could not remove named
          assert.match(r.text, s.success, what);
          const left = /a saved copy of the previous content could not be removed \(it can be deleted\): (.+)$/m.exec(r.text);
          assert.ok(left, what);
          const extra = differing(after, tree);
          assert.deepEqual(extra, left[1].split(', ').sort(), what);
        }
      }
    });
  }
});
