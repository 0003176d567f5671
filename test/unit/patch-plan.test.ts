import * as assert from 'node:assert/strict';
import { CancelledError } from '../../src/core/errors';
import { MAX_PATCH_PATHS } from '../../src/core/limits';
import { formatPatchError, parsePatch, planPatch, PatchVerifyError, type FileProbe, type PatchPlan, type PatchSyntaxError, type PlannedChange } from '../../src/core/patch';

/** A file tree in memory: text = file, null = folder, absent = missing. Counts probes per path. */
function tree(files: Record<string, string | null>, keyOf?: (p: string) => string) {
  const calls: string[] = [];
  const probe = async (p: string): Promise<FileProbe> => {
    calls.push(p);
    const key = keyOf ? { key: keyOf(p) } : {};
    const hit = Object.prototype.hasOwnProperty.call(files, keyOf ? keyOf(p) : p) ? files[keyOf ? keyOf(p) : p] : undefined;
    return hit === undefined ? { kind: 'missing', ...key } : hit === null ? { kind: 'directory', ...key } : { kind: 'file', text: hit, ...key };
  };
  return { probe, calls };
}

function patchText(...lines: string[]): string {
  return ['*** Begin Patch', ...lines, '*** End Patch'].join('\n') + '\n';
}

async function plan(files: Record<string, string | null>, ...lines: string[]): Promise<PatchPlan> {
  return planPatch(parsePatch(patchText(...lines)), tree(files).probe);
}

async function refused(files: Record<string, string | null>, ...lines: string[]): Promise<PatchVerifyError> {
  try {
    await plan(files, ...lines);
  } catch (e) {
    assert.ok(e instanceof PatchVerifyError, String(e));
    return e;
  }
  assert.fail('the patch was planned');
}

type Update = Extract<PlannedChange, { kind: 'update' }>;

async function updated(before: string, ...chunkLines: string[]): Promise<Update> {
  const p = await plan({ f: before }, '*** Update File: f', ...chunkLines);
  assert.equal(p.changes.length, 1);
  assert.equal(p.changes[0].kind, 'update');
  return p.changes[0] as Update;
}

describe('planPatch: probing', () => {
  it('probes every named path once, moves and repeats included, and nothing when the patch is empty of paths', async () => {
    const t = tree({ a: 'x\n', b: 'y\n' });
    await planPatch(parsePatch(patchText('*** Update File: a', '@@', '-x', '+X', '*** Update File: a', '*** Move to: c', '@@', '-X', '+x', '*** Delete File: b', '*** Add File: b', '+z')), t.probe);
    assert.deepEqual([...t.calls].sort(), ['a', 'b', 'c']);
  });

  it('treats two spellings with the same key as one file, named by its first spelling', async () => {
    const t = tree({ '/w/a.txt': 'one\ntwo\n' }, (p) => `/w/${p.replace(/^\.\//, '')}`);
    const p = await planPatch(parsePatch(patchText('*** Update File: a.txt', '@@', '-one', '+ONE', '*** Update File: ./a.txt', '@@', '-two', '+TWO')), t.probe);
    assert.deepEqual(p.changes, [{ kind: 'update', path: 'a.txt', oldText: 'one\ntwo\n', newText: 'ONE\nTWO\n', matches: [{ hunk: 1, chunk: 1, line: 1, pass: 'exact' }, { hunk: 2, chunk: 1, line: 2, pass: 'exact' }], hunks: [1, 2] }]);
    assert.equal(t.calls.length, 2);
  });

  it('reads a move onto another spelling of the same file (a change of case) as a rename, not a delete', async () => {
    const t = tree({ '/w/readme.md': 'a\n' }, (p) => `/w/${p.toLowerCase()}`);
    const p = await planPatch(parsePatch(patchText('*** Update File: README.md', '*** Move to: readme.md', '@@', '-a', '+b')), t.probe);
    assert.deepEqual(p.changes, [{ kind: 'update', path: 'README.md', movePath: 'readme.md', moveOverwrites: false, oldText: 'a\n', newText: 'b\n', matches: [{ hunk: 1, chunk: 1, line: 1, pass: 'exact' }], hunks: [1] }]);
  });

  it('a move to the very same path string is a plain update (Codex would delete the file)', async () => {
    const p = await plan({ a: 'x\n' }, '*** Update File: a', '*** Move to: a', '@@', '-x', '+y');
    assert.deepEqual(p.changes.map((c) => [c.kind, c.path, (c as Update).movePath]), [['update', 'a', undefined]]);
  });

  it('refuses a patch naming more paths than the cap, before probing', async () => {
    const t = tree({});
    const lines = Array.from({ length: MAX_PATCH_PATHS + 1 }, (_, i) => [`*** Add File: f${i}`, '+x']).flat();
    await assert.rejects(planPatch(parsePatch(patchText(...lines)), t.probe), (e: unknown) => e instanceof PatchVerifyError && e.code === 'too-many-paths');
    assert.equal(t.calls.length, 0);
  });

  it('refuses an empty hunk list built by hand', async () => {
    await assert.rejects(planPatch({ hunks: [] }, tree({}).probe), (e: unknown) => e instanceof PatchVerifyError && e.code === 'empty');
  });

  it('stops when cancelled, before probing and between hunks', async () => {
    const t = tree({ a: 'x\n' });
    await assert.rejects(planPatch(parsePatch(patchText('*** Delete File: a')), t.probe, { isCancellationRequested: true }), CancelledError);
    assert.equal(t.calls.length, 0);
    const signal = { isCancellationRequested: false };
    const slow = async (p: string): Promise<FileProbe> => {
      signal.isCancellationRequested = true;
      return t.probe(p);
    };
    await assert.rejects(planPatch(parsePatch(patchText('*** Delete File: a')), slow, signal), CancelledError);
  });

  it('passes a probe failure through, and stops probing', async () => {
    let calls = 0;
    const failing = async (): Promise<FileProbe> => {
      calls++;
      throw new Error('EACCES');
    };
    const lines = Array.from({ length: 40 }, (_, i) => `*** Delete File: f${i}`);
    await assert.rejects(planPatch(parsePatch(patchText(...lines)), failing), /EACCES/);
    assert.ok(calls <= 8, `${calls} probes after the first failure`);
  });
});

describe('planPatch: file operations', () => {
  it('adds, deletes and updates, one change per file in patch order, with the hunks that made it', async () => {
    const p = await plan({ gone: 'bye\n', keep: 'a\nb\n' }, '*** Add File: new/f.txt', '+hi', '*** Delete File: gone', '*** Update File: keep', '@@', '-b', '+B');
    assert.deepEqual(p.changes, [
      { kind: 'add', path: 'new/f.txt', newText: 'hi\n', overwrites: false, hunks: [1] },
      { kind: 'delete', path: 'gone', oldText: 'bye\n', hunks: [2] },
      { kind: 'update', path: 'keep', oldText: 'a\nb\n', newText: 'a\nB\n', matches: [{ hunk: 3, chunk: 1, line: 2, pass: 'exact' }], hunks: [3] },
    ]);
  });

  it('an add over an existing file overwrites it and says so, with the old text (Codex 011)', async () => {
    const p = await plan({ d: 'old\n' }, '*** Add File: d', '+new');
    assert.deepEqual(p.changes, [{ kind: 'add', path: 'd', newText: 'new\n', overwrites: true, oldText: 'old\n', hunks: [1] }]);
  });

  it('a move onto an existing file overwrites it and says so, with the text it replaces (Codex 010)', async () => {
    const p = await plan({ 'old/n': 'from\n', 'new/n': 'existing\n' }, '*** Update File: old/n', '*** Move to: new/n', '@@', '-from', '+new');
    assert.deepEqual(p.changes, [
      { kind: 'update', path: 'old/n', movePath: 'new/n', oldText: 'from\n', newText: 'new\n', moveOverwrites: true, overwrittenText: 'existing\n', matches: [{ hunk: 1, chunk: 1, line: 1, pass: 'exact' }], hunks: [1] },
    ]);
  });

  it('a move onto a free path does not overwrite', async () => {
    const p = await plan({ a: 'x\n' }, '*** Update File: a', '*** Move to: b/c', '@@', '-x', '+y');
    assert.equal((p.changes[0] as Update).moveOverwrites, false);
    assert.equal((p.changes[0] as Update).overwrittenText, undefined);
  });

  for (const [name, files, lines, code, path] of [
    ['update of a missing file (Codex 009)', {}, ['*** Update File: m', '@@', '-a', '+b'], 'missing', 'm'],
    ['delete of a missing file (Codex 007)', {}, ['*** Delete File: m'], 'missing', 'm'],
    ['delete of a folder (Codex 012)', { dir: null }, ['*** Delete File: dir'], 'directory', 'dir'],
    ['update of a folder', { dir: null }, ['*** Update File: dir', '@@', '-a'], 'directory', 'dir'],
    ['add onto a folder', { dir: null }, ['*** Add File: dir', '+x'], 'directory', 'dir'],
    ['move onto a folder', { a: 'x\n', dir: null }, ['*** Update File: a', '*** Move to: dir', '@@', '-x', '+y'], 'directory', 'dir'],
  ] as const) {
    it(`refuses ${name}`, async () => {
      const e = await refused(files, ...lines);
      assert.equal(e.code, code);
      assert.equal((e.detail as { path: string }).path, path);
    });
  }
});

describe('planPatch: several hunks on one path', () => {
  it('the same file updated twice: one update, the second hunk seeing the first one`s result', async () => {
    const p = await plan({ t: 'a\nb\n' }, '*** Update File: t', '@@', '-a', '+A', '*** Update File: t', '@@', ' A', '-b', '+B');
    assert.deepEqual(p.changes.map((c) => [c.kind, (c as Update).oldText, (c as Update).newText, c.hunks]), [['update', 'a\nb\n', 'A\nB\n', [1, 2]]]);
  });

  it('add then update: one add with the final text', async () => {
    const p = await plan({}, '*** Add File: n', '+one', '+two', '*** Update File: n', '@@', '-two', '+2');
    assert.deepEqual(p.changes, [{ kind: 'add', path: 'n', newText: 'one\n2\n', overwrites: false, hunks: [1, 2] }]);
  });

  it('delete then add: an add that overwrites, with the original text', async () => {
    const p = await plan({ c: 'old\r\n' }, '*** Delete File: c', '*** Add File: c', '+new');
    assert.deepEqual(p.changes, [{ kind: 'add', path: 'c', newText: 'new\n', overwrites: true, oldText: 'old\r\n', hunks: [1, 2] }]);
  });

  it('update then delete: a delete of the original text', async () => {
    const p = await plan({ c: 'a\n' }, '*** Update File: c', '@@', '-a', '+b', '*** Delete File: c');
    assert.deepEqual(p.changes, [{ kind: 'delete', path: 'c', oldText: 'a\n', hunks: [1, 2] }]);
  });

  it('add then delete of a new path: no change', async () => {
    const p = await plan({}, '*** Add File: tmp', '+x', '*** Delete File: tmp');
    assert.deepEqual(p.changes, []);
  });

  it('update then move, then update under the new path: one move with the final text', async () => {
    const p = await plan({ a: '1\n2\n3\n' }, '*** Update File: a', '@@', '-1', '+one', '*** Update File: a', '*** Move to: b', '@@', '-2', '+two', '*** Update File: b', '@@', '-3', '+three');
    assert.deepEqual(p.changes, [
      {
        kind: 'update',
        path: 'a',
        movePath: 'b',
        oldText: '1\n2\n3\n',
        newText: 'one\ntwo\nthree\n',
        moveOverwrites: false,
        matches: [
          { hunk: 1, chunk: 1, line: 1, pass: 'exact' },
          { hunk: 2, chunk: 1, line: 2, pass: 'exact' },
          { hunk: 3, chunk: 1, line: 3, pass: 'exact' },
        ],
        hunks: [1, 2, 3],
      },
    ]);
  });

  it('add then move: an add at the destination', async () => {
    const p = await plan({}, '*** Add File: a', '+x', '*** Update File: a', '*** Move to: b', '@@', '-x', '+y');
    assert.deepEqual(p.changes, [{ kind: 'add', path: 'b', newText: 'y\n', overwrites: false, hunks: [1, 2] }]);
  });

  it('an update after a delete fails, naming the delete', async () => {
    const e = await refused({ a: 'x\n' }, '*** Delete File: a', '*** Update File: a', '@@', '-x');
    assert.equal(e.code, 'missing');
    assert.match(e.message, /^`\*\*\* Update File: a` \(patch line 3\): a does not exist \(`\*\*\* Delete File: a` \(patch line 2\) deletes it earlier in this patch\)\./);
  });

  it('an update of a moved file under its old path fails, naming the move', async () => {
    const e = await refused({ a: 'x\n' }, '*** Update File: a', '*** Move to: b', '@@', '-x', '+y', '*** Update File: a', '@@', '-y');
    assert.equal(e.code, 'missing');
    assert.match(e.message, /moves it to b earlier in this patch/);
  });

  for (const [name, lines] of [
    ['an add at a moved file`s old path', ['*** Update File: a', '*** Move to: b', '@@', '-x', '+y', '*** Add File: a', '+z']],
    ['a delete of a move`s destination', ['*** Update File: a', '*** Move to: b', '@@', '-x', '+y', '*** Delete File: b']],
    ['an add at a move`s destination', ['*** Update File: a', '*** Move to: b', '@@', '-x', '+y', '*** Add File: b', '+z']],
    ['a second move of a moved file', ['*** Update File: a', '*** Move to: b', '@@', '-x', '+y', '*** Update File: b', '*** Move to: c', '@@', '-y', '+z']],
    ['a move onto a path an earlier hunk touched', ['*** Add File: b', '+new', '*** Update File: a', '*** Move to: b', '@@', '-x', '+y']],
    ['a move onto a path an earlier hunk deleted', ['*** Delete File: c', '*** Update File: a', '*** Move to: c', '@@', '-x', '+y']],
  ] as const) {
    it(`refuses ${name} (one patch cannot say it without guessing)`, async () => {
      const e = await refused({ a: 'x\n', c: 'c\n' }, ...lines);
      assert.equal(e.code, 'move-sequence', e.message);
      assert.match(e.message, /Split the patch into two patches\./);
    });
  }

  it('when a later update fails, its line numbers are said to be those of the file as an earlier hunk left it', async () => {
    const e = await refused({ t: 'a\nb\n' }, '*** Update File: t', '@@', '-a', '+A', '*** Update File: t', '@@', '-zzz');
    assert.equal(e.code, 'no-match');
    assert.match(e.message, /\(line numbers are those of the file as hunk 1 of this patch leaves it\)/);
  });
});

describe('planPatch: matching', () => {
  it('records the pass that found each chunk', async () => {
    const c = await updated('exact\ntrail  \n  indented\nquote \u201cx\u201d\n', '@@', '-exact', '+1', '@@', '-trail', '+2', '@@', '-indented', '+3', '@@', '-quote "x"', '+4');
    assert.deepEqual(
      c.matches.map((m) => m.pass),
      ['exact', 'trim-end', 'trim', 'unicode'],
    );
    // `-indented` was written 2 columns short of `  indented`: the line added in its place moves with it
    assert.equal(c.newText, '1\n2\n  3\n4\n');
  });

  it('keeps kept lines as the file has them when they matched loosely, and writes added lines in its indentation', async () => {
    const c = await updated('\tif (x) {\n\t\tgo();\n\t}\n', '@@', '    if (x) {', '-        go();', '+        stop();', '    }');
    assert.equal(c.newText, '\tif (x) {\n\t\tstop();\n\t}\n');
    assert.equal(c.matches[0].pass, 'trim');
  });

  it('a stricter pass wins over a looser one elsewhere: a unique exact fit is taken although a trimmed one exists too', async () => {
    const c = await updated('  x\nx\n', '@@', '-x', '+y');
    assert.equal(c.newText, '  x\ny\n');
  });

  it('a line written without trailing whitespace fits a line with it as well as one without: two such places are ambiguous', async () => {
    // `foo ` at line 1 and `foo` at line 3: the model may have meant either, its whitespace lost on the way
    const e = await refused({ f: 'foo \nbar\nfoo\n' }, '*** Update File: f', '@@', '-foo', '+FOO');
    assert.equal(e.code, 'ambiguous');
    assert.deepEqual((e.detail as { places: number[] }).places, [1, 3]);
    const block = await refused({ f: 'if (a) {\t\n  run();\n}\nif (a) {\n  run();\n}\n' }, '*** Update File: f', '@@', ' if (a) {', '-  run();', '+  stop();');
    assert.equal(block.code, 'ambiguous');
    // an @@ line is found the same way
    const ctx = await refused({ f: 'def a(): \n    x\ndef a():\n    x\n' }, '*** Update File: f', '@@ def a():', '-    x', '+    y');
    assert.equal(ctx.code, 'ambiguous');
  });

  it('a line written with trailing whitespace means the line that has it, and a lost trailing whitespace is reported', async () => {
    const c = await updated('foo \nbar\nfoo\n', '@@', '-foo ', '+FOO');
    assert.equal(c.newText, 'FOO\nbar\nfoo\n');
    assert.equal(c.matches[0].pass, 'exact');
    const lost = await updated('keep\nfoo  \nbar\n', '@@', ' keep', '-foo', '+FOO');
    assert.equal(lost.newText, 'keep\nFOO\nbar\n');
    assert.equal(lost.matches[0].pass, 'trim-end');
    // `a ` must be `a ` (line 3's `a` is not), `b` may be `b` or `b `
    const mixed = await updated('a\nb \na \nb \n', '@@', '-a ', '-b', '+x');
    assert.equal(mixed.newText, 'a\nb \nx\n');
    assert.equal((await refused({ f: 'a \nb \na \nb\n' }, '*** Update File: f', '@@', '-a ', '-b', '+x')).code, 'ambiguous');
  });

  it('finds the @@ line first and the old lines after it', async () => {
    const c = await updated('def a():\n    return 0\ndef b():\n    return 0\n', '@@ def b():', '-    return 0', '+    return 1');
    assert.equal(c.newText, 'def a():\n    return 0\ndef b():\n    return 1\n');
  });

  it('accepts old lines that repeat the @@ line (Codex would not find them after it)', async () => {
    const c = await updated('x\nfunction greet() {\n  hi();\n}\n', '@@ function greet() {', ' function greet() {', '-  hi();', '+  hello();');
    assert.equal(c.newText, 'x\nfunction greet() {\n  hello();\n}\n');
    assert.equal(c.matches[0].line, 2);
  });

  it('old lines repeating the @@ line are still refused when they fit again further on', async () => {
    const e = await refused({ f: 'f() {\n  a();\n}\nf() {\n  a();\n}\n' }, '*** Update File: f', '@@ f() {', ' f() {', '-  a();', '+  b();');
    assert.equal(e.code, 'ambiguous');
    assert.deepEqual((e.detail as { places: number[] }).places, [1, 4]);
  });

  it('an ambiguous @@ line is fine when the old lines fit one place only', async () => {
    const c = await updated('else {\n  a();\n}\nelse {\n  b();\n}\n', '@@ else {', '-  b();', '+  c();');
    assert.equal(c.newText, 'else {\n  a();\n}\nelse {\n  c();\n}\n');
  });

  it('refuses a chunk that fits twice after its @@ line, naming the places', async () => {
    const e = await refused({ f: 'class A:\n  x = 1\n  y = 2\n  x = 1\n' }, '*** Update File: f', '@@ class A:', '-  x = 1', '+  x = 3');
    assert.equal(e.code, 'ambiguous');
    assert.deepEqual((e.detail as { places: number[] }).places, [2, 4]);
    assert.equal(
      e.message,
      "`*** Update File: f` (patch line 2), chunk 1 of 1 (patch line 3, `@@ class A:`): its old lines (marked ` ` or `-`) fit f more than once inside the block `@@ class A:` names (starting at lines 2 and 4), and the patch does not say which one it means. Add unchanged ` ` lines around the change, or a further `@@` line naming the block inside it that holds the change (`@@ class A` then `@@ def run():`), until only one place fits.",
    );
  });

  it('names the first chunk that could move, and counts the places beyond the first five', async () => {
    const e = await refused({ f: 'x\n'.repeat(9) }, '*** Update File: f', '@@', '-x', '+y');
    assert.equal(e.code, 'ambiguous');
    assert.deepEqual([(e.detail as { places: number[] }).places, (e.detail as { count: number }).count], [[1, 2, 3, 4, 5], 9]);
    assert.match(e.message, /in 9 places \(starting at lines 1, 2, 3, 4, 5 and 4 more\)/);
  });

  it('a chunk is ambiguous when a later chunk leaves it room to move', async () => {
    // Chunk 1 fits lines 1 and 3; chunk 2 fits line 5 only: both placements work.
    const e = await refused({ f: 'a\nb\na\nb\nc\n' }, '*** Update File: f', '@@', '-a', '+A', '@@', '-c', '+C');
    assert.equal(e.code, 'ambiguous');
    assert.equal((e.detail as { chunk: { index: number } }).chunk.index, 1);
    assert.deepEqual((e.detail as { places: number[] }).places, [1, 3]);
  });

  it('two chunks over two identical blocks fit one way only: one each', async () => {
    const c = await updated('a\nb\na\nb\n', '@@', '-a', '+1', '@@', '-a', '+2');
    assert.equal(c.newText, '1\nb\n2\nb\n');
  });

  it('seeks each chunk after the previous one and refuses chunks out of file order, saying so', async () => {
    const e = await refused({ f: 'a\nb\nc\n' }, '*** Update File: f', '@@', '-c', '+C', '@@', '-a', '+A');
    assert.equal(e.code, 'no-match');
    assert.match(e.message, /These lines are at line 1, above line 4, where the search began \(after the previous chunk and this chunk's `@@` lines\): list the chunks of a file from top to bottom/);
  });

  it('retries a chunk without its trailing empty line (a separator before the next @@)', async () => {
    const c = await updated('a\nb\nc\n', '@@', '-a', '+A', '', '@@', '-c', '+C');
    assert.equal(c.newText, 'A\nb\nC\n');
  });

  it('uses the trailing empty line when the file has it', async () => {
    const c = await updated('a\n\nb\n\n', '@@', '-b', '+B', '');
    assert.equal(c.newText, 'a\n\nB\n\n');
  });
});

describe('planPatch: a @@ line that opens a block holds its chunk inside that block', () => {
  const py = 'def a():\n    x = 1\n    y = 2\n\ndef b():\n    x = 1\n    y = 2\n';

  it('picks the function the @@ line names when another function below has the same lines', async () => {
    assert.equal((await updated(py, '@@ def a():', '     x = 1', '-    y = 2', '+    y = 3')).newText, py.replace('y = 2', 'y = 3'));
    assert.equal((await updated(py, '@@ def b():', '     x = 1', '-    y = 2', '+    y = 3')).newText, 'def a():\n    x = 1\n    y = 2\n\ndef b():\n    x = 1\n    y = 3\n');
    const both = await updated(py, '@@ def a():', '-    y = 2', '+    y = 3', '@@ def b():', '-    y = 2', '+    y = 4');
    assert.equal(both.newText, 'def a():\n    x = 1\n    y = 3\n\ndef b():\n    x = 1\n    y = 4\n');
    assert.deepEqual(both.matches.map((m) => m.line), [3, 7]);
  });

  it('reads braces, modifiers that differ, nested @@ lines and else branches', async () => {
    const js = 'function a() {\n  if (ready) {\n    start();\n  }\n}\n\nfunction b() {\n  if (ready) {\n    start();\n  }\n}\n';
    assert.equal((await updated(js, '@@ function a() {', '-    start();', '+    start(1);')).newText, js.replace('start();', 'start(1);'));
    const java = 'class K {\n  public void a() {\n    run();\n  }\n  private void b() {\n    run();\n  }\n}\n';
    assert.equal((await updated(java, '@@ public void a() {', '-    run();', '+    run(1);')).newText, java.replace('run();', 'run(1);'));
    const nested = 'class A:\n    def run(self):\n        x = 1\n\nclass B:\n    def run(self):\n        x = 1\n';
    assert.equal((await updated(nested, '@@ class A:', '@@ def run(self):', '-        x = 1', '+        x = 2')).newText, nested.replace('x = 1', 'x = 2'));
    assert.equal((await updated(nested, '@@ class B:', '@@ def run(self):', '-        x = 1', '+        x = 2')).newText, 'class A:\n    def run(self):\n        x = 1\n\nclass B:\n    def run(self):\n        x = 2\n');
    const branches = 'if (ok) {\n  go();\n} else {\n  go();\n}\n';
    assert.equal((await updated(branches, '@@ if (ok) {', '-  go();', '+  go(1);')).newText, 'if (ok) {\n  go(1);\n} else {\n  go();\n}\n');
  });

  it('still refuses lines that fit twice inside the named block, also across a column-0 line in it', async () => {
    const twice = await refused({ f: 'def a():\n    x = 1\n    pass\n    x = 1\n\ndef b():\n    x = 1\n' }, '*** Update File: f', '@@ def a():', '-    x = 1', '+    x = 2');
    assert.equal(twice.code, 'ambiguous');
    assert.deepEqual((twice.detail as { places: number[]; inBlocks: number[] }).inBlocks, [2, 4]);
    assert.equal(
      twice.message,
      '`*** Update File: f` (patch line 2), chunk 1 of 1 (patch line 3, `@@ def a():`): its old lines (marked ` ` or `-`) fit f more than once inside the block `@@ def a():` names (starting at lines 2 and 4), and the patch does not say which one it means. Add unchanged ` ` lines around the change, or a further `@@` line naming the block inside it that holds the change (`@@ class A` then `@@ def run():`), until only one place fits.',
    );
    // the string's lines at column 0 do not end the function: the second `x = 1` is still in it
    const text = 'def a():\n    x = 1\n    q = """\nSELECT 1\n"""\n    x = 1\n\ndef b():\n    x = 1\n';
    const across = await refused({ f: text }, '*** Update File: f', '@@ def a():', '-    x = 1', '+    x = 2');
    assert.equal(across.code, 'ambiguous');
    const c = await refused({ f: '#include <a.h>\nint f() {\n  g();\n#ifdef X\n  g();\n#endif\n}\nint h() {\n  g();\n}\n' }, '*** Update File: f', '@@ int f() {', '-  g();', '+  g(1);');
    assert.equal(c.code, 'ambiguous');
  });

  it('a @@ line that opens no block scopes nothing: lines that fit twice below it stay ambiguous', async () => {
    const e = await refused({ f: 'import os\nx = 1\ny = 2\nx = 1\n' }, '*** Update File: f', '@@ import os', '-x = 1', '+x = 2');
    assert.equal(e.code, 'ambiguous');
    const flat = await refused({ f: 'a:\nx\nb:\nx\n' }, '*** Update File: f', '@@ a:', '-x', '+y');
    assert.equal(flat.code, 'ambiguous');
  });

  it('keeps chunks in file order: a chunk may not go back above the chunk before it to find its block', async () => {
    const e = await refused({ f: py }, '*** Update File: f', '@@ def b():', '-    x = 1', '+    x = 5', '@@ def a():', '-    y = 2', '+    y = 6');
    assert.equal(e.code, 'context-not-found');
  });
});

describe('planPatch: End of File and chunks without old lines', () => {
  it('*** End of File anchors the chunk at the end, not at an earlier fit (Codex 022)', async () => {
    const c = await updated('x\ny\nx\n', '@@', '-x', '+z', '*** End of File');
    assert.equal(c.newText, 'x\ny\nz\n');
  });

  it('*** End of File tolerates trailing blank lines in the file', async () => {
    const c = await updated('x\ny\n\n  \n', '@@', '-y', '+Y', '*** End of File');
    assert.equal(c.newText, 'x\nY\n\n  \n');
  });

  it('refuses an End of File chunk whose lines are not at the end, saying where they are', async () => {
    const e = await refused({ f: 'a\nb\nc\n' }, '*** Update File: f', '@@', '-a', '+A', '*** End of File');
    assert.equal(e.code, 'no-match');
    assert.match(e.message, /These lines are at line 1, but the chunk ends with `\*\*\* End of File`/);
  });

  it('appends a chunk of only + lines at the end, before a final empty line (Codex 016)', async () => {
    assert.equal((await updated('a\nb\n', '@@', '+c')).newText, 'a\nb\nc\n');
    assert.equal((await updated('a\n\n', '@@', '+c')).newText, 'a\nc\n\n');
    assert.equal((await updated('', '@@', '+c')).newText, 'c\n');
    // a file without a final line break keeps ending without one
    assert.equal((await updated('a', '@@', '+c')).newText, 'a\nc');
  });

  it('accepts a chunk of only + lines under a @@ line that is the last line of the file', async () => {
    const c = await updated('def f():\n    pass\nlast()\n', '@@ last()', '+after()');
    assert.equal(c.newText, 'def f():\n    pass\nlast()\nafter()\n');
  });

  it('refuses a chunk of only + lines under a @@ line in the middle of the file (Codex would append it at the end)', async () => {
    const e = await refused({ f: 'def f():\n    pass\nother()\n' }, '*** Update File: f', '@@ def f():', '+    x = 1');
    assert.equal(e.code, 'insertion-unanchored');
    assert.match(e.message, /To insert after a line, repeat that line as an unchanged line \(` def f\(\):`\) before the `\+` lines\./);
  });

  it('refuses a chunk of only + lines followed by a chunk that changes lines: it would land at the end, below that change', async () => {
    // `+import os` first, then a change further down: appending the import at the end is not what was meant.
    const e = await refused({ f: 'import sys\n\ndef f():\n    pass\n' }, '*** Update File: f', '+import os', '@@ def f():', '-    pass', '+    return 1');
    assert.equal(e.code, 'insertion-not-last');
    assert.match(e.message, /chunk 1 of 2 .*: the chunk has only `\+` lines, and such a chunk goes at the end of the file, but chunk 2 after it changes lines of f/);
    const between = await refused({ f: 'a\nb\nc\n' }, '*** Update File: f', '@@', '-a', '+A', '@@', '+added', '@@', '-c', '+C');
    assert.equal(between.code, 'insertion-not-last');
    assert.match(between.message, /chunk 2 of 3 .* but chunk 3 after it/);
  });

  it('still appends chunks of only + lines that come after every changing chunk', async () => {
    assert.equal((await updated('a\nb\n', '@@', '-a', '+A', '@@', '+c', '@@', '+d')).newText, 'A\nb\nc\nd\n');
  });
});

describe('planPatch: line endings and the final newline', () => {
  it('keeps CRLF, for kept, replaced and added lines', async () => {
    assert.equal((await updated('a\r\nb\r\nc\r\n', '@@', ' a', '-b', '+B', '+B2', ' c')).newText, 'a\r\nB\r\nB2\r\nc\r\n');
  });

  it('in a mixed file, a replacing line takes the ending of the line it replaces, extra lines the dominant one', async () => {
    // 2 LF, 1 CRLF: LF dominates.
    assert.equal((await updated('a\nb\r\nc\n', '@@', '-b', '+B', '+B2')).newText, 'a\nB\r\nB2\nc\n');
  });

  it('on a tie CRLF dominates; a file without endings takes LF', async () => {
    assert.equal((await updated('a\r\nb\n', '@@', '-a', '-b', '+1', '+2', '+3')).newText, '1\r\n2\n3\r\n');
    assert.equal((await updated('a', '@@', '-a', '+b', '+c')).newText, 'b\nc');
  });

  it('an updated file ends as it ended: with its line ending, or without one, whichever chunk changed its last line; an emptied file stays empty', async () => {
    assert.equal((await updated('x\r\nlast', '@@', '-x', '+y')).newText, 'y\r\nlast');
    assert.equal((await updated('x\r\nlast', '@@', ' x', '-last', '+LAST')).newText, 'x\r\nLAST');
    assert.equal((await updated('x\nlast', '@@', ' last', '+more')).newText, 'x\nlast\nmore');
    assert.equal((await updated('x\nlast', '@@', '-x', '-last')).newText, '');
    assert.equal((await updated('x\r\nlast\r\n', '@@', '-x', '+y')).newText, 'y\r\nlast\r\n');
    assert.equal((await updated('only\n', '@@', '-only')).newText, '');
  });

  it('a `\\ No newline at end of file` line of the chunk that ends the file says how the result ends', async () => {
    // git's form for "the line break was added": the old side marked, the new one not
    assert.equal((await updated('x\nlast', '@@', ' x', '-last', '\\ No newline at end of file', '+last')).newText, 'x\nlast\n');
    // and "taken away"
    assert.equal((await updated('x\nlast\n', '@@', ' x', '-last', '+last', '\\ No newline at end of file')).newText, 'x\nlast');
    // a mark on a chunk that does not reach the end says nothing of the end
    assert.equal((await updated('x\nmid\nlast', '@@', '-x', '\\ No newline at end of file', '+y', ' mid')).newText, 'y\nmid\nlast');
  });

  it('added files use \\n', async () => {
    const p = await plan({}, '*** Add File: n', '+a', '+b');
    assert.equal((p.changes[0] as { newText: string }).newText, 'a\nb\n');
  });
});

describe('planPatch: errors the model reads', () => {
  it('a chunk that does not fit shows what the patch expects and the closest region with its first difference', async () => {
    const file = 'def greet():\n    print("Hi")\n    return None\n\ndef other():\n    pass\n';
    const e = await refused({ 'src/app.py': file }, '*** Update File: src/app.py', '@@ def greet():', '     print("Hi")', '-    return', '+    return 1');
    assert.equal(e.code, 'no-match');
    assert.equal(
      e.message,
      [
        '`*** Update File: src/app.py` (patch line 2), chunk 1 of 1 (patch line 3, `@@ def greet():`): its old lines (marked ` ` or `-`) are not in src/app.py after line 1, even ignoring whitespace around lines and typographic punctuation. The patch expects:',
        '     print("Hi")',
        '-    return',
        'Closest region of src/app.py: lines 2-3; first difference at line 3, where the patch expects `    return`:',
        'L2:     print("Hi")',
        'L3:     return None',
      ].join('\n'),
    );
    const region = (e.detail as { closest: { startLine: number; diffLine: number } }).closest;
    assert.deepEqual([region.startLine, region.diffLine], [2, 3]);
  });

  it('the closest region is found by similar lines when no line is equal', async () => {
    const e = await refused({ f: 'alpha\nconst total = computeTotal(items);\nomega\n' }, '*** Update File: f', '@@', '-const total = computeTotals(items);', '+x');
    assert.match(e.message, /Closest region of f: line 2; first difference at line 2/);
  });

  it('says when nothing resembles the lines', async () => {
    const e = await refused({ f: 'alpha\n' }, '*** Update File: f', '@@', '-zzzzzzzz', '+x');
    assert.match(e.message, /No region of f resembles these lines\./);
  });

  it('says when the file ends before the chunk does', async () => {
    const e = await refused({ f: 'a\nb\n' }, '*** Update File: f', '@@', ' a', ' b', '-c');
    assert.match(e.message, /the file ends at line 2, where the patch expects one more line, `c`/);
  });

  it('a @@ line not found names the most similar line, or the earlier place it is at', async () => {
    const e = await refused({ f: 'def greet(name):\n    pass\n' }, '*** Update File: f', '@@ def greet():', '-    pass');
    assert.equal(e.code, 'context-not-found');
    assert.match(e.message, /the `@@` text `def greet\(\):` matches no line of f\. The most similar line is L1: `def greet\(name\):`\. A `@@` line must repeat a line of the file above the change, or the start of one/);
    const e2 = await refused({ f: 'a\nb\nc\n' }, '*** Update File: f', '@@', '-c', '+C', '@@ a', '-b');
    assert.match(e2.message, /matches no line of f after line 3\. It is line 1, above line 4, where the search began \(after the previous chunk\)/);
  });

  it('cuts long quoted lines and long chunks', async () => {
    const long = 'q'.repeat(1000);
    const e = await refused({ f: 'a\n' }, '*** Update File: f', '@@', ...Array.from({ length: 30 }, (_, i) => `-${long}${i}`));
    assert.match(e.message, /\(18 more lines\)/);
    assert.ok(e.message.length < 6000, `${e.message.length}`);
  });

  it('formatPatchError says nothing was applied, then what is wrong, then what to send', () => {
    let syntax: PatchSyntaxError | undefined;
    try {
      parsePatch('*** Begin Patch\n*** Frob\n*** End Patch');
    } catch (e) {
      syntax = e as PatchSyntaxError;
    }
    assert.equal(
      formatPatchError(syntax as PatchSyntaxError),
      'The patch was not applied (no file was changed): it is malformed. Line 2: `*** Frob` is not a valid hunk header. Valid hunk headers: `*** Add File: <path>`, `*** Delete File: <path>` or `*** Update File: <path>`.\nFix it and send the whole patch again.',
    );
    const verify = new PatchVerifyError({ code: 'missing', hunk: { index: 2, kind: 'update', path: 'm.txt', patchLine: 4 }, path: 'm.txt' });
    assert.equal(
      formatPatchError(verify),
      'The patch was not applied (no file was changed, not even by the hunks that fit). `*** Update File: m.txt` (patch line 4): m.txt does not exist. To create it, use `*** Add File: m.txt` with the whole content as `+` lines; otherwise check the path (fs_glob).\nFix it and send the whole patch again, every hunk included.',
    );
  });
});

describe('planPatch: hostile input stays bounded', () => {
  // A quadratic search (every chunk scanning the whole file) takes minutes here; the
  // engine's searches are linear in what they pass over, and learn from failures.
  it('50,000 chunks repeating one loosely matching line, over 200,000 copies of it: refused as ambiguous, in seconds', async function () {
    this.timeout(60_000);
    const started = Date.now();
    const file = 'x \n'.repeat(200_000);
    const e = await planPatch(parsePatch(`*** Begin Patch\n*** Update File: f\n${'@@\n-x\n'.repeat(50_000)}*** End Patch\n`), async () => ({ kind: 'file', text: file })).catch((err: unknown) => err);
    assert.ok(e instanceof PatchVerifyError && e.code === 'ambiguous', String(e));
    assert.ok(Date.now() - started < 15_000, `${Date.now() - started} ms`);
  });

  it('a long chunk that does not fit a file of one repeated line is refused with a region, in seconds', async function () {
    this.timeout(60_000);
    const started = Date.now();
    const e = await refused({ f: '}\n'.repeat(200_000) }, '*** Update File: f', '@@', ...Array.from({ length: 2000 }, () => ' }'), '-missing');
    assert.equal(e.code, 'no-match');
    assert.ok(Date.now() - started < 15_000, `${Date.now() - started} ms`);
  });

  it('stops between chunks when cancelled during verification', async () => {
    let checks = 0;
    const signal = {
      get isCancellationRequested(): boolean {
        return ++checks > 5;
      },
    };
    const lines = Array.from({ length: 100 }, (_, i) => [`@@`, `-l${i}`, `+L${i}`]).flat();
    const text = Array.from({ length: 100 }, (_, i) => `l${i}\n`).join('');
    await assert.rejects(planPatch(parsePatch(patchText('*** Update File: f', ...lines)), tree({ f: text }).probe, signal), CancelledError);
    assert.ok(checks > 5 && checks < 20, `${checks} checks`);
  });
});

describe('planPatch: the habits of models, applied where the place is certain', () => {
  const yaml = 'list:\n  - item1a\n  - group:\n    - item1b\n    - item2b\n      - nested1\n';

  it('a chunk found with its indentation forgiven moves its added lines as its other lines moved, and says so', async () => {
    const c = await updated(yaml, '@@', '-  - item2b', '+  - item20b', '-    - nested1', '+    - nested3');
    assert.equal(c.newText, yaml.replace('item2b', 'item20b').replace('nested1', 'nested3'));
    const [m] = c.matches;
    assert.deepEqual([m.pass, m.line, m.lines], ['trim', 5, 2]);
    assert.deepEqual(m.differing, [
      { line: 5, written: '  - item2b', file: '    - item2b' },
      { line: 6, written: '    - nested1', file: '      - nested1' },
    ]);
    assert.match(m.indent ?? '', /moved 2 columns right/);
  });

  it('lines off by different amounts: each added line from its nearest kept or removed line', async () => {
    const py = 'class R:\n    def run(self):\n        for i in x:\n            if i:\n                go(i)\n';
    const c = await updated(py, '@@', '         for i in x:', '         if i:', '-              go(i)', '+              go(i, 2)', '+              done(i)');
    assert.equal(c.newText, py.replace('                go(i)\n', '                go(i, 2)\n                done(i)\n'));
  });

  it('refuses, naming the line and showing the region, an added line that would not sit where the patch puts it', async () => {
    const e = await refused({ f: 'a:\n  b: 1\n  c:\n    d: 2\n' }, '*** Update File: f', '@@', ' a:', '   b: 1', ' c:', '-   d: 2', '+ d: 3');
    assert.equal(e.code, 'indent-uncertain');
    assert.match(e.message, /its added line `\+ d: 3` would land at 2 columns[^]*L3: {3}c:\nL4: {5}d: 2\nWrite the chunk's lines with the file's indentation\./);
  });

  it('kept lines without their leading space: read whole, or refused when the two readings fit two places', async () => {
    const c = await updated('def f():\n    x = 1\n    return x\n', '@@', 'def f():', '    x = 1', '-    return x', '+    return x + 1');
    assert.equal(c.newText, 'def f():\n    x = 1\n    return x + 1\n');
    assert.equal(c.matches[0].pass, 'exact');
    const e = await refused({ f: 'x\n a\ny\nx\n  a\ny\n' }, '*** Update File: f', '@@', 'x', '  a', '-y', '+Y');
    assert.equal(e.code, 'ambiguous');
    assert.match(e.message, /some of its kept lines have no leading space[^]*at different places \(lines 1 and 4\)/);
  });

  it('a blank line before the next @@ is a kept empty line only where the chunk fits nowhere else without it', async () => {
    // with it: lines 2-3 only; without it: lines 2, 3 and 5
    const e = await refused({ f: 'k\n\n\nx\n\n' }, '*** Update File: f', '@@', ' ', '+y', '');
    assert.equal(e.code, 'ambiguous');
    // with it and without it, the same one place
    const c = await updated('a\nb\n\nc\n', '@@', ' a', '-b', '+B', '', '@@', '-c', '+C');
    assert.equal(c.newText, 'a\nB\n\nC\n');
  });

  it('names every chunk that fits in more than one way, in one answer', async () => {
    const e = await refused({ f: 'x\nx\ny\nq\ny\n' }, '*** Update File: f', '@@', '-x', '+X', '@@', ' q', '+z');
    assert.deepEqual(
      e.failures.map((f) => f.code),
      ['ambiguous'],
    );
    const both = await refused({ f: 'x\nx\nq\ny\ny\n' }, '*** Update File: f', '@@', '-x', '+X', '@@', ' q', '@@', '-y', '+Y');
    assert.deepEqual(
      both.failures.map((f) => (f.code === 'ambiguous' ? f.chunk.index : 0)),
      [1, 3],
    );
  });
});
