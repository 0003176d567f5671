import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempTree } from './helpers';

const root = path.resolve(__dirname, '../../..');
const stdoutModule = path.join(root, 'out/src/host/stdout.js');
const cli = path.join(root, 'dist/cli.js');

/** Runs node with `args`, reading its stdout slowly (a pause before reading, and between chunks), so the pipe fills. */
function slowlyRead(args: string[]): Promise<{ code: number | null; out: Buffer; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.stdout.on('data', (d: Buffer) => {
      chunks.push(d);
      if (chunks.length % 16 === 0) {
        child.stdout.pause();
        setTimeout(() => child.stdout.resume(), 5);
      }
    });
    child.stdout.pause();
    setTimeout(() => child.stdout.resume(), 200);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out: Buffer.concat(chunks), err }));
  });
}

describe('stdout written whole (src/host/stdout.ts)', function () {
  this.timeout(60000);

  it('writes megabytes whole through a full, non-blocking pipe (EAGAIN), every byte in order', async () => {
    // process.stdout on a pipe makes the descriptor non-blocking: a full pipe then answers EAGAIN
    const script = `process.stdout;
      const { writeWholeSync } = require(${JSON.stringify(stdoutModule)});
      let s = '';
      for (let i = 0; s.length < 6_000_000; i++) s += 'line ' + i + ' é漢😀\\n';
      writeWholeSync(1, s);
      process.stderr.write('chars ' + s.length);`;
    const r = await slowlyRead(['-e', script]);
    assert.equal(r.code, 0, r.err);
    const chars = Number(/chars (\d+)/.exec(r.err)?.[1]);
    let want = '';
    for (let i = 0; want.length < 6_000_000; i++) {
      want += 'line ' + i + ' é漢😀\n';
    }
    assert.equal(chars, want.length);
    assert.equal(r.out.length, Buffer.byteLength(want));
    assert.ok(r.out.equals(Buffer.from(want, 'utf8')), 'the same bytes');
  });

  it('prints a large result of the CLI whole through a slowly read pipe', async () => {
    if (!fs.existsSync(cli)) {
      throw new Error('dist/cli.js is missing: run `npm run build` first (npm test does)');
    }
    const lines = Array.from({ length: 1500 }, (_, i) => `${i} ${'x'.repeat(20)} é`).join('\n') + '\n';
    const tree = tempTree({ 'big.txt': lines });
    try {
      const args = [cli, 'fs_read', '--root', tree.root, '--json', '--input', '{"path":"big.txt"}'];
      const r = await slowlyRead(args);
      assert.equal(r.code, 0, r.err);
      // more than a pipe holds (64 KiB on Linux)
      assert.ok(r.out.length > 100_000, `${r.out.length} bytes: ${r.err}`);
      const parsed = JSON.parse(r.out.toString('utf8')) as { ok: boolean; text: string };
      assert.ok(parsed.ok);
      assert.match(parsed.text, /\nL1: 0 x{20} é\n[^]*\nL1000: 999 x{20} é\n/);
      assert.ok(r.out.equals(spawnSync(process.execPath, args).stdout), 'the same bytes as read at once');
    } finally {
      tree.cleanup();
    }
  });
});
