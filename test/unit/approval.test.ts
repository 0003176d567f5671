import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { exitCodeOf, type Approver, type ChangeProposal, type Confirmation } from '../../src/tools/approval';
import { cliApprover } from '../../src/tools/cliApprover';
import { NEVER_CANCELLED } from '../../src/core/cancel';
import { call, context, prepare, tempTree } from './helpers';

const outside: Confirmation = { reasons: ['outside'], title: 't', message: 'm.' };
const secret: Confirmation = { reasons: ['sensitive'], title: 't', message: 'm.' };
const both: Confirmation = { reasons: ['outside', 'sensitive'], title: 't', message: 'm.' };
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
