import * as assert from 'node:assert/strict';
import { applyReplacements, findEdit } from '../../src/core/edit';
import { parsePatch, planPatch, type FileProbe } from '../../src/core/patch';
import { TYPOGRAPHY } from '../../src/core/text/typography';

// fs_edit and fs_apply_patch forgive the same typographic characters: one table, and every
// entry of it tried through both engines, with the near miss beside it.

function code(...lines: string[]): string {
  return lines.join('\n') + '\n';
}

async function patched(file: string, ...chunk: string[]): Promise<{ text?: string; error?: string }> {
  const probe = async (): Promise<FileProbe> => ({ kind: 'file', text: file });
  const patch = ['*** Begin Patch', '*** Update File: f.js', '@@', ...chunk, '*** End Patch'].join('\n') + '\n';
  try {
    const plan = await planPatch(parsePatch(patch), probe);
    const change = plan.changes[0];
    return { text: change.kind === 'update' ? change.newText : undefined };
  } catch (e) {
    return { error: String(e) };
  }
}

const names: Record<string, string> = Object.fromEntries(Object.keys(TYPOGRAPHY).map((c) => [c, `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`]));

describe('one typography table for fs_edit and fs_apply_patch', () => {
  for (const [c, ascii] of Object.entries(TYPOGRAPHY)) {
    const file = code('function f() {', `  label("a${c}b");`, '  done();', '}');
    const asWritten = `  label("a${ascii}b");`;
    const expected = code('function f() {', '  label("changed");', '  done();', '}');

    it(`${names[c]} is read as ${JSON.stringify(ascii)} by fs_edit and by fs_apply_patch`, async () => {
      const r = findEdit(file, { oldString: asWritten, newString: '  label("changed");' });
      assert.ok(r.ok, JSON.stringify(r));
      // A Unicode space is whitespace to the line levels, as a run of spaces is.
      assert.equal(r.level, ascii === ' ' ? 'whitespace-normalized' : 'unicode-normalized');
      assert.equal(applyReplacements(file, r.replacements), expected);
      const p = await patched(file, ' function f() {', `-${asWritten}`, '+  label("changed");', '   done();');
      assert.equal(p.text, expected, p.error);
    });

    it(`near miss: ${names[c]} forgiven, but a letter beside it differs: neither tool applies it`, async () => {
      const wrong = `  label("a${ascii}c");`;
      const r = findEdit(file, { oldString: wrong, newString: '  label("changed");' });
      assert.equal(r.ok, false, JSON.stringify(r));
      const p = await patched(file, ' function f() {', `-${wrong}`, '+  label("changed");', '   done();');
      assert.equal(p.text, undefined, 'the patch applied');
      assert.match(p.error ?? '', /f\.js/);
    });
  }
});
