import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliApprover } from '../../src/services/cliApprover';
import { call, context, tempTree } from './helpers';

/** The CLI without --yes previews a change: what the applied result would say of how the text matched, it says too. */
describe('CLI preview (no --yes): the loose-match note', () => {
  let tree: ReturnType<typeof tempTree>;
  beforeEach(() => {
    tree = tempTree({ 'app.ts': 'export function app() {\n  return alpha;\n}\n' });
  });
  afterEach(() => tree.cleanup());

  const preview = () => context(tree.root, { approvalPolicy: 'always' }, cliApprover({ yes: false, allowOutside: false }));

  it('fs_edit: a loose match says how it matched before the diff, as the applied result does, and nothing is written', async () => {
    const r = await call(await preview(), 'fs_edit', { path: 'app.ts', old_string: 'return alpha;  ', new_string: 'return alpha + 1;' });
    assert.equal(r.needsApproval, true);
    const lines = r.text.split('\n');
    assert.match(lines[0], /^old_string matched loosely at line 2: ignored trailing whitespace; .*Check the diff\.$/);
    assert.equal(lines[1], '--- a/app.ts');
    assert.match(r.text, /\n\nThis change needs the user's approval; nothing was written\. Run again with --yes to apply it\.$/);
    assert.equal(fs.readFileSync(path.join(tree.root, 'app.ts'), 'utf8'), 'export function app() {\n  return alpha;\n}\n');
    // The applied result gives the same note.
    const applied = await call(await context(tree.root, { approvalPolicy: 'always' }, cliApprover({ yes: true, allowOutside: false })), 'fs_edit', { path: 'app.ts', old_string: 'return alpha;  ', new_string: 'return alpha + 1;' });
    assert.equal(applied.text.split('\n')[1], lines[0]);
  });

  it('fs_edit: an exact match has no note, the preview starts with the diff', async () => {
    const r = await call(await preview(), 'fs_edit', { path: 'app.ts', old_string: 'return alpha;', new_string: 'return alpha + 1;' });
    assert.equal(r.needsApproval, true);
    assert.match(r.text, /^--- a\/app\.ts\n/);
  });

  it('fs_apply_patch: each loosely matched file is named with its chunks before the diff', async () => {
    const patch = '*** Begin Patch\n*** Update File: app.ts\n@@\n-  return alpha;   \n+  return beta;\n*** End Patch';
    const r = await call(await preview(), 'fs_apply_patch', { patch });
    assert.equal(r.needsApproval, true);
    assert.match(r.text, /^app\.ts: chunk 1 at line 2 matched ignoring trailing whitespace; as written, then as in the file:\n {2}line 2: " {2}return alpha; {3}"\n {10}" {2}return alpha;"\n--- a\/app\.ts\n/);
  });
});
