import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { ToolError } from '../../src/core/errors';
import { MAX_DIR_ENTRIES, MAX_READ_BYTES } from '../../src/core/limits';
import { readDirectoryBounded, renderDirectory, type DirectoryEntry } from '../../src/core/read/directory';

function files(n: number, prefix = 'f'): DirectoryEntry[] {
  return Array.from({ length: n }, (_, i) => ({ name: `${prefix}${String(i).padStart(5, '0')}`, type: 'file' as const }));
}

function entryLines(text: string): string[] {
  const lines = text.split('\n');
  return lines.slice(lines.indexOf('<entries>') + 1, lines.indexOf('</entries>'));
}

describe('fs_read on a folder', () => {
  const entries: DirectoryEntry[] = [
    { name: 'src', type: 'directory' },
    { name: 'README.md', type: 'file' },
    { name: 'a.ts', type: 'file' },
    { name: 'latest', type: 'symlink' },
    { name: 'Zed', type: 'directory' },
    { name: 'sock', type: 'other' },
    { name: 'é.txt', type: 'file' },
    { name: '.github', type: 'directory' },
  ];

  it('renders the envelope, sorted by code unit, folders with /, symlinks with @', () => {
    const page = renderDirectory({ displayPath: 'proj', entries });
    assert.equal(
      page.text,
      [
        '<path>proj</path>',
        '<type>directory</type>',
        '<meta>entries 1-8 of 8</meta>',
        '<entries>',
        '.github/',
        'README.md',
        'Zed/',
        'a.ts',
        'latest@',
        'sock?',
        'src/',
        'é.txt',
        '</entries>',
        'End of folder.',
      ].join('\n'),
    );
    assert.deepEqual([page.total, page.first, page.last, page.nextOffset], [8, 1, 8, undefined]);
  });

  it('gives the same text whatever order the entries come in', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(entries, { minLength: entries.length, maxLength: entries.length }), (shuffled) => {
        assert.equal(renderDirectory({ displayPath: 'proj', entries: shuffled }).text, renderDirectory({ displayPath: 'proj', entries }).text);
      }),
    );
  });

  it('pages by offset and limit with the call that continues', () => {
    const page = renderDirectory({ displayPath: 'proj', entries, offset: 3, limit: 2 });
    assert.deepEqual(entryLines(page.text), ['Zed/', 'a.ts']);
    assert.match(page.text, /<meta>entries 3-4 of 8<\/meta>/);
    assert.match(page.text, /\n<\/entries>\nContinue with: fs_read \{"path":"proj","offset":5\}$/);
    const custom = renderDirectory({ displayPath: 'proj', entries, offset: 3, limit: 2, nextCall: (o) => `fs_read {"path":"./proj","offset":${o},"limit":2}` });
    assert.match(custom.text, /\nContinue with: fs_read \{"path":"\.\/proj","offset":5,"limit":2\}$/);
    assert.deepEqual([page.nextOffset, page.stop], [5, 'limit']);
  });

  it('caps a page at 2000 entries and 50 KiB', () => {
    const many = renderDirectory({ displayPath: 'big', entries: files(3000) });
    assert.deepEqual([many.first, many.last, many.nextOffset], [1, 2000, 2001]);
    const capped = renderDirectory({ displayPath: 'big', entries: files(3000), limit: 99999 });
    assert.equal(capped.last, 2000);
    const wide = renderDirectory({ displayPath: 'wide', entries: files(1500, 'n'.repeat(200)) });
    assert.equal(wide.stop, 'bytes');
    assert.ok(entryLines(wide.text).join('\n').length <= MAX_READ_BYTES + 300);
    assert.match(wide.text, new RegExp(`\\nContinue with: fs_read \\{"path":"wide","offset":${wide.nextOffset}\\}$`));
  });

  it('says when the folder had more entries than were read', () => {
    const page = renderDirectory({ displayPath: 'node_modules', entries: files(MAX_DIR_ENTRIES), complete: false, offset: 4001 });
    assert.match(page.text, /<meta>entries 4001-5000 of the first 5000 read<\/meta>/);
    assert.match(page.text, /\nThe folder holds more than 5000 entries; only the first 5000 the file system gave were read and sorted, so entries are missing\. Use fs_glob/);
    assert.match(page.text, /\nEnd of the entries read\.$/);
    assert.equal(page.nextOffset, undefined);
  });

  it('says a folder is empty; an offset past the end is an error with the count', () => {
    assert.equal(
      renderDirectory({ displayPath: 'empty', entries: [] }).text,
      '<path>empty</path>\n<type>directory</type>\n<meta>empty folder</meta>\n<entries>\n</entries>\nEnd of folder.',
    );
    assert.throws(
      () => renderDirectory({ displayPath: 'proj', entries, offset: 9 }),
      (e: unknown) => e instanceof ToolError && e.code === 'offset-past-end' && e.message === 'offset=9 is past the end of proj: the folder has 8 entries. Use an offset from 1 to 8.',
    );
    assert.throws(() => renderDirectory({ displayPath: 'proj', entries, limit: 0 }), (e: unknown) => e instanceof ToolError && e.code === 'invalid-input');
  });

  it('escapes control characters in names so one entry stays one line', () => {
    const page = renderDirectory({ displayPath: 'odd', entries: [{ name: 'a\nb', type: 'file' }] });
    assert.deepEqual(entryLines(page.text), ['a\\x0ab']);
  });

  it('reads at most the cap and stops pulling once it knows there is more', async () => {
    let pulled = 0;
    function* source(n: number) {
      for (let i = 0; i < n; i++) {
        pulled++;
        yield { name: `e${i}`, type: 'file' as const };
      }
    }
    const r = await readDirectoryBounded(source(100000));
    assert.equal(r.entries.length, MAX_DIR_ENTRIES);
    assert.equal(r.complete, false);
    assert.equal(pulled, MAX_DIR_ENTRIES + 1);
    const small = await readDirectoryBounded(source(3), 3);
    assert.deepEqual([small.entries.length, small.complete], [3, true]);
    async function* asyncSource() {
      yield { name: 'x', type: 'directory' as const };
    }
    assert.deepEqual(await readDirectoryBounded(asyncSource()), { entries: [{ name: 'x', type: 'directory' }], complete: true });
  });

  it('following continuations shows every entry once, in order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 60 }), fc.integer({ min: 1, max: 7 }), (names, limit) => {
        const list = names.map((name) => ({ name, type: 'file' as const }));
        const seen: string[] = [];
        let offset: number | undefined = 1;
        while (offset !== undefined && list.length > 0) {
          const page = renderDirectory({ displayPath: 'p', entries: list, offset, limit });
          seen.push(...entryLines(page.text));
          const cont = /\nContinue with: fs_read (\{.*\})$/.exec(page.text);
          assert.equal(cont === null, page.text.endsWith('\nEnd of folder.'), 'a page either continues or says it reached the end');
          offset = cont ? (JSON.parse(cont[1]) as { offset: number }).offset : undefined;
        }
        const expected = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((n) => entryLines(renderDirectory({ displayPath: 'p', entries: [{ name: n, type: 'file' }] }).text)[0]);
        assert.deepEqual(seen, expected);
      }),
    );
  });
});
