import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readRegularFile, type OpenedFile } from '../../src/core/file';
import { openLocalFile, openLocalFileNow } from '../../src/host/localFile';
import { tempTree } from './helpers';

// The local file opener over node's promises (the extension) and over its synchronous calls (the CLI).
describe('the local file opener', () => {
  let tree: { root: string; cleanup(): void };
  beforeEach(() => {
    tree = tempTree({ 'a.txt': 'the first file\n', 'b.txt': 'the second file\n' });
  });
  afterEach(() => tree.cleanup());

  for (const [name, open] of [
    ['promises', openLocalFile],
    ['synchronous calls', openLocalFileNow],
  ] as const) {
    it(`${name}: a closed handle reads nothing and closes nothing, even once its descriptor's number is another file's`, async () => {
      const a = (await open(path.join(tree.root, 'a.txt')))!;
      assert.equal(Buffer.from(await a.read(0, 9)).toString(), 'the first');
      await a.close();
      // the next open takes the lowest free number: the one `a` had
      const b = (await open(path.join(tree.root, 'b.txt')))!;
      try {
        await assert.rejects(a.read(0, 9), { code: 'EBADF' });
        await assert.rejects(async () => {
          for await (const chunk of a.stream(0)) {
            assert.fail(`read ${Buffer.from(chunk).toString()}`);
          }
        });
        await a.close();
        assert.equal(Buffer.from(await b.read(0, 10)).toString(), 'the second');
      } finally {
        await b.close();
      }
    });

    it(`${name}: a stream left early leaves the handle open, and one read on after a close stops`, async () => {
      const big = path.join(tree.root, 'big.txt');
      fs.writeFileSync(big, 'x'.repeat(3 * 1024 * 1024));
      const f = (await open(big))!;
      for await (const chunk of f.stream(0)) {
        assert.ok(chunk.length > 0);
        break;
      }
      // a ReadStream left early closed its FileHandle a moment later: a scan reading on then failed
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(Buffer.from(await f.read(0, 3)).toString(), 'xxx');
      const into = new Uint8Array(3);
      assert.equal(await f.readInto!(into, 1, 3), 3);
      const it = f.stream(0)[Symbol.asyncIterator]();
      assert.equal((await it.next()).done, false);
      await f.close();
      await assert.rejects(async () => {
        for (let r = await it.next(); !r.done; r = await it.next()) {
          assert.fail('read on after the close');
        }
      });
    });
  }

  it('readRegularFile: a file over `skipOver` gives its size and is not read', async () => {
    let reads = 0;
    const opener = {
      openFile: async (p: string): Promise<OpenedFile | undefined> => {
        const f = await openLocalFile(p);
        return f && { ...f, type: f.type, size: f.size, mtimeMs: f.mtimeMs, realPath: f.realPath, read: (pos: number, len: number) => (reads++, f.read(pos, len)), readInto: (t: Uint8Array, pos: number, len: number) => (reads++, f.readInto!(t, pos, len)), stream: (s?: number) => (reads++, f.stream(s)), close: () => f.close() };
      },
    };
    const over = await readRegularFile(opener, path.join(tree.root, 'a.txt'), 100, { skipOver: 5 });
    assert.deepEqual(over && { size: over.size, bytes: over.bytes.length }, { size: 15, bytes: 0 });
    assert.equal(reads, 0);
    const under = await readRegularFile(opener, path.join(tree.root, 'a.txt'), 100, { skipOver: 15 });
    assert.equal(Buffer.from(under!.bytes).toString(), 'the first file\n');
    assert.ok(reads > 0);
  });
});
