import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { encodeText } from '../../src/core/text/encoding';
import { cliApprover } from '../../src/services/cliApprover';
import { call, context, makeReadOnly, scriptedApprover, tempTree } from './helpers';

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

describe('fs_apply_patch', () => {
  let tree: { root: string; cleanup(): void };
  const p = (rel: string) => path.join(tree.root, rel);
  const read = (rel: string) => fs.readFileSync(p(rel), 'utf8');
  beforeEach(() => {
    tree = tempTree({ 'a.txt': 'a1\na2\na3\n', 'b.txt': 'b1\nb2\nb3\n', 'gone.txt': 'bye\n', 'dest.txt': 'will be replaced\n' });
  });
  afterEach(() => tree.cleanup());

  const three = patch('*** Update File: a.txt', '@@', ' a1', '-a2', '+A2', ' a3', '*** Add File: new/c.txt', '+c1', '*** Delete File: gone.txt');

  it('asks once for every file, applies them together and lists them as A/M/D', async () => {
    const s = scriptedApprover();
    const r = await call(await context(tree.root, {}, s.approver), 'fs_apply_patch', { patch: three });
    assert.equal(r.isError, false, r.text);
    assert.equal(s.reviews.length, 1);
    assert.deepEqual(s.reviews[0].files.map((f) => `${f.action} ${f.display}`), ['modify a.txt', 'create new/c.txt', 'delete gone.txt']);
    // the updated file's diff; an added file's content is the patch's own, a deleted one's is gone
    assert.match(r.text, /^Success\. Updated the following files:\nM a\.txt\nA new\/c\.txt\nD gone\.txt\nVersions: a\.txt [0-9a-f]{8}, new\/c\.txt [0-9a-f]{8}\.\n<diff>\n--- a\/a\.txt\n\+\+\+ b\/a\.txt\n@@ -1,3 \+1,3 @@\n a1\n-a2\n\+A2\n a3\n<\/diff>\nNot checked for errors \(no language server runs outside VS Code\): a\.txt, new\/c\.txt\.$/);
    assert.equal(read('a.txt'), 'a1\nA2\na3\n');
    assert.equal(read('new/c.txt'), 'c1\n');
    assert.equal(fs.existsSync(p('gone.txt')), false);
  });

  it('writes nothing when the person rejects, and passes their reason on', async () => {
    const s = scriptedApprover(() => ({ kind: 'rejected', reason: 'not the delete' }));
    const r = await call(await context(tree.root, {}, s.approver), 'fs_apply_patch', { patch: three });
    assert.match(r.text, /rejected this change; nothing was written\. Their reason: not the delete/);
    assert.equal(read('a.txt'), 'a1\na2\na3\n');
    assert.equal(fs.existsSync(p('new')), false);
    assert.equal(read('gone.txt'), 'bye\n');
  });

  it('verifies every hunk first: one that does not fit leaves every file as it was', async () => {
    const r = await call(await context(tree.root), 'fs_apply_patch', { patch: patch('*** Update File: a.txt', '-a2', '+A2', '*** Update File: b.txt', '-not there', '+x') });
    assert.equal(r.isError, true);
    assert.match(r.text, /b\.txt/);
    assert.equal(read('a.txt'), 'a1\na2\na3\n');
  });

  it('puts back what was written when applying fails part-way (a read-only file)', async () => {
    const undo = makeReadOnly(p('b.txt'));
    try {
      const r = await call(await context(tree.root), 'fs_apply_patch', { patch: patch('*** Update File: a.txt', '-a2', '+A2', '*** Add File: z.txt', '+z', '*** Update File: b.txt', '-b2', '+B2') });
      assert.equal(r.isError, true);
      assert.match(r.text, /could not be applied, and nothing was written/);
    } finally {
      undo();
    }
    assert.equal(read('a.txt'), 'a1\na2\na3\n');
    assert.equal(read('b.txt'), 'b1\nb2\nb3\n');
    assert.equal(fs.existsSync(p('z.txt')), false);
  });

  it('names a path that cannot be written as the workspace shows it, and puts everything back', async () => {
    const r = await call(await context(tree.root), 'fs_apply_patch', { patch: patch('*** Update File: b.txt', '-b2', '+B2', '*** Add File: new/dir/n.txt', '+n', '*** Add File: a.txt/x', '+y') });
    assert.equal(r.isError, true);
    assert.equal(r.text, 'The change could not be applied, and nothing was written: a.txt is not a folder.');
    assert.equal(read('b.txt'), 'b1\nb2\nb3\n');
    assert.equal(fs.existsSync(p('new')), false);
  });

  it('shows a move onto an existing file, with the text it replaces', async () => {
    const s = scriptedApprover();
    const r = await call(await context(tree.root, {}, s.approver), 'fs_apply_patch', { patch: patch('*** Update File: a.txt', '*** Move to: dest.txt', '@@', '-a3', '+a3 moved') });
    assert.equal(r.isError, false, r.text);
    const f = s.reviews[0].files[0];
    assert.deepEqual([f.action, f.display, f.from?.display, f.replaces], ['move', 'dest.txt', 'a.txt', 'will be replaced\n']);
    assert.match(r.text, /^M dest\.txt \(moved from a\.txt, replacing the file that was there\)$/m);
    assert.equal(read('dest.txt'), 'a1\na2\na3 moved\n');
    assert.equal(fs.existsSync(p('a.txt')), false);
  });

  it('says in its list which added file replaced an existing one', async () => {
    const r = await call(await context(tree.root), 'fs_apply_patch', { patch: patch('*** Add File: dest.txt', '+fresh', '*** Add File: brand-new.txt', '+n') });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /^A dest\.txt \(replacing the file that was there\)\nA brand-new\.txt\n/m);
    assert.equal(read('dest.txt'), 'fresh\n');
  });

  it('refuses to delete or move away a symbolic link, which would remove the file it points to', async () => {
    fs.mkdirSync(p('sub'));
    fs.writeFileSync(p('sub/real.txt'), 'real\n');
    fs.symlinkSync('sub/real.txt', p('link.txt'));
    const ctx = await context(tree.root);
    for (const body of [['*** Delete File: link.txt'], ['*** Update File: link.txt', '*** Move to: moved.txt', '@@', '-real', '+moved']]) {
      const r = await call(ctx, 'fs_apply_patch', { patch: patch('*** Update File: a.txt', '-a2', '+A2', ...body) });
      assert.equal(r.isError, true, r.text);
      assert.match(r.text, /link\.txt is a symbolic link to sub\/real\.txt, and a patch deletes and moves files, not links/);
      assert.match(r.text, /name it \(`\*\*\* (Delete|Update) File: sub\/real\.txt`\)/);
    }
    assert.equal(read('sub/real.txt'), 'real\n');
    assert.equal(fs.readlinkSync(p('link.txt')), 'sub/real.txt');
    assert.equal(fs.existsSync(p('moved.txt')), false);
    assert.equal(read('a.txt'), 'a1\na2\na3\n');
    // through the link an update edits the file it points to, as an editor does
    const u = await call(ctx, 'fs_apply_patch', { patch: patch('*** Update File: link.txt', '-real', '+edited') });
    assert.equal(u.isError, false, u.text);
    assert.equal(read('sub/real.txt'), 'edited\n');
    assert.equal(fs.lstatSync(p('link.txt')).isSymbolicLink(), true);
  });

  it('shows nothing of a file that may hold secrets, or lies outside the workspace, when a chunk does not fit it', async () => {
    fs.writeFileSync(p('.env'), 'API_KEY=sk-live-123456\nDB_PASS=hunter2\nDB_PASS=hunter2\n');
    const outside = tempTree({ 'o.txt': 'token=abcdef\n' });
    try {
      fs.symlinkSync(path.join(outside.root, 'o.txt'), p('o-link.txt'));
      const ctx = await context(tree.root);
      const cases = [
        ['*** Update File: .env', '@@', '-API_KEY=sk-live-000000', '+API_KEY=x'],
        ['*** Update File: .env', '@@ DB_PASS=hunter', '-x', '+y'],
        ['*** Update File: .env', '@@', '-DB_PASS=hunter2', '+DB_PASS=x'],
        ['*** Update File: o-link.txt', '@@', '-token=abcdeX', '+token=x'],
      ];
      for (const body of cases) {
        const r = await call(ctx, 'fs_apply_patch', { patch: patch(...body) });
        assert.equal(r.isError, true, r.text);
        assert.doesNotMatch(r.text, /sk-live-123456|hunter2|abcdef|L\d|(?<!patch )lines? [0-9]|Closest|similar/, r.text);
        assert.match(r.text, /does not fit .* in exactly one place\. .* may hold secrets or lies outside the workspace, so nothing of its content is shown here\. Read it with fs_read/);
      }
    } finally {
      outside.cleanup();
    }
    assert.equal(read('.env'), 'API_KEY=sk-live-123456\nDB_PASS=hunter2\nDB_PASS=hunter2\n');
    // a plain file keeps the full explanation
    const plain = await call(await context(tree.root), 'fs_apply_patch', { patch: patch('*** Update File: a.txt', '@@', ' a1', '-a9', '+x') });
    assert.match(plain.text, /Closest region of a\.txt/);
    // one answer for several failures: each file's part decides what it shows
    const both = await call(await context(tree.root), 'fs_apply_patch', {
      patch: patch('*** Update File: a.txt', '@@', ' a1', '-a9', '+x', '*** Update File: .env', '@@', '-API_KEY=sk-live-000000', '+API_KEY=x', '@@', '-DB_PASS=hunter', '+y'),
    });
    assert.equal(both.isError, true, both.text);
    assert.match(both.text, /3 problems in 2 files, each below, grouped by file:\nIn a\.txt: 1 problem:\n[^]*Closest region of a\.txt[^]*\nIn \.env: 2 problems:\n/);
    assert.doesNotMatch(both.text, /sk-live-123456|hunter2/, both.text);
    assert.equal((both.text.match(/\.env may hold secrets or lies outside the workspace, so nothing of its content is shown here/g) ?? []).length, 2, both.text);
    assert.equal(read('a.txt'), 'a1\na2\na3\n');
  });

  it('a path that does not exist gets "did you mean", as fs_read gives it, beside the other failures', async () => {
    const r = await call(await context(tree.root), 'fs_apply_patch', {
      patch: patch('*** Update File: b.tx', '@@', '-b2', '+B2', '*** Update File: a.txt', '@@', '-a7', '+A7', '*** Add File: new.txt', '+n'),
    });
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /b\.tx does not exist\. To create it, use `\*\*\* Add File: b\.tx` with the whole content as `\+` lines; otherwise check the path \(fs_glob\)\.\nDid you mean one of these\?\n- b\.txt\n/);
    assert.match(r.text, /In a\.txt: 1 problem:/);
    assert.equal(fs.existsSync(p('new.txt')), false);
  });

  describe("with the CLI's --yes, a file another program writes between the answer and the apply", () => {
    /** An approver answering as --yes does, then `meddle` run before the apply, as another program's write. */
    const meddling = (meddle: () => void) => {
      const yes = cliApprover({ yes: true, allowOutside: false });
      return {
        ...yes,
        review: async (...args: Parameters<typeof yes.review>) => {
          const answer = await yes.review(...args);
          meddle();
          return answer;
        },
      };
    };
    const cases: { name: string; body: string[]; meddle: () => void; after: () => void }[] = [
      {
        name: 'a delete of a file rewritten since the plan',
        body: ['*** Delete File: b.txt'],
        meddle: () => fs.writeFileSync(p('b.txt'), 'theirs\n'),
        after: () => assert.equal(read('b.txt'), 'theirs\n'),
      },
      {
        name: 'a move whose source was rewritten',
        body: ['*** Update File: b.txt', '*** Move to: c.txt', '@@', '-b2', '+B2'],
        meddle: () => fs.writeFileSync(p('b.txt'), 'theirs\n'),
        after: () => {
          assert.equal(read('b.txt'), 'theirs\n');
          assert.equal(fs.existsSync(p('c.txt')), false);
        },
      },
      {
        name: 'a move onto a file rewritten since the plan',
        body: ['*** Update File: b.txt', '*** Move to: dest.txt', '@@', '-b2', '+B2'],
        meddle: () => fs.writeFileSync(p('dest.txt'), 'theirs\n'),
        after: () => {
          assert.equal(read('dest.txt'), 'theirs\n');
          assert.equal(read('b.txt'), 'b1\nb2\nb3\n');
        },
      },
      {
        name: 'a move onto a path where another program made a file',
        body: ['*** Update File: b.txt', '*** Move to: c.txt', '@@', '-b2', '+B2'],
        meddle: () => fs.writeFileSync(p('c.txt'), 'theirs\n'),
        after: () => {
          assert.equal(read('c.txt'), 'theirs\n');
          assert.equal(read('b.txt'), 'b1\nb2\nb3\n');
        },
      },
      {
        name: 'an edit of a file rewritten to the same size',
        body: ['*** Update File: a.txt', '-a2', '+A2', '*** Update File: b.txt', '-b2', '+B2'],
        meddle: () => fs.writeFileSync(p('b.txt'), 'B1\nb2\nb3\n'),
        after: () => {
          assert.equal(read('a.txt'), 'a1\na2\na3\n');
          assert.equal(read('b.txt'), 'B1\nb2\nb3\n');
        },
      },
    ];
    for (const c of cases) {
      it(`refuses ${c.name}, writing nothing`, async () => {
        const r = await call(await context(tree.root, {}, meddling(c.meddle)), 'fs_apply_patch', { patch: patch(...c.body) });
        assert.equal(r.isError, true, r.text);
        assert.match(r.text, /[Nn]othing was written/);
        c.after();
      });
    }
  });

  it('asks before matching a chunk against a secret the model has not read, so a right guess reads exactly like a wrong one', async () => {
    const secret = 'API_KEY=sk-live-123456\n';
    fs.writeFileSync(p('.env'), secret);
    const ctx = await context(tree.root, {}, cliApprover({ yes: false, allowOutside: false }));
    const right = await call(ctx, 'fs_apply_patch', { patch: patch('*** Update File: .env', '@@', '-API_KEY=sk-live-123456', '+API_KEY=x') });
    const wrong = await call(ctx, 'fs_apply_patch', { patch: patch('*** Update File: .env', '@@', '-API_KEY=sk-live-000000', '+API_KEY=x') });
    assert.equal(right.needsApproval, true, right.text);
    assert.equal(wrong.text, right.text);
    assert.match(right.text, /`fs_apply_patch` wants to change `\.env`, which may hold secrets/);
    assert.doesNotMatch(right.text, /sk-live/);
    assert.equal(read('.env'), secret);
  });

  it('keeps BOM, encoding and CRLF of an updated file, and names a chunk that matched loosely', async () => {
    fs.writeFileSync(p('w.txt'), encodeText('“quoted”\r\nline\r\n', 'utf-8-bom'));
    const r = await call(await context(tree.root), 'fs_apply_patch', { patch: patch('*** Update File: w.txt', '-"quoted"', '+"plain"') });
    assert.equal(r.isError, false, r.text);
    assert.deepEqual(fs.readFileSync(p('w.txt')), Buffer.from(encodeText('"plain"\r\nline\r\n', 'utf-8-bom')));
    assert.match(r.text, /w\.txt: chunk 1 at line 1 matched treating typographic quotes, dashes and spaces as ASCII; as written, then as in the file:\n {2}line 1: "\\"quoted\\""\n {10}"“quoted”"\n<diff>\n/);
  });

  it('refuses to touch .git, names the patch line of a syntax error, and refuses when untrusted', async () => {
    const ctx = await context(tree.root);
    const g = await call(ctx, 'fs_apply_patch', { patch: patch('*** Add File: .git/hooks/post-checkout', '+#!/bin/sh') });
    assert.match(g.text, /inside a \.git folder/);
    const bad = await call(ctx, 'fs_apply_patch', { patch: '*** Begin Patch\n*** Frobnicate File: a.txt\n*** End Patch' });
    assert.match(bad.text, /Line 2: `\*\*\* Frobnicate File: a\.txt` is not a valid hunk header/);
    ctx.ws.trusted = false;
    assert.match((await call(ctx, 'fs_apply_patch', { patch: three })).text, /not trusted/);
    assert.equal(read('a.txt'), 'a1\na2\na3\n');
  });
});
