import * as assert from 'node:assert/strict';
import { parsePatch, PatchSyntaxError, type Chunk, type Hunk } from '../../src/core/patch';
import { MAX_PATCH_CHARS } from '../../src/core/limits';

function patch(...lines: string[]): string {
  return ['*** Begin Patch', ...lines, '*** End Patch'].join('\n') + '\n';
}

function updateOf(text: string): Extract<Hunk, { kind: 'update' }> {
  const [h] = parsePatch(text).hunks;
  assert.equal(h.kind, 'update');
  return h as Extract<Hunk, { kind: 'update' }>;
}

/** The parse error of `text`: its line and message. */
function syntaxError(text: string): PatchSyntaxError {
  try {
    parsePatch(text);
  } catch (e) {
    assert.ok(e instanceof PatchSyntaxError, String(e));
    assert.match(e.message, new RegExp(`^Line ${e.line}: `));
    return e;
  }
  assert.fail('parsed without error');
}

describe('parsePatch: forms', () => {
  it('reads add, delete and update (with a move) hunks with their header lines', () => {
    const parsed = parsePatch(patch('*** Add File: src/new.ts', '+export const a = 1;', '+', '*** Delete File: old.txt', '*** Update File: a.py', '*** Move to: b.py', '@@ def f():', '-    pass', '+    return 1'));
    assert.deepEqual(parsed.hunks, [
      { kind: 'add', path: 'src/new.ts', contents: 'export const a = 1;\n\n', patchLine: 2 },
      { kind: 'delete', path: 'old.txt', patchLine: 5 },
      {
        kind: 'update',
        path: 'a.py',
        movePath: 'b.py',
        patchLine: 6,
        chunks: [
          {
            context: 'def f():',
            contexts: ['def f():'],
            oldLines: ['    pass'],
            newLines: ['    return 1'],
            body: [
              { op: '-', text: '    pass' },
              { op: '+', text: '    return 1' },
            ],
            isEndOfFile: false,
            patchLine: 8,
          },
        ],
      },
    ]);
  });

  it('an added file with no lines is empty; its lines each end with \\n', () => {
    const [a, b] = parsePatch(patch('*** Add File: empty.txt', '*** Add File: two.txt', '+x', '+y')).hunks;
    assert.deepEqual(a, { kind: 'add', path: 'empty.txt', contents: '', patchLine: 2 });
    assert.equal((b as { contents: string }).contents, 'x\ny\n');
  });

  it('keeps kept, removed and added lines apart, in order, and marks *** End of File', () => {
    const h = updateOf(patch('*** Update File: f', '@@', ' a', '-b', '+B', ' c', '*** End of File'));
    const c = h.chunks[0];
    assert.deepEqual(c.oldLines, ['a', 'b', 'c']);
    assert.deepEqual(c.newLines, ['a', 'B', 'c']);
    assert.deepEqual(c.body.map((l) => l.op).join(''), ' -+ ');
    assert.equal(c.isEndOfFile, true);
    assert.equal(c.context, undefined);
    assert.deepEqual(c.contexts, []);
  });

  it('reads several chunks, each from its @@ line, with their patch lines', () => {
    const h = updateOf(patch('*** Update File: f', '@@ one', '-a', '+b', '@@ two', '-c', '+d'));
    assert.deepEqual(
      h.chunks.map((c) => [c.context, c.patchLine, c.oldLines, c.newLines]),
      [
        ['one', 3, ['a'], ['b']],
        ['two', 6, ['c'], ['d']],
      ],
    );
  });

  it('an empty line in a chunk is an empty kept line, and so is a whitespace-only line without a mark', () => {
    const c = updateOf(patch('*** Update File: f', '@@', ' a', '', '\t', '-b')).chunks[0];
    assert.deepEqual(c.oldLines, ['a', '', '', 'b']);
    assert.deepEqual(c.newLines, ['a', '', '']);
  });

  it('a chunk may only have kept lines, or only added lines', () => {
    assert.deepEqual(updateOf(patch('*** Update File: f', '@@', ' a')).chunks[0].newLines, ['a']);
    const c = updateOf(patch('*** Update File: f', '@@', '+a')).chunks[0];
    assert.deepEqual([c.oldLines, c.newLines], [[], ['a']]);
  });

  it('inside a chunk a line starting with a space is a kept line, even when it looks like a marker', () => {
    const c = updateOf(patch('*** Update File: f', '@@', ' *** Update File: g', ' *** End of File', ' @@ x', '-y')).chunks[0];
    assert.deepEqual(c.oldLines, ['*** Update File: g', '*** End of File', '@@ x', 'y']);
    assert.equal(c.isEndOfFile, false);
  });
});

describe('parsePatch: lenient forms', () => {
  it('accepts whitespace around the text, the markers and the headers, and blank lines between hunks', () => {
    const parsed = parsePatch('\n\n   *** Begin Patch   \n\n\t*** Add File:   a.txt  \n+x\n\n  *** Delete File: b.txt\t\n\n*** End Patch  \n\n');
    assert.deepEqual(parsed.hunks, [
      { kind: 'add', path: 'a.txt', contents: 'x\n', patchLine: 5 },
      { kind: 'delete', path: 'b.txt', patchLine: 8 },
    ]);
  });

  it('accepts header words in any case and any spacing around the colon', () => {
    const parsed = parsePatch(patch('*** add file:a', '+x', '***Delete File :b', '*** UPDATE FILE: c', '*** move to:d', '@@', '-x', '*** end of file'));
    assert.deepEqual(
      parsed.hunks.map((h) => [h.kind, h.path, h.kind === 'update' ? h.movePath : undefined]),
      [
        ['add', 'a', undefined],
        ['delete', 'b', undefined],
        ['update', 'c', 'd'],
      ],
    );
    assert.equal((parsed.hunks[2] as Extract<Hunk, { kind: 'update' }>).chunks[0].isEndOfFile, true);
  });

  it('accepts CRLF patch text and a BOM, and the lines carry no \\r', () => {
    const c = updateOf('\uFEFF*** Begin Patch\r\n*** Update File: f\r\n@@ ctx\r\n-a\r\n+b\r\n*** End Patch\r\n').chunks[0];
    assert.deepEqual([c.context, c.oldLines, c.newLines], ['ctx', ['a'], ['b']]);
  });

  for (const open of ["<<'EOF'", '<<EOF', '<<"EOF"', "cat <<'EOF'", "apply_patch <<'EOF'", 'apply_patch <<EOF', 'applypatch << "PATCH"', '<<-EOF', "cat <<'EOF' | apply_patch", 'cat <<EOF|applypatch']) {
    it(`strips a heredoc wrapper opened by ${open}`, () => {
      const close = open.includes('PATCH') ? 'PATCH' : 'EOF';
      const parsed = parsePatch(`${open}\n*** Begin Patch\n*** Delete File: x\n*** End Patch\n${close}\n`);
      assert.deepEqual(parsed.hunks, [{ kind: 'delete', path: 'x', patchLine: 3 }]);
    });
  }

  it('strips a Markdown code fence, also around a heredoc', () => {
    assert.deepEqual(parsePatch('```diff\n*** Begin Patch\n*** Delete File: x\n*** End Patch\n```').hunks, [{ kind: 'delete', path: 'x', patchLine: 3 }]);
    assert.deepEqual(parsePatch("```\n<<'EOF'\n*** Begin Patch\n*** Delete File: x\n*** End Patch\nEOF\n```\n").hunks, [{ kind: 'delete', path: 'x', patchLine: 4 }]);
  });

  it('lets the first chunk leave out its @@ line', () => {
    const h = updateOf(patch('*** Update File: f', ' import foo', '+bar', '@@ later', '-x'));
    assert.deepEqual(
      h.chunks.map((c) => [c.contexts, c.oldLines, c.newLines, c.patchLine]),
      [
        [[], ['import foo'], ['import foo', 'bar'], 3],
        [['later'], ['x'], [], 5],
      ],
    );
  });

  it('reads a first chunk without @@ whose first line is a kept `@@ ...` line as that kept line', () => {
    const c = updateOf(patch('*** Update File: f', ' @@ decorated', '-x')).chunks[0];
    assert.deepEqual([c.contexts, c.oldLines], [[], ['@@ decorated', 'x']]);
  });

  it('reads stacked @@ lines as contexts found one after the other', () => {
    const c = updateOf(patch('*** Update File: f', '@@ class A:', '@@     def run(self):', '-        return 0', '+        return 1')).chunks[0];
    assert.deepEqual(c.contexts, ['class A:', '    def run(self):']);
    assert.equal(c.context, '    def run(self):');
  });

  it('reads the context of unified-diff @@ headers and of `@@ text @@`, ignoring the numbers', () => {
    const h = updateOf(patch('*** Update File: f', '@@ -12,7 +12,8 @@ def greet():', '-a', '@@ -1 +1 @@', '-b', '@@ class C @@', '-c', '@@', '-d'));
    assert.deepEqual(
      h.chunks.map((c) => c.context),
      ['def greet():', undefined, 'class C', undefined],
    );
  });

  it('reads an indented @@ line inside a chunk as a kept line', () => {
    const h = updateOf(patch('*** Update File: f', '@@', '-a', '', '   @@ two', '-b'));
    assert.deepEqual(
      h.chunks.map((c) => [c.contexts, c.oldLines]),
      [[[], ['a', '', '  @@ two', 'b']]],
    );
  });

  it('reads blank lines among an added file`s + lines as empty lines, and blank lines after them as separators', () => {
    const [a, b] = parsePatch(patch('*** Add File: a', '+one', '', '', '+two', '', '*** Add File: b', '+x')).hunks;
    assert.equal((a as { contents: string }).contents, 'one\n\n\ntwo\n');
    assert.equal((b as { contents: string }).contents, 'x\n');
  });

  it('reads "\\ No newline at end of file" lines as what they say of the line above, not as lines', () => {
    const both = updateOf(patch('*** Update File: f', '@@', '-a', '\\ No newline at end of file', '+b', '\\ No newline at end of file')).chunks[0];
    assert.deepEqual([both.oldLines, both.newLines, both.noNewline], [['a'], ['b'], { old: true, new: true }]);
    const added = updateOf(patch('*** Update File: f', '@@', '-a', '\\ No newline at end of file', '+b')).chunks[0];
    assert.deepEqual(added.noNewline, { old: true, new: false });
    const kept = updateOf(patch('*** Update File: f', '@@', '-a', '+b', ' c', '\\ No newline at end of file')).chunks[0];
    assert.deepEqual(kept.noNewline, { old: true, new: true });
    // after a line that is not the last of its side: says nothing
    const inside = updateOf(patch('*** Update File: f', '@@', '-a', '\\ No newline at end of file', ' c', '+b')).chunks[0];
    assert.equal(inside.noNewline, undefined);
    // a line starting with a backslash and no space is a kept line of its own
    assert.deepEqual(updateOf(patch('*** Update File: f', '@@', '\\begin{x}', '-a')).chunks[0].oldLines, ['\\begin{x}', 'a']);
  });

  it('keeps paths as written, trimmed, without judging them', () => {
    const parsed = parsePatch(patch('*** Delete File:  ../up/./x y.txt  ', '*** Delete File: /abs/p', '*** Delete File: C:\\w\\f.txt'));
    assert.deepEqual(
      parsed.hunks.map((h) => h.path),
      ['../up/./x y.txt', '/abs/p', 'C:\\w\\f.txt'],
    );
  });
});

describe('parsePatch: habits of models, read where they mean one thing', () => {
  it('a chunk line without its leading space is a kept line, its whole text the line; + and - keep their meaning', () => {
    const c = updateOf(patch('*** Update File: a', '@@', ' x', 'y', '    z', '-w', '+v')).chunks[0];
    assert.deepEqual(c.oldLines, ['x', 'y', '   z', 'w']);
    assert.deepEqual(
      c.body.map((l) => [l.op, l.text, l.bare === true]),
      [
        [' ', 'x', false],
        [' ', 'y', true],
        [' ', '   z', false],
        ['-', 'w', false],
        ['+', 'v', false],
      ],
    );
  });

  it('an update with no lines under it is empty: left out and listed, and the rest of the patch stands', () => {
    const parsed = parsePatch(patch('*** Update File: a', '', '*** Delete File: b', '*** Update File: c', '@@ ctx', '*** Update File: d', '@@', '-x', '+y'));
    assert.deepEqual(
      parsed.hunks.map((h) => [h.kind, h.path]),
      [
        ['delete', 'b'],
        ['update', 'd'],
      ],
    );
    assert.deepEqual(parsed.empty, [
      { path: 'a', patchLine: 2, kind: 'update' },
      { path: 'c', patchLine: 6, kind: 'chunk' },
    ]);
  });

  it('a last @@ line with nothing under it is empty; the chunks before it stand', () => {
    const parsed = parsePatch(patch('*** Update File: a', '@@', '-x', '+y', '@@ def f():'));
    assert.equal((parsed.hunks[0] as { chunks: Chunk[] }).chunks.length, 1);
    assert.deepEqual(parsed.empty, [{ path: 'a', patchLine: 6, kind: 'chunk' }]);
  });

  it('blank lines after a chunk of only + lines separate it from what follows; ` ` lines stay kept lines', () => {
    const sep = updateOf(patch('*** Update File: a', '@@', '+x', '', '', '@@', '-y')).chunks[0];
    assert.deepEqual([sep.oldLines, sep.newLines], [[], ['x']]);
    const kept = updateOf(patch('*** Update File: a', '@@', '+x', ' ')).chunks[0];
    assert.deepEqual(kept.oldLines, ['']);
  });
});

describe('parsePatch: errors name the line and the valid forms', () => {
  const cases: { name: string; text: string; line: number; says: RegExp }[] = [
    { name: 'empty text', text: '  \n\n', line: 1, says: /the patch is empty.*`\*\*\* Begin Patch`/ },
    { name: 'prose before the patch', text: 'Here is the patch:\n*** Begin Patch\n*** Delete File: x\n*** End Patch\n', line: 1, says: /must start with `\*\*\* Begin Patch`, not `Here is the patch:`/ },
    { name: 'no end marker (cut off)', text: '*** Begin Patch\n*** Update File: f\n@@\n-a\n', line: 4, says: /must end with `\*\*\* End Patch`; its last line is `-a`\. Was the patch cut off\?/ },
    { name: 'only a begin marker', text: '*** Begin Patch\n', line: 1, says: /must end with `\*\*\* End Patch`/ },
    { name: 'unclosed heredoc', text: "<<'EOF'\n*** Begin Patch\n*** Delete File: x\n*** End Patch\n", line: 4, says: /opens with `<<'EOF'` on line 1 but its last line is `\*\*\* End Patch`, not `EOF`/ },
    { name: 'empty heredoc', text: '<<EOF\n\nEOF\n', line: 2, says: /nothing between `<<EOF` and `EOF`/ },
    { name: 'no hunks (Codex 005)', text: '*** Begin Patch\n*** End Patch\n', line: 2, says: /no file operations between `\*\*\* Begin Patch` \(line 1\) and `\*\*\* End Patch`.*`\*\*\* Add File: <path>`/ },
    { name: 'unknown header (Codex 013)', text: patch('*** Frobnicate File: foo'), line: 2, says: /`\*\*\* Frobnicate File: foo` is not a valid hunk header\. Valid hunk headers: `\*\*\* Add File: <path>`, `\*\*\* Delete File: <path>` or `\*\*\* Update File: <path>`/ },
    { name: 'update without chunks (Codex 008)', text: patch('*** Update File: foo.txt'), line: 2, says: /`\*\*\* Update File: foo.txt` has no changes.*`@@` line/ },
    { name: 'only empty sections', text: patch('*** Update File: a', '', '*** Update File: b', '@@ ctx'), line: 2, says: /`\*\*\* Update File: a` has no changes/ },
    { name: 'header without a path', text: patch('*** Add File:   ', '+x'), line: 2, says: /`\*\*\* Add File:` names no path\. Write `\*\*\* Add File: <path>`/ },
    { name: 'move without a path', text: patch('*** Update File: a', '*** Move to:', '@@', '-x'), line: 3, says: /`\*\*\* Move to:` names no path/ },
    { name: 'a line after a delete', text: patch('*** Delete File: a', '-old content'), line: 3, says: /follows `\*\*\* Delete File:` \(line 2\), which takes no lines/ },
    { name: 'an added line without +', text: patch('*** Add File: a', '+one', 'two'), line: 4, says: /`two` is not a line of the file added at line 2: every line of an added file starts with `\+`/ },
    { name: 'a chunk line that starts with *** and is no marker (a header or a line: two readings)', text: patch('*** Update File: a', '@@', ' x', '*** y', '+z'), line: 5, says: /`\*\*\* y` in a chunk of a starts as a marker does but is none/ },
    { name: 'a second chunk without @@', text: patch('*** Update File: a', '@@', '-x', '*** End of File', ' y', '-z'), line: 6, says: /starts a new chunk of a without a `@@` line; only the first chunk/ },
    { name: 'a @@ line without lines before End of File', text: patch('*** Update File: a', '@@ ctx', '*** End of File'), line: 3, says: /the chunk of a has no lines\. After its `@@` line/ },
    { name: 'a @@ line at the end', text: patch('*** Update File: a', '@@ ctx'), line: 3, says: /the chunk of a has no lines\. After its `@@` line/ },
    { name: 'End of File at the start of a chunk', text: patch('*** Update File: a', '*** End of File'), line: 3, says: /`\*\*\* End of File` must follow the lines of a chunk/ },
    { name: 'End of File after an add', text: patch('*** Add File: a', '+x', '*** End of File'), line: 4, says: /`\*\*\* End of File` may only end a chunk/ },
    { name: 'a misplaced move', text: patch('*** Add File: a', '+x', '*** Move to: b'), line: 4, says: /`\*\*\* Move to: <path>` must come right after the `\*\*\* Update File: <path>` line/ },
    { name: 'a move after a chunk', text: patch('*** Update File: a', '@@', '-x', '*** Move to: b'), line: 5, says: /must come right after/ },
    { name: 'a second begin marker', text: patch('*** Delete File: a', '*** Begin Patch', '*** Delete File: b'), line: 3, says: /a second `\*\*\* Begin Patch`/ },
    { name: 'text after the end marker', text: '*** Begin Patch\n*** Delete File: a\n*** End Patch\n*** Delete File: b\n*** End Patch\n', line: 3, says: /`\*\*\* End Patch` is followed by more text \(up to line 5\)/ },
    { name: 'a chunk line in the first hunk position', text: patch('-x'), line: 2, says: /expected a hunk header, found `-x`/ },
    { name: 'a non-chunk line after an update', text: patch('*** Update File: a', '@@', '-x', '*** End of File', '* bullet'), line: 6, says: /`\* bullet` in a chunk of a/ },
  ];
  for (const c of cases) {
    it(`${c.name}: line ${c.line}`, () => {
      const e = syntaxError(c.text);
      assert.equal(e.line, c.line, e.message);
      assert.match(e.message, c.says);
    });
  }

  it('counts lines of the text as given, wrapper and leading blank lines included', () => {
    const e = syntaxError('\n\ncat <<EOF\n*** Begin Patch\n*** Bogus\n*** End Patch\nEOF\n');
    assert.equal(e.line, 5);
  });

  it('refuses a patch longer than the cap before reading it', () => {
    const e = syntaxError(`*** Begin Patch\n*** Add File: big\n+${'x'.repeat(MAX_PATCH_CHARS)}\n*** End Patch\n`);
    assert.equal(e.line, 1);
    assert.match(e.message, new RegExp(`a patch may have at most ${MAX_PATCH_CHARS}`));
  });

  it('quotes a very long offending line cut, with its length', () => {
    const e = syntaxError(patch(`*** Frob ${'y'.repeat(5000)}`));
    assert.ok(e.message.length < 1000, `${e.message.length}`);
    assert.match(e.message, /\.\.\. \(5009 characters\)/);
  });
});

describe('parsePatch: chunk shape', () => {
  it('body, oldLines and newLines agree for every chunk', () => {
    const h = updateOf(patch('*** Update File: f', '@@ a', ' k1', '-r1', '+a1', '+a2', ' k2', '-r2', '@@ b', '+only'));
    for (const c of h.chunks as Chunk[]) {
      assert.deepEqual(c.oldLines, c.body.filter((l) => l.op !== '+').map((l) => l.text));
      assert.deepEqual(c.newLines, c.body.filter((l) => l.op !== '-').map((l) => l.text));
    }
  });
});
