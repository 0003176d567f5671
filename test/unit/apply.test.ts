import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { NEVER_CANCELLED, type CancelSignal } from '../../src/core/cancel';
import { applyTextEdits, textEdits, unifiedDiff } from '../../src/core/diff';
import { encodeText, decodeTextExact } from '../../src/core/text/encoding';
import { NodeWorkspace } from '../../src/host/nodeWorkspace';
import { StaleError, type FileChange } from '../../src/host/workspace';
import { makeReadOnly, tempTree } from './helpers';

const opts = { signal: NEVER_CANCELLED, saveIfClean: true, label: 'test' };

describe('text edits between two texts', () => {
  it('turns the base into the next text for any pair, without splitting a CRLF', () => {
    const line = fc.constantFrom('a', 'b', 'foo', '  bar', '', 'x y', 'é', '😀');
    const text = fc.array(fc.tuple(line, fc.constantFrom('\n', '\r\n')), { maxLength: 30 }).map((ls) => ls.map(([l, e]) => l + e).join(''));
    fc.assert(
      fc.property(text, text, (a, b) => {
        const edits = textEdits(a, b);
        assert.equal(applyTextEdits(a, edits), b);
        for (const e of edits) {
          assert.ok(!(a[e.start - 1] === '\r' && a[e.start] === '\n'), 'an edit starts inside a CRLF');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('touches only the lines that changed', () => {
    const base = Array.from({ length: 100 }, (_, i) => `line ${i}\n`).join('');
    const next = base.replace('line 10\n', 'ten\n').replace('line 90\n', 'ninety\n');
    const edits = textEdits(base, next);
    assert.equal(edits.length, 2);
    assert.deepEqual(edits.map((e) => base.slice(e.start, e.end)), ['line 10\n', 'line 90\n']);
  });

  it('prints git-style unified diffs, /dev/null for a side that does not exist', () => {
    assert.equal(unifiedDiff('a.txt', 'a.txt', 'x\ny\n', 'x\nz\n'), '--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n x\n-y\n+z');
    assert.match(unifiedDiff(undefined, 'new.txt', undefined, 'hi\n'), /^--- \/dev\/null\n\+\+\+ b\/new\.txt\n@@ -0,0 \+1,1 @@\n\+hi$/);
    assert.match(unifiedDiff('old.txt', undefined, 'bye\n', undefined), /^--- a\/old\.txt\n\+\+\+ \/dev\/null\n@@ -1,1 \+0,0 @@\n-bye$/);
    assert.equal(unifiedDiff('a', 'a', 'same', 'same'), '');
  });
});

describe('applying changes on node:fs', () => {
  let tree: { root: string; cleanup(): void };
  let ws: NodeWorkspace;
  const p = (rel: string) => path.join(tree.root, rel);
  const read = (rel: string) => fs.readFileSync(p(rel));
  const edit = (rel: string, base: string, next: string): FileChange => ({ kind: 'edit', path: p(rel), base, edits: textEdits(base, next) });

  beforeEach(async () => {
    tree = tempTree({ 'a.txt': 'one\ntwo\n', 'crlf.txt': 'one\r\ntwo\r\n', 'keep.txt': 'keep\n' });
    ws = await NodeWorkspace.create([tree.root]);
  });
  afterEach(() => tree.cleanup());

  it('keeps every byte outside the edit: BOM, UTF-16, CRLF and mixed endings', async () => {
    const cases: [string, Uint8Array][] = [
      ['bom.txt', encodeText('a\r\nb\nc\r\n', 'utf-8-bom')],
      ['le.txt', encodeText('a\nb\r\nc\n', 'utf-16le')],
      ['be.txt', encodeText('a\nb\nc\n', 'utf-16be')],
    ];
    for (const [name, bytes] of cases) {
      fs.writeFileSync(p(name), bytes);
      const { text, encoding } = decodeTextExact(bytes);
      const next = text.replace('b', 'B');
      await ws.applyChanges([edit(name, text, next)], opts);
      assert.deepEqual(read(name), Buffer.from(encodeText(next, encoding)), name);
    }
  });

  it('refuses an edit whose base is no longer the file text, changing nothing', async () => {
    await assert.rejects(ws.applyChanges([edit('a.txt', 'other\n', 'x\n')], opts), StaleError);
    assert.equal(read('a.txt').toString(), 'one\ntwo\n');
  });

  it('creates files with their folders, deletes and renames', async () => {
    await ws.applyChanges(
      [
        { kind: 'create', path: p('new/deep/b.txt'), bytes: Buffer.from('b\n'), overwrite: false },
        { kind: 'delete', path: p('keep.txt') },
        { kind: 'rename', from: p('crlf.txt'), to: p('moved/crlf.txt'), overwrite: false },
      ],
      opts,
    );
    assert.equal(read('new/deep/b.txt').toString(), 'b\n');
    assert.equal(fs.existsSync(p('keep.txt')), false);
    assert.equal(read('moved/crlf.txt').toString(), 'one\r\ntwo\r\n');
  });

  it('runs the last check once, after every path was read and before anything is written; a refusal there changes nothing', async () => {
    const listing = () => JSON.stringify(fs.readdirSync(tree.root, { recursive: true }).sort().map((f) => [f, fs.statSync(p(String(f))).isFile() ? read(String(f)).toString('latin1') : 'dir']));
    const start = listing();
    let checks = 0;
    const changes: FileChange[] = [
      edit('a.txt', 'one\ntwo\n', 'ONE\ntwo\n'),
      { kind: 'create', path: p('made/x.txt'), bytes: Buffer.from('x'), overwrite: false },
      { kind: 'delete', path: p('keep.txt') },
      { kind: 'rename', from: p('crlf.txt'), to: p('moved.txt'), overwrite: false },
    ];
    const beforeWrite = async () => {
      checks++;
      assert.equal(listing(), start, 'nothing was written before the check');
      throw new Error('refused at the last check');
    };
    await assert.rejects(ws.applyChanges(changes, { ...opts, beforeWrite }), /refused at the last check/);
    assert.equal(checks, 1);
    assert.equal(listing(), start);
    await ws.applyChanges(changes, { ...opts, beforeWrite: async () => void checks++ });
    assert.equal(checks, 2);
    assert.equal(read('a.txt').toString(), 'ONE\ntwo\n');
  });

  it('is all or nothing: a failing step puts back what the earlier ones did, folders included', async () => {
    await assert.rejects(
      ws.applyChanges(
        [
          edit('a.txt', 'one\ntwo\n', 'ONE\ntwo\n'),
          { kind: 'create', path: p('made/x.txt'), bytes: Buffer.from('x'), overwrite: false },
          { kind: 'delete', path: p('keep.txt') },
          { kind: 'create', path: p('crlf.txt'), bytes: Buffer.from('clash'), overwrite: false },
        ],
        opts,
      ),
      /already exists/,
    );
    assert.equal(read('a.txt').toString(), 'one\ntwo\n');
    assert.equal(read('keep.txt').toString(), 'keep\n');
    assert.equal(fs.existsSync(p('made')), false);
    assert.equal(read('crlf.txt').toString(), 'one\r\ntwo\r\n');
  });

  it('fails on a read-only target and puts back what was already written', async () => {
    fs.mkdirSync(p('ro'));
    fs.writeFileSync(p('ro/f.txt'), 'f\n');
    const undo = makeReadOnly(p('ro/f.txt'));
    try {
      await assert.rejects(ws.applyChanges([edit('a.txt', 'one\ntwo\n', 'changed\n'), edit('ro/f.txt', 'f\n', 'g\n')], opts));
      assert.equal(read('a.txt').toString(), 'one\ntwo\n');
      assert.equal(read('ro/f.txt').toString(), 'f\n');
    } finally {
      undo();
    }
  });

  it('refuses an edit whose folder vanished before the apply, creating nothing', async () => {
    fs.mkdirSync(p('sub'));
    fs.writeFileSync(p('sub/f.txt'), 'f\n');
    const change = edit('sub/f.txt', 'f\n', 'g\n');
    fs.rmSync(p('sub'), { recursive: true });
    await assert.rejects(ws.applyChanges([edit('a.txt', 'one\ntwo\n', 'x\n'), change], opts), StaleError);
    assert.equal(fs.existsSync(p('sub')), false);
    assert.equal(read('a.txt').toString(), 'one\ntwo\n');
  });

  it('changes nothing when the call is cancelled', async () => {
    let n = 0;
    const signal: CancelSignal = {
      get isCancellationRequested() {
        return ++n > 2;
      },
    };
    await assert.rejects(ws.applyChanges([edit('a.txt', 'one\ntwo\n', 'x\n'), { kind: 'delete', path: p('keep.txt') }], { ...opts, signal }), /cancelled/);
    assert.equal(read('a.txt').toString(), 'one\ntwo\n');
    assert.equal(read('keep.txt').toString(), 'keep\n');
  });

  it('keeps a file permissions', async () => {
    fs.chmodSync(p('a.txt'), 0o750);
    await ws.applyChanges([edit('a.txt', 'one\ntwo\n', 'x\n')], opts);
    assert.equal(fs.statSync(p('a.txt')).mode & 0o777, 0o750);
  });
});
