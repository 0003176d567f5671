import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { exitCodeOf, type Approver, type ChangeProposal, type Confirmation } from '../../src/services/approval';
import { cliApprover } from '../../src/services/cliApprover';
import { NEVER_CANCELLED } from '../../src/core/cancel';
import { phrase } from '../../src/core/phrase';
import { call, context, prepare, tempTree } from './helpers';

const outside: Confirmation = { reasons: ['outside'], title: phrase('t'), message: phrase('m.') };
const secret: Confirmation = { reasons: ['sensitive'], title: phrase('t'), message: phrase('m.') };
const both: Confirmation = { reasons: ['outside', 'sensitive'], title: phrase('t'), message: phrase('m.') };
const proposal: ChangeProposal = {
  tool: 'fs_edit',
  summary: 'edit a.txt',
  files: [{ path: '/w/a.txt', display: 'a.txt', action: 'modify', oldText: 'a\n', newText: 'b\n' }],
};

describe('the CLI approver', () => {
  it('answers questions from its flags, and the result decides the exit code', async () => {
    const none = cliApprover({ yes: false, allowOutside: false });
    const o = await none.confirm(outside, NEVER_CANCELLED);
    assert.ok(!o.allowed && exitCodeOf(o.result) === 1 && /--allow-outside/.test(JSON.stringify(o.result)));
    const s = await none.confirm(secret, NEVER_CANCELLED);
    assert.ok(!s.allowed && exitCodeOf(s.result) === 3 && /--yes/.test(JSON.stringify(s.result)));
    const half = await cliApprover({ yes: false, allowOutside: true }).confirm(both, NEVER_CANCELLED);
    assert.ok(!half.allowed && exitCodeOf(half.result) === 3, 'an outside secret needs --yes too');
    assert.deepEqual(await cliApprover({ yes: true, allowOutside: true }).confirm(both, NEVER_CANCELLED), { allowed: true });
  });

  it('shows a change as a unified diff without --yes, and accepts it as proposed with --yes', async () => {
    const r = await cliApprover({ yes: false, allowOutside: false }).review(proposal, NEVER_CANCELLED);
    assert.deepEqual(r, { kind: 'needs-approval', preview: '--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,1 @@\n-a\n+b' });
    const y = await cliApprover({ yes: true, allowOutside: false }).review(proposal, NEVER_CANCELLED);
    assert.equal(y.kind, 'accepted');
    assert.equal(y.kind === 'accepted' && y.texts.get('/w/a.txt'), 'b\n');
  });
});

describe('the CLI approver and changes outside --root', () => {
  it('writes nothing outside --root through the tools that change files unless --allow-outside is given', async () => {
    const tree = tempTree({ 'ws/a.txt': 'a\n', 'out/o.txt': 'o\n' });
    try {
      const ws = path.join(tree.root, 'ws');
      fs.symlinkSync(path.join(tree.root, 'out'), path.join(ws, 'link'));
      const ctx = await context(ws, {}, cliApprover({ yes: true, allowOutside: false }));
      const calls: [string, object][] = [
        ['fs_apply_patch', { patch: '*** Begin Patch\n*** Add File: ../out/new.txt\n+x\n*** End Patch' }],
        ['fs_apply_patch', { patch: '*** Begin Patch\n*** Update File: link/o.txt\n@@\n-o\n+pwned\n*** End Patch' }],
        ['fs_apply_patch', { patch: '*** Begin Patch\n*** Update File: a.txt\n*** Move to: ../out/a.txt\n@@\n-a\n+b\n*** End Patch' }],
        ['fs_write', { path: path.join(tree.root, 'out/w.txt'), content: 'w\n' }],
        ['fs_edit', { path: 'link/o.txt', old_string: 'o', new_string: 'pwned' }],
      ];
      for (const [tool, input] of calls) {
        const r = await call(ctx, tool, input);
        assert.equal(r.isError, true, `${tool}: ${r.text}`);
        assert.match(r.text, /outside the workspace folders.*--allow-outside/, tool);
      }
      assert.deepEqual(fs.readdirSync(path.join(tree.root, 'out')), ['o.txt']);
      assert.equal(fs.readFileSync(path.join(tree.root, 'out/o.txt'), 'utf8'), 'o\n');
      assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'a\n');
      const allowed = await call(await context(ws, {}, cliApprover({ yes: true, allowOutside: true })), 'fs_apply_patch', { patch: '*** Begin Patch\n*** Update File: link/o.txt\n@@\n-o\n+ok\n*** End Patch' });
      assert.equal(allowed.isError, false, allowed.text);
      assert.equal(fs.readFileSync(path.join(tree.root, 'out/o.txt'), 'utf8'), 'ok\n');
    } finally {
      tree.cleanup();
    }
  });

  it('shows the file a move replaces in its preview', async () => {
    const move: ChangeProposal = { tool: 'fs_apply_patch', summary: 'patch', files: [{ path: '/w/c.txt', display: 'c.txt', action: 'move', from: { path: '/w/b.txt', display: 'b.txt' }, oldText: 'bee\n', newText: 'BEE\n', replaces: 'sea\n' }] };
    const r = await cliApprover({ yes: false, allowOutside: false }).review(move, NEVER_CANCELLED);
    assert.equal(r.kind === 'needs-approval' && r.preview, 'rename from b.txt\nrename to c.txt\n--- a/b.txt\n+++ b/c.txt\n@@ -1,1 +1,1 @@\n-bee\n+BEE\nc.txt exists and is replaced:\n--- a/c.txt\n+++ b/c.txt\n@@ -1,1 +1,1 @@\n-sea\n+BEE');
  });
});

describe('deciding on the file actually read', () => {
  it('asks again inside the call when the path became sensitive after the confirmation step', async () => {
    const tree = tempTree({ 'notes.txt': 'harmless\n', '.env': 'TOKEN=hunter2\n' });
    try {
      const asked: Confirmation[] = [];
      const refuse: Approver = {
        async confirm(q) {
          asked.push(q);
          return { allowed: false, result: { isError: true, parts: [{ kind: 'text', text: 'declined' }] } };
        },
        async review() {
          return { kind: 'rejected' };
        },
        showApplied() {},
      };
      const ctx = await context(tree.root, {}, refuse);
      const prep = await prepare(ctx, 'fs_read', { path: 'notes.txt' });
      assert.equal(prep?.confirmation, undefined, 'a plain file needs no question');
      // the file is swapped for a link to the secret between the confirmation and the call
      fs.rmSync(path.join(tree.root, 'notes.txt'));
      fs.symlinkSync('.env', path.join(tree.root, 'notes.txt'));
      const r = await call(ctx, 'fs_read', { path: 'notes.txt' });
      assert.equal(r.isError, true);
      assert.doesNotMatch(r.text, /hunter2/);
      assert.deepEqual(asked.map((q) => q.reasons), [['sensitive']]);
    } finally {
      tree.cleanup();
    }
  });
});
