import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FULL_READ_MAX_BYTES } from '../../src/core/limits';
import { encodeText } from '../../src/core/text/encoding';
import { loadFileText } from '../../src/services/fileText';
import { resolveTarget } from '../../src/services/target';
import { call, context, tempTree } from './helpers';

describe('the text loader', () => {
  let tree: { root: string; cleanup(): void };
  beforeEach(() => {
    tree = tempTree({
      'a.txt': 'alpha\r\nbeta\r\n',
      'bom.txt': encodeText('x\n', 'utf-8-bom'),
      'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
      'bin.dat': Buffer.from([0, 1, 2, 3, 0, 0, 0]),
      'dir/x.txt': 'x',
    });
  });
  afterEach(() => tree.cleanup());

  const load = async (rel: string) => {
    const ctx = await context(tree.root);
    return loadFileText(ctx, await resolveTarget(ctx, rel));
  };
  const versionInRead = (text: string) => /version (\w+)/.exec(text)?.[1];

  it('gives the text, encoding, line endings and the version fs_read reports', async () => {
    const ctx = await context(tree.root);
    const f = await loadFileText(ctx, await resolveTarget(ctx, 'a.txt'));
    assert.equal(f?.text, 'alpha\r\nbeta\r\n');
    assert.equal(f?.eol, 'CRLF');
    assert.equal(f?.version, versionInRead((await call(ctx, 'fs_read', { path: 'a.txt' })).text));
    assert.equal((await load('bom.txt'))?.encoding, 'utf-8-bom');
  });

  it('prefers the editor buffer and says whether it is unsaved', async () => {
    const ctx = await context(tree.root);
    ctx.ws.docs.set(path.join(tree.root, 'a.txt'), { text: 'unsaved\n', isDirty: true, encoding: 'utf-8', eol: 'LF', version: 3 });
    const f = await loadFileText(ctx, await resolveTarget(ctx, 'a.txt'));
    assert.equal(f?.text, 'unsaved\n');
    assert.deepEqual(f?.editor, { dirty: true });
    assert.equal(f?.version, versionInRead((await call(ctx, 'fs_read', { path: 'a.txt' })).text));
  });

  it('is undefined for a missing file and refuses folders, binaries and bytes it cannot write back', async () => {
    assert.equal(await load('missing.txt'), undefined);
    await assert.rejects(load('dir'), /is a folder/);
    await assert.rejects(load('bin.dat'), /binary/);
    await assert.rejects(load('latin1.txt'), /not valid utf-8.*Latin-1/s);
  });

  it('gives a large file one version on every page, cheap to compute', async () => {
    const line = 'y'.repeat(99) + '\n';
    fs.writeFileSync(path.join(tree.root, 'big.txt'), line.repeat(Math.ceil((FULL_READ_MAX_BYTES + 1024) / line.length)));
    const ctx = await context(tree.root);
    const first = versionInRead((await call(ctx, 'fs_read', { path: 'big.txt', limit: 10 })).text);
    const later = versionInRead((await call(ctx, 'fs_read', { path: 'big.txt', offset: 50000, limit: 10 })).text);
    assert.ok(first && first === later);
    assert.equal((await load('big.txt'))?.version, first);
    fs.appendFileSync(path.join(tree.root, 'big.txt'), 'z\n');
    assert.notEqual(versionInRead((await call(ctx, 'fs_read', { path: 'big.txt', limit: 10 })).text), first);
  });
});
