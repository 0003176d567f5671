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
        '<summary>Total: 8 entries | Showing: 1–8 | Truncated: false</summary>',
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
    assert.deepEqual(entryLines(page.text), ['Zed/', 'a.ts', '', '(Showing entries 3–4 of 8; the page reached the limit of 2 entries. Use offset=5 to continue.)']);
    assert.match(page.text, /<summary>Total: 8 entries \| Showing: 3–4 \| Truncated: true<\/summary>$/);
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
    assert.match(wide.text, /the page reached the 50 KiB output cap\. Use offset=\d+ to continue\.\)/);
  });

  it('says when the folder had more entries than were read', () => {
    const page = renderDirectory({ displayPath: 'node_modules', entries: files(MAX_DIR_ENTRIES), complete: false, offset: 4001 });
    assert.match(page.text, /\(The folder holds more than 5,000 entries; only the first 5,000 the file system gave were read and sorted, so entries are missing\. Use fs_glob/);
    assert.match(page.text, /<summary>Total: more than 5,000 entries \(only 5,000 read\) \| Showing: 4001–5000 \| Truncated: true<\/summary>$/);
    assert.equal(page.nextOffset, undefined);
  });

  it('says a folder is empty; an offset past the end is an error with the count', () => {
    assert.equal(
      renderDirectory({ displayPath: 'empty', entries: [] }).text,
      '<path>empty</path>\n<type>directory</type>\n<entries>\n(The folder is empty.)\n</entries>\n<summary>Total: 0 entries | Showing: none | Truncated: false</summary>',
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
          const shown = entryLines(page.text).filter((l) => l !== '' && !l.startsWith('(Showing'));
          seen.push(...shown);
          offset = page.nextOffset;
        }
        const expected = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((n) => renderDirectory({ displayPath: 'p', entries: [{ name: n, type: 'file' }] }).text.split('\n')[3]);
        assert.deepEqual(seen, expected);
      }),
    );
  });
});
