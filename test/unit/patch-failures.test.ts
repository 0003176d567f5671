import * as assert from 'node:assert/strict';
import { MAX_ERROR_TEXT_CHARS, MAX_PATCH_FAILED_FILES_SHOWN, MAX_PATCH_FAILURES_PER_FILE } from '../../src/core/limits';
import { formatPatchError, parsePatch, planPatch, PatchVerifyError, type FileProbe, type PlannedChange } from '../../src/core/patch';

function patchText(...lines: string[]): string {
  return ['*** Begin Patch', ...lines, '*** End Patch'].join('\n') + '\n';
}

function probeOf(files: Record<string, string>): (p: string) => Promise<FileProbe> {
  return async (p) => (Object.prototype.hasOwnProperty.call(files, p) ? { kind: 'file', text: files[p] } : { kind: 'missing' });
}

async function refused(files: Record<string, string>, ...lines: string[]): Promise<PatchVerifyError> {
  try {
    await planPatch(parsePatch(patchText(...lines)), probeOf(files));
  } catch (e) {
    assert.ok(e instanceof PatchVerifyError, String(e));
    return e;
  }
  assert.fail('the patch was planned');
}

async function newText(files: Record<string, string>, ...lines: string[]): Promise<string> {
  const plan = await planPatch(parsePatch(patchText(...lines)), probeOf(files));
  return (plan.changes[0] as Extract<PlannedChange, { kind: 'update' }>).newText;
}

const A = 'def load():\n    return read()\n\ndef save(data):\n    write(data)\n    return True\n\ndef close():\n    pass\n';
const B = 'export function a() {\n  return 1;\n}\nexport function b() {\n  return 2;\n}\n';

describe('fs_apply_patch: every failure in one answer', () => {
  it('three bad chunks in two files: all three, grouped per file, in one error; nothing is planned', async () => {
    const e = await refused(
      { 'a.py': A, 'b.ts': B },
      '*** Update File: a.py',
      '@@',
      '-    return reed()',
      '+    return read(1)',
      '@@ def save(data):',
      '     write(data)',
      '-    return Tru',
      '+    return False',
      '*** Update File: b.ts',
      '@@',
      '-  return 3;',
      '+  return 4;',
    );
    assert.equal(e.failures.length, 3);
    assert.deepEqual(
      e.failures.map((d) => [d.code, 'path' in d ? d.path : '']),
      [
        ['no-match', 'a.py'],
        ['no-match', 'a.py'],
        ['no-match', 'b.ts'],
      ],
    );
    const lines = e.message.split('\n');
    assert.equal(lines[0], '3 problems in 2 files, each below, grouped by file:');
    assert.equal(lines[1], 'In a.py: 2 problems:');
    assert.ok(lines.includes('In b.ts: 1 problem:'), e.message);
    // each names its chunk and shows the file's text where it was expected
    assert.match(e.message, /chunk 1 of 2 \(patch line 3\): its old lines .* are not in a\.py/);
    assert.match(e.message, /chunk 2 of 2 \(patch line 6, `@@ def save\(data\):`; placed as if chunk 1, which fails too, were not there, so where it goes is not certain\)/);
    assert.match(e.message, /L2: {5}return read\(\)/);
    assert.match(e.message, /L6: {5}return True/);
    assert.match(e.message, /Closest region of b\.ts: line 2;[^\n]*\nL2: {3}return 1;/);
    assert.match(formatPatchError(e), /^The patch was not applied \(no file was changed, not even by the hunks that fit\)\. 3 problems in 2 files[^]*\nFix them and send the whole patch again, every hunk included\.$/);
  });

  it('a chunk after a failed one is placed as if the failed one were skipped: fitting, it is not reported', async () => {
    const e = await refused({ 'a.py': A }, '*** Update File: a.py', '@@', '-    return reed()', '+    return 1', '@@', '-    pass', '+    return None');
    assert.equal(e.failures.length, 1);
    assert.equal(e.message.split('\n')[0].startsWith('`*** Update File: a.py` (patch line 2), chunk 1 of 2'), true, e.message);
  });

  it('a missing file, a folder and a failing chunk are all named, in patch order', async () => {
    const e = await refused({ 'a.py': A }, '*** Update File: nope.py', '@@', '-x', '+y', '*** Update File: a.py', '@@', '-    pas', '+    return None', '*** Delete File: gone.py');
    assert.deepEqual(
      e.failures.map((d) => d.code),
      ['missing', 'no-match', 'missing'],
    );
    assert.match(e.message, /^3 problems in 3 files/);
    assert.match(e.message, /nope\.py does not exist/);
    assert.match(e.message, /gone\.py does not exist/);
  });

  it('is capped: a few per file, a few files, within MAX_ERROR_TEXT_CHARS, then the count of the rest', async () => {
    const files: Record<string, string> = {};
    const lines: string[] = [];
    for (let f = 0; f < 8; f++) {
      files[`f${f}.txt`] = Array.from({ length: 50 }, (_, i) => `line ${i} of file ${f}`).join('\n') + '\n';
      lines.push(`*** Update File: f${f}.txt`);
      for (let c = 0; c < 5; c++) {
        lines.push('@@', `-line ${c * 10} of file ${f}!`, '+x');
      }
    }
    const e = await refused(files, ...lines);
    assert.equal(e.failures.length, 40);
    const text = formatPatchError(e);
    assert.ok(text.length < MAX_ERROR_TEXT_CHARS, `${text.length}`);
    const heads = text.split('\n').filter((l) => l.startsWith('In f'));
    assert.ok(heads.length >= 1 && heads.length <= MAX_PATCH_FAILED_FILES_SHOWN, heads.join('\n'));
    const shown = (text.match(/: its old lines/g) ?? []).length;
    assert.ok(shown >= 1 && shown <= MAX_PATCH_FAILURES_PER_FILE * heads.length, `${shown}`);
    assert.match(text, new RegExp(`\\nAnd ${40 - shown} more problems not shown, in ${8 - heads.length} more files: fix those above and send the patch again to see them\\.\\n`));
  });

  it('2,000 failing chunks over a 100,000-line file are refused in seconds, each counted', async function () {
    this.timeout(60_000);
    const file = Array.from({ length: 100_000 }, (_, i) => `value_${i} = compute(${i})`).join('\n') + '\n';
    const lines = ['*** Update File: big.py'];
    for (let c = 0; c < 2000; c++) {
      lines.push('@@', `-value_${c * 50} = compute(${c * 50 + 1})`, `+value_${c * 50} = 0`);
    }
    const t = Date.now();
    const e = await refused({ 'big.py': file }, ...lines);
    assert.equal(e.failures.length, 2000);
    // one file: named once, its problems counted once
    assert.match(e.message, /^2000 problems in big\.py:\n`\*\*\* Update File: big\.py`/);
    assert.doesNotMatch(e.message, /In big\.py:/);
    assert.match(e.message, /\nAnd 1997 more problems not shown: fix those above/);
    assert.ok(Date.now() - t < 20_000, `${Date.now() - t} ms`);
  });
});

describe('fs_apply_patch: a @@ line may be the start of a line', () => {
  const S = 'class Store:\n    def save(self, item):\n        self.items.append(item)\n        return True\n\n    def save_all(self, items):\n        for i in items:\n            self.save(i)\n        return True\n';

  it('`@@ def save` names the one line that starts with it where the chunk can go', async () => {
    const out = await newText({ s: S }, '*** Update File: s', '@@ def save_a', '-        return True', '+        return len(items)');
    assert.equal(out, S.replace(/return True\n$/, 'return len(items)\n'));
    // two lines start with `def save`, but after either the chunk goes to the same place: not ambiguous
    const same = await newText({ s: S }, '*** Update File: s', '@@ def save', '         self.items.append(item)', '-        return True', '+        return item');
    assert.equal(same, S.replace('append(item)\n        return True', 'append(item)\n        return item'));
  });

  it('a prefix repeated as the kept line below it (`@@ def save` then ` def save(self, item):`) starts the chunk on that line', async () => {
    const out = await newText({ s: S }, '*** Update File: s', '@@ def save(', '     def save(self, item):', '-        self.items.append(item)', '+        self.items.insert(0, item)');
    assert.equal(out, S.replace('self.items.append(item)', 'self.items.insert(0, item)'));
  });

  it('refuses a prefix under whose lines the chunk would go to different places, listing them', async () => {
    const e = await refused({ s: S }, '*** Update File: s', '@@ def save', '-        return True', '+        return False');
    assert.equal(e.code, 'context-ambiguous');
    assert.equal(
      e.message,
      [
        '`*** Update File: s` (patch line 2), chunk 1 of 1 (patch line 3, `@@ def save`): the `@@` text `def save` is not a whole line of s, and 2 of its lines start with it, under which the chunk would go to different places:',
        'L2:     def save(self, item):',
        'L6:     def save_all(self, items):',
        'Write the `@@` line as the whole line of the one you mean (or enough of its start that only it begins so).',
      ].join('\n'),
    );
  });

  it('a whole line wins over lines it only starts', async () => {
    const file = 'logger()\n  pass\nlog\n  pass\n';
    assert.equal(await newText({ f: file }, '*** Update File: f', '@@ log', '-  pass', '+  done'), 'logger()\n  pass\nlog\n  done\n');
  });

  it('near misses: text inside a line, or a prefix of punctuation only, names no line', async () => {
    const inside = await refused({ s: S }, '*** Update File: s', '@@ save_all(self', '-        return True', '+        return 0');
    assert.equal(inside.code, 'context-not-found');
    const brace = await refused({ f: '{\n  a\n}\n' }, '*** Update File: f', '@@ {a', '-  a', '+  b');
    assert.equal(brace.code, 'context-not-found');
    const punct = await refused({ f: '})\n  a\n' }, '*** Update File: f', '@@ }', '-  a', '+  b');
    assert.equal(punct.code, 'context-not-found');
    // a prefix is searched after the chunk before, like a whole line
    const order = await refused({ s: S }, '*** Update File: s', '@@', '-            self.save(i)', '+            self.save(i, 1)', '@@ def save_a', '-        return True', '+        return 0');
    assert.equal(order.code, 'context-not-found');
  });

  it('a chunk of only added lines under a prefix of the last line goes at the end', async () => {
    const out = await newText({ f: 'a = 1\ndef last_one():\n' }, '*** Update File: f', '@@ def last', '+    return 1');
    assert.equal(out, 'a = 1\ndef last_one():\n    return 1\n');
  });
});
