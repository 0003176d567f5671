import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { FolderGate } from '../../src/core/folderGate';
import { NulRecords } from '../../src/core/pathBytes';
import { Matcher, Overrides, RuleFile } from '../../src/core/ignore/rules';

const enc = new TextEncoder();
// a name may begin with U+FEFF, which a decoder would otherwise drop as a byte-order mark
const dec = new TextDecoder('utf-8', { ignoreBOM: true });

/** `bytes` cut into chunks at the given places (sorted, deduplicated), each its own array. */
function chunksOf(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const c of [...at, bytes.length]) {
    out.push(bytes.slice(from, c));
    from = c;
  }
  return out;
}

const segment = fc.constantFrom('a', 'src', 'B', 'é', '日本', 'x.ts', '.gitignore', 'z', '😀', 'name with space', '\uFEFFbom');
const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((xs) => xs.join('/'));

describe('paths as bytes: records split at NUL, folders compared as bytes', () => {
  it('gives every NUL-terminated path once, as its bytes and its text, however the stream is cut into chunks', () => {
    fc.assert(
      fc.property(fc.array(path, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), (paths, cuts, terminated) => {
        const bytes = enc.encode(paths.join('\0') + (terminated ? '\0' : ''));
        const got: string[] = [];
        const fromBytes: string[] = [];
        const records: NulRecords = new NulRecords(1 << 20, (buf, start, end) => {
          got.push(records.text(buf, start, end));
          fromBytes.push(dec.decode(buf.subarray(start, end)));
        });
        for (const c of chunksOf(bytes, cuts)) {
          records.push(c);
        }
        records.end();
        const want = paths.filter((p) => p !== '');
        assert.deepEqual(got, want);
        assert.deepEqual(fromBytes, want);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the first maxBytes bytes of a longer record, whole or across chunks, and skips empty ones', () => {
    const seen: string[] = [];
    const records: NulRecords = new NulRecords(4, (buf, start, end) => seen.push(records.text(buf, start, end)));
    records.push(enc.encode('abcdefgh\0\0xy\0lo'));
    records.push(enc.encode('ngrecord\0'));
    records.push(enc.encode('tail'));
    records.end();
    assert.deepEqual(seen, ['abcd', 'xy', 'long', 'tail']);
  });

  it('a folder gate given bytes passes what it would pass given the text, and a quick decision takes a path only once its folder is answered', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('', 'a', 'a/b', 'ab', 'é', 'é/日', 'g', 'g/h'), fc.constantFrom('x.ts', 'y', 'ü.ts', 'a')), { maxLength: 50 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (files, later, cuts) => {
          const run = async (byBytes: boolean) => {
            const passed: string[] = [];
            const quick: string[] = [];
            const gate = new FolderGate<undefined, { folder: string }>(
              (folder) => {
                const answer = folder.startsWith('g') ? false : { folder };
                return later ? new Promise((r) => setTimeout(() => r(answer), 1)) : answer;
              },
              (rel, _v, answer, cut) => passed.push(`${rel}<${answer.folder}>${cut}`),
            );
            const rels = files.map(([dir, name]) => (dir ? `${dir}/${name}` : name));
            if (byBytes) {
              // paths of folders starting with "a" whose name ends with ".ts" are decided from their bytes
              const records: NulRecords = new NulRecords(1 << 20, (buf, start, end) =>
                gate.pushBytes(buf, start, end, undefined, records, (answer, b, at, stop) => {
                  const name = dec.decode(b.subarray(at, stop));
                  if (answer.folder.startsWith('a') && name.endsWith('.ts')) {
                    quick.push(`${answer.folder}/${name}`);
                    return true;
                  }
                  return false;
                }),
              );
              for (const c of chunksOf(enc.encode(rels.map((r) => `${r}\0`).join('')), cuts)) {
                records.push(c);
              }
              records.end();
            } else {
              rels.forEach((r) => gate.push(r, undefined));
            }
            await gate.done();
            return { passed, quick };
          };
          const text = await run(false);
          const bytes = await run(true);
          // every path of a folder not left out comes out once: passed, or decided quickly
          const all = [...bytes.passed.map((p) => p.slice(0, p.indexOf('<'))), ...bytes.quick];
          assert.deepEqual(all.sort(), text.passed.map((p) => p.slice(0, p.indexOf('<'))).sort());
          for (const q of bytes.quick) {
            assert.ok(q.startsWith('a') && q.endsWith('.ts'), q);
          }
          // a path passed on comes with its folder's answer and where its folder ends, as given as text
          assert.ok(bytes.passed.every((p) => text.passed.includes(p)), JSON.stringify({ bytes: bytes.passed, text: text.passed }));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a name screen decides a name given as bytes as it decides its text', () => {
    const part = fc.constantFrom('a', 'B', 'log', '.', '*', 'x', 'é', '[ab]', 'K', '日');
    const line = fc.tuple(fc.constantFrom('', '!', '**/', '/'), fc.array(part, { minLength: 1, maxLength: 4 })).map(([a, b]) => `${a}${b.join('')}`);
    const name = fc.array(fc.constantFrom('a', 'b', 'B', 'log', '.', 'x', 'é', 'K', '日', '😀'), { minLength: 1, maxLength: 5 }).map((xs) => xs.join(''));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 6 }), fc.constantFrom('', 'd', 'd/é'), name, (lines, dir, file) => {
        const matcher = new Matcher(new Overrides([]), undefined, true);
        const screen = matcher.fileScreen({ dir: '', files: { '.gitignore': new RuleFile('.gitignore', lines) }, parent: undefined });
        if (!screen) {
          return;
        }
        const rel = dir ? `${dir}/${file}` : file;
        const bytes = enc.encode(rel);
        const at = dir ? enc.encode(`${dir}/`).length : 0;
        assert.equal(screen.bytes(bytes, at, bytes.length), screen(rel, rel.lastIndexOf('/') + 1), `${JSON.stringify(lines)} on ${rel}`);
      }),
      { numRuns: 2000 },
    );
  });
});
