import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import fc from 'fast-check';
import {
  InstructionMemory,
  findInstructionFiles,
  instructionCandidates,
  instructionReminder,
  loadInstructionFiles,
  renderInstructionReminder,
} from '../../src/core/read/instructions';

/** An in-memory file system: absolute path -> text. */
function fakeFs(files: Record<string, string>) {
  const reads: string[] = [];
  return {
    reads,
    exists: async (p: string) => p in files,
    read: async (p: string) => {
      reads.push(p);
      if (!(p in files)) {
        throw new Error(`ENOENT: ${p}`);
      }
      return files[p];
    },
  };
}

describe('instruction files', () => {
  const root = '/ws';

  it('looks in the file folder and each parent up to, not including, the root, outermost first', () => {
    assert.deepEqual(instructionCandidates('/ws/a/b/file.ts', root), [
      '/ws/a/AGENTS.md',
      '/ws/a/CLAUDE.md',
      '/ws/a/b/AGENTS.md',
      '/ws/a/b/CLAUDE.md',
    ]);
    assert.deepEqual(instructionCandidates('/ws/file.ts', root), []);
    assert.deepEqual(instructionCandidates('/elsewhere/x/file.ts', root), []);
    assert.deepEqual(instructionCandidates('/wsx/file.ts', root), []);
    assert.deepEqual(instructionCandidates('/ws/a/AGENTS.md', root), ['/ws/a/CLAUDE.md']);
  });

  it('handles Windows paths', () => {
    assert.deepEqual(instructionCandidates('C:\\ws\\src\\x.ts', 'C:\\ws', path.win32), ['C:\\ws\\src\\AGENTS.md', 'C:\\ws\\src\\CLAUDE.md']);
    assert.deepEqual(instructionCandidates('D:\\other\\x.ts', 'C:\\ws', path.win32), []);
  });

  it('never leaves the root and never names the file itself', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'AGENTS.md', 'CLAUDE.md', '..x'), { minLength: 1, maxLength: 6 }), (segments) => {
        const file = path.posix.join(root, ...segments);
        const found = instructionCandidates(file, root, path.posix);
        for (const c of found) {
          assert.ok(c.startsWith('/ws/') && path.posix.dirname(c) !== root && c !== file);
          assert.ok(file.startsWith(path.posix.dirname(c) + '/'));
        }
        assert.equal(found.length, 2 * (segments.length - 1) - (/(AGENTS|CLAUDE)\.md$/.test(file) && segments.length > 1 ? 1 : 0));
      }),
    );
  });

  it('keeps only the files that exist, in order', async () => {
    const fs = fakeFs({ '/ws/a/CLAUDE.md': 'c', '/ws/a/b/AGENTS.md': 'x' });
    assert.deepEqual(await findInstructionFiles('/ws/a/b/c/f.ts', root, fs.exists), ['/ws/a/CLAUDE.md', '/ws/a/b/AGENTS.md']);
    const failing = async () => {
      throw new Error('EACCES');
    };
    assert.deepEqual(await findInstructionFiles('/ws/a/f.ts', root, failing), []);
  });

  it('renders a system-reminder with each path and content, nearest last', async () => {
    const fs = fakeFs({ '/ws/src/AGENTS.md': 'Use tabs.\r\n', '/ws/src/app/CLAUDE.md': '\uFEFFRun npm test.\n\nNo default exports.\n' });
    const text = await instructionReminder({ filePath: '/ws/src/app/main.ts', rootPath: root, forPath: 'src/app/main.ts', ...fs });
    assert.equal(
      text,
      [
        '<system-reminder>',
        "Instructions for src/app/main.ts from AGENTS.md and CLAUDE.md files in its folders, outermost first; where they disagree, the nearer folder's file wins.",
        '<instructions path="src/AGENTS.md">',
        'Use tabs.',
        '</instructions>',
        '<instructions path="src/app/CLAUDE.md">',
        'Run npm test.',
        '',
        'No default exports.',
        '</instructions>',
        '</system-reminder>',
      ].join('\n'),
    );
    assert.equal(await instructionReminder({ filePath: '/ws/top.ts', rootPath: root, forPath: 'top.ts', ...fs }), undefined);
  });

  it('cuts a big file at a line break and gives the offset that continues', async () => {
    const big = Array.from({ length: 2000 }, (_, i) => `rule ${i + 1}: ${'r'.repeat(20)}`).join('\n');
    const [f] = await loadInstructionFiles(['/ws/a/AGENTS.md'], async () => big, 1000);
    assert.ok(Buffer.byteLength(f.content) <= 1000);
    const shownLines = f.content.split('\n');
    assert.equal(f.nextLine, shownLines.length + 1);
    assert.equal(shownLines[shownLines.length - 1], `rule ${shownLines.length}: ${'r'.repeat(20)}`);
    const text = renderInstructionReminder([f], { forPath: 'a/x.ts', rootPath: root })!;
    assert.match(text, new RegExp(`\\(Cut: the file is [\\d.]+ KiB, and only its start is shown\\. Read the rest with: fs_read \\{"path":"a/AGENTS\\.md","offset":${f.nextLine}\\}\\)\\n</instructions>`));
  });

  it('cuts inside a long line without splitting a character, and continues from that line', async () => {
    const text = 'short\n' + 'é'.repeat(1000);
    const [f] = await loadInstructionFiles(['/ws/a/AGENTS.md'], async () => text, 101);
    assert.equal(f.content, 'short\n' + 'é'.repeat(47));
    assert.equal(f.nextLine, 2);
  });

  it('gives the total budget to the nearest files first, and says what was left out', async () => {
    const files = { '/ws/a/AGENTS.md': 'o'.repeat(600), '/ws/a/b/AGENTS.md': 'm'.repeat(600), '/ws/a/b/c/AGENTS.md': 'n'.repeat(600) };
    const loaded = await loadInstructionFiles(Object.keys(files), async (p) => files[p as keyof typeof files], 1000, 1000);
    assert.deepEqual(
      loaded.map((f) => [f.content.length, f.omitted ?? false]),
      [
        [0, true],
        [400, false],
        [600, false],
      ],
    );
    const text = renderInstructionReminder(loaded, { forPath: 'a/b/c/x.ts', rootPath: root })!;
    assert.match(text, /<instructions path="a\/AGENTS\.md">\n\(Not included: it is 600 bytes, and the nearer instructions above fill the space allowed\. Read it with: fs_read \{"path":"a\/AGENTS\.md"\}\)\n<\/instructions>/);
  });

  it('keeps a file that cannot be read, with why', async () => {
    const fs = fakeFs({});
    const loaded = await loadInstructionFiles(['/ws/a/AGENTS.md'], fs.read);
    assert.match(renderInstructionReminder(loaded, { forPath: 'a/x', display: (p) => `<${p}>` })!, /<instructions path="&#60;\/ws\/a\/AGENTS\.md&#62;">\n\(Could not be read: ENOENT: \/ws\/a\/AGENTS\.md\)\n<\/instructions>/);
    assert.equal(renderInstructionReminder([], { forPath: 'x' }), undefined);
  });

  describe('per-request memory', () => {
    it('gives each file once per request, and again in a new request', () => {
      const m = new InstructionMemory();
      assert.deepEqual(m.take('r1', ['/a', '/b']), ['/a', '/b']);
      assert.deepEqual(m.take('r1', ['/a', '/c']), ['/c']);
      assert.deepEqual(m.take('r1', ['/a', '/b', '/c']), []);
      assert.deepEqual(m.take('r2', ['/a']), ['/a']);
    });

    it('forgets the least recently used request past its bound', () => {
      const m = new InstructionMemory(2);
      m.take('r1', ['/a']);
      m.take('r2', ['/a']);
      m.take('r1', []);
      m.take('r3', ['/a']);
      assert.equal(m.size, 2);
      assert.deepEqual(m.take('r1', ['/a']), [], 'r1 was used recently and is kept');
      assert.deepEqual(m.take('r2', ['/a']), ['/a'], 'r2 was the oldest and was forgotten');
    });

    it('makes the reminder skip what the request already had, without reading it again', async () => {
      const fs = fakeFs({ '/ws/src/AGENTS.md': 'Use tabs.' });
      const memory = new InstructionMemory();
      const ask = (file: string, requestKey: string) => instructionReminder({ filePath: file, rootPath: root, forPath: file, memory, requestKey, ...fs });
      assert.match((await ask('/ws/src/a.ts', 'req-1'))!, /Use tabs\./);
      assert.equal(await ask('/ws/src/b.ts', 'req-1'), undefined);
      assert.match((await ask('/ws/src/b.ts', 'req-2'))!, /Use tabs\./);
      assert.equal(fs.reads.length, 2);
    });
  });
});
