import * as assert from 'node:assert/strict';
import { constants as fsConstants } from 'node:fs';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NEVER_CANCELLED } from '../../src/core/cancel';
import { textEdits } from '../../src/core/diff';
import { applyOnDisk, NODE_APPLY_IO, type ApplyIo } from '../../src/host/nodeApply';
import { call, context, tempTree } from './helpers';

const opts = { signal: NEVER_CANCELLED, saveIfClean: true, label: 'test' };
const isRoot = process.getuid?.() === 0;

describe('writing a file: long names, folder-shaped paths, mode, owner and hard links', () => {
  let tree: { root: string; cleanup(): void };
  const p = (rel: string) => path.join(tree.root, rel);
  const read = (rel: string) => fs.readFileSync(p(rel), 'utf8');
  beforeEach(() => {
    tree = tempTree({ 'a.txt': 'alpha\n' });
  });
  afterEach(() => tree.cleanup());

  for (const [what, name] of [
    ['255 bytes of ASCII', `${'n'.repeat(251)}.txt`],
    ['254 bytes of two-byte characters', `${'é'.repeat(125)}.txt`],
    ['236 bytes', `${'m'.repeat(232)}.txt`],
  ] as const) {
    it(`writes, overwrites, edits and patches a file whose name is ${what}, leaving nothing beside it`, async () => {
      assert.ok(Buffer.byteLength(name) >= 236 && Buffer.byteLength(name) <= 255);
      const ctx = await context(tree.root);
      let r = await call(ctx, 'fs_write', { path: name, content: 'one\n' });
      assert.match(r.text, /^Created /, r.text);
      r = await call(ctx, 'fs_write', { path: name, content: 'one\ntwo\n' });
      assert.match(r.text, /^Wrote /, r.text);
      r = await call(ctx, 'fs_edit', { path: name, old_string: 'two', new_string: 'TWO' });
      assert.match(r.text, /^Edited /, r.text);
      r = await call(ctx, 'fs_apply_patch', { patch: `*** Begin Patch\n*** Update File: ${name}\n@@\n-one\n+ONE\n*** End Patch` });
      assert.match(r.text, /^Success\./, r.text);
      assert.equal(read(name), 'ONE\nTWO\n');
      assert.deepEqual(fs.readdirSync(tree.root).sort(), ['a.txt', name].sort());
    });
  }

  it('refuses a file path that ends as a folder path does, naming the field, and writes nothing', async () => {
    const ctx = await context(tree.root);
    for (const bad of ['a.txt/', 'a.txt\\', 'a.txt/.', 'new.txt/', 'sub/..']) {
      const w = await call(ctx, 'fs_write', { path: bad, content: 'x\n' });
      assert.equal(w.isError, true, bad);
      assert.match(w.text, /^Invalid input for fs_write:\n- `path`: ends as a folder's path does \("\/", "\/\." or "\/\.\."\) but must name the file to change/, bad);
      const e = await call(ctx, 'fs_edit', { path: bad, old_string: 'alpha', new_string: 'beta' });
      assert.equal(e.isError, true, bad);
      assert.match(e.text, /^Invalid input for fs_edit:\n- `path`: ends as a folder's path does/, bad);
    }
    for (const header of ['*** Add File: a.txt/\n+x', '*** Delete File: a.txt/', '*** Update File: a.txt/\n@@\n-alpha\n+beta', '*** Update File: a.txt\n*** Move to: b.txt/\n@@\n-alpha\n+beta']) {
      const r = await call(ctx, 'fs_apply_patch', { patch: `*** Begin Patch\n${header}\n*** End Patch` });
      assert.equal(r.isError, true, header);
      assert.match(r.text, /Line [23]: `\*\*\* (Add File|Delete File|Update File|Move to): (a|b)\.txt\/` ends as a folder's path does; a patch names files\./, header);
    }
    assert.equal(read('a.txt'), 'alpha\n');
    assert.deepEqual(fs.readdirSync(tree.root), ['a.txt']);
  });

  it('keeps the mode, set-id bits included, of a file it replaces', async () => {
    fs.chmodSync(p('a.txt'), 0o2751);
    const ctx = await context(tree.root);
    await call(ctx, 'fs_read', { path: 'a.txt' });
    const r = await call(ctx, 'fs_write', { path: 'a.txt', content: 'new\n' });
    assert.equal(r.isError, false, r.text);
    assert.equal(fs.statSync(p('a.txt')).mode & 0o7777, 0o2751);
  });

  it('keeps the owner and group of a file it replaces', async () => {
    // root may give any owner; another user only a group of their own
    const uid = isRoot ? 4242 : process.getuid!();
    const gid = isRoot ? 4343 : (process.getgroups!().find((g) => g !== process.getgid!()) ?? process.getgid!());
    fs.chownSync(p('a.txt'), uid, gid);
    const ctx = await context(tree.root);
    await call(ctx, 'fs_read', { path: 'a.txt' });
    const r = await call(ctx, 'fs_write', { path: 'a.txt', content: 'new\n' });
    assert.equal(r.isError, false, r.text);
    const st = fs.statSync(p('a.txt'));
    assert.deepEqual([st.uid, st.gid, read('a.txt')], [uid, gid, 'new\n']);
  });

  it('writes a file that cannot be given its owner in place, so that it keeps it', async () => {
    const ino = fs.statSync(p('a.txt')).ino;
    // a user who does not own the file cannot chown a new one to its owner
    const io: ApplyIo = {
      ...NODE_APPLY_IO,
      open: async (f, flags, mode) => {
        const h = await NODE_APPLY_IO.open(f, flags, mode);
        return {
          fd: h.fd,
          // the existing file belongs to someone else; a new one is ours
          stat: async () => Object.assign(await h.stat(), (flags & fsConstants.O_CREAT) === 0 ? { uid: 99999 } : {}),
          readFile: () => h.readFile(),
          writeFile: (d) => h.writeFile(d),
          truncate: (n) => h.truncate(n),
          chmod: (m) => h.chmod(m),
          chown: async () => Promise.reject(Object.assign(new Error('EPERM: operation not permitted'), { code: 'EPERM' })),
          sync: () => h.sync(),
          close: () => h.close(),
        };
      },
    };
    const report = await applyOnDisk([{ kind: 'edit', path: p('a.txt'), base: 'alpha\n', edits: textEdits('alpha\n', 'beta\n') }], opts, io);
    assert.deepEqual(report.savedCopiesLeft, []);
    assert.equal(read('a.txt'), 'beta\n');
    assert.equal(fs.statSync(p('a.txt')).ino, ino, 'written in place, the same file');
    assert.deepEqual(fs.readdirSync(tree.root), ['a.txt']);
  });

  it('keeps a hard link: a file with other links is written in place, and every link shows the change', async () => {
    fs.linkSync(p('a.txt'), p('other-name.txt'));
    const ctx = await context(tree.root);
    await call(ctx, 'fs_read', { path: 'a.txt' });
    let r = await call(ctx, 'fs_write', { path: 'a.txt', content: 'written through one link, longer than before\n' });
    assert.equal(r.isError, false, r.text);
    r = await call(ctx, 'fs_edit', { path: 'a.txt', old_string: 'longer than before', new_string: 'short' });
    assert.equal(r.isError, false, r.text);
    const [a, b] = [fs.statSync(p('a.txt')), fs.statSync(p('other-name.txt'))];
    assert.equal(a.ino, b.ino);
    assert.equal(a.nlink, 2);
    assert.equal(read('other-name.txt'), 'written through one link, short\n');
    assert.deepEqual(fs.readdirSync(tree.root).sort(), ['a.txt', 'other-name.txt']);
  });

  it('says when a file was read-only before it was written, and leaves it read-only', async () => {
    fs.writeFileSync(p('ro.txt'), 'locked\n');
    fs.chmodSync(p('ro.txt'), 0o444);
    const ctx = await context(tree.root);
    await call(ctx, 'fs_read', { path: 'ro.txt' });
    const w = await call(ctx, 'fs_write', { path: 'ro.txt', content: 'unlocked\n' });
    assert.equal(w.isError, false, w.text);
    assert.match(w.text, /^Wrote ro\.txt: \+1 -1 lines; version [0-9a-f]{8}\.\nThe file was read-only; it was written and stays read-only\.\n/);
    assert.equal(fs.statSync(p('ro.txt')).mode & 0o777, 0o444);
    const patched = await call(ctx, 'fs_apply_patch', { patch: '*** Begin Patch\n*** Update File: ro.txt\n@@\n-unlocked\n+patched\n*** Update File: a.txt\n@@\n-alpha\n+beta\n*** End Patch' });
    assert.match(patched.text, /^ro\.txt: was read-only; it was written and stays read-only\.$/m);
    assert.doesNotMatch(patched.text, /a\.txt: was read-only/);
    const plain = await call(ctx, 'fs_write', { path: 'a.txt', content: 'gamma\n' });
    assert.doesNotMatch(plain.text, /read-only/);
  });
});
