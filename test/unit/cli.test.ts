import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TOOLS } from '../../src/tools/registry';
import { tempTree } from './helpers';

const root = path.resolve(__dirname, '../../..');
const cli = path.join(root, 'dist/cli.js');

function run(args: string[], stdin?: string): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { input: stdin ?? '', encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('the CLI (dist/cli.js)', () => {
  let tree: ReturnType<typeof tempTree>;
  before(function () {
    if (!fs.existsSync(cli)) {
      throw new Error('dist/cli.js is missing: run `npm run build` first (npm test does)');
    }
    tree = tempTree({ 'file.txt': 'one\ntwo\n', '.env': 'K=v\n', 'sub/a.md': '# a\n' });
  });
  after(() => tree.cleanup());

  it('--list prints the tool names, one per line, and nothing else', () => {
    const r = run(['--list']);
    assert.equal(r.code, 0);
    assert.equal(r.out, TOOLS.map((t) => t.name).join('\n') + '\n');
    assert.equal(r.err, '');
  });

  it('loads only the called tool: --list none of them, a call its own bundle and no other, the schemas only to refuse input', () => {
    // main() run in a process that then prints what it loaded
    const loaded = (args: string[]): string[] => {
      const probe = `require(${JSON.stringify(cli)}).main(${JSON.stringify(args)}).then(() => process.stderr.write('\\nLOADED ' + JSON.stringify(Object.keys(require.cache))))`;
      const r = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
      const m = /\nLOADED (.*)$/.exec(r.stderr);
      assert.ok(m, r.stderr);
      return (JSON.parse(m[1]) as string[]).map((p) => path.relative(root, p)).filter((p) => p.startsWith('dist'));
    };
    assert.deepEqual(loaded(['--list']), [path.join('dist', 'cli.js')]);
    // valid input that changes nothing (a stale version, a file not there, an empty patch)
    const valid: Record<string, object> = {
      fs_read: { path: 'file.txt' },
      fs_list: {},
      fs_glob: { pattern: '*.txt' },
      fs_grep: { pattern: 'one' },
      fs_edit: { path: 'no-such-file.txt', old_string: 'x', new_string: 'y' },
      fs_write: { path: 'file.txt', content: 'x', version: '00000000' },
      fs_apply_patch: { patch: '*** Begin Patch\n*** End Patch' },
    };
    for (const t of TOOLS) {
      const own = [path.join('dist', 'cli.js'), path.join('dist', `cli-${t.name}.js`)];
      assert.deepEqual(loaded([t.name, '--root', tree.root, '--input', JSON.stringify(valid[t.name])]), own, t.name);
      // refused input is worded by the schemas, in their own bundle
      assert.deepEqual(loaded([t.name, '--root', tree.root, '--input', '{"no_such_field": 1}']), [...own, path.join('dist', 'cli-schemas.js')], `${t.name}, refused`);
    }
  });

  it("holds no import() in a tool's bundle: Node 20 compiles them from cached data, which only a bundle without one may be", () => {
    for (const t of TOOLS) {
      const code = fs.readFileSync(path.join(root, 'dist', `cli-${t.name}.js`), 'utf8');
      assert.doesNotMatch(code, /\bimport\s*\(/, t.name);
      assert.match(code, /require\("\.\/cli-schemas\.js"\)/, `${t.name} loads the schemas beside it`);
    }
  });

  it('reads a file whose type its bytes name (file-type, loaded on demand), printing nothing on stderr', () => {
    fs.writeFileSync(path.join(tree.root, 'arch.qqq'), Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(100)]));
    for (let i = 0; i < 2; i++) {
      // the second run compiles from the code cache the first filed
      const r = run(['fs_read', '--root', tree.root, '--input', '{"path":"arch.qqq"}']);
      assert.equal(r.code, 1);
      assert.match(r.out, /it is a ZIP file \(application\/zip\)/);
      assert.equal(r.err, '');
    }
  });

  it('prints the envelope for --input and exits 0', () => {
    const r = run(['fs_read', '--root', tree.root, '--input', '{"path":"file.txt"}']);
    assert.equal(r.code, 0);
    assert.match(r.out, /^<path>file\.txt<\/path>\n<type>file<\/type>\n<meta>lines 1-2 of 2, utf-8, LF, version [0-9a-f]{8}<\/meta>\n<content>\nL1: one\nL2: two\n<\/content>\nEnd of file\.\n$/);
  });

  it('takes input from a file or from stdin, and gives byte-identical output', () => {
    const inputFile = path.join(tree.root, 'sub', 'input.json');
    fs.writeFileSync(inputFile, '{"path":"file.txt","offset":2}');
    const a = run(['fs_read', '--root', tree.root, '--input-file', inputFile]);
    const b = run(['fs_read', '--root', tree.root], '{"path":"file.txt","offset":2}');
    assert.equal(a.code, 0);
    assert.equal(a.out, b.out);
    assert.match(a.out, /\nL2: two\n/);
  });

  it('--json gives one object with ok, text and parts', () => {
    const r = run(['fs_read', '--root', tree.root, '--json', '--input', '{"path":"file.txt"}']);
    const o = JSON.parse(r.out);
    assert.equal(o.ok, true);
    assert.match(o.text, /L1: one/);
    assert.equal(o.parts.length, 1);
    assert.equal(o.parts[0].type, 'text');
  });

  it('exits 1 with the error text when the tool fails', () => {
    const r = run(['fs_read', '--root', tree.root, '--input', '{"path":"missing.txt"}']);
    assert.equal(r.code, 1);
    assert.match(r.out, /^File not found: missing\.txt/);
  });

  it('exits 2 on usage errors: unknown tool, bad flag, invalid JSON', () => {
    assert.equal(run(['fs_nothing', '--input', '{}']).code, 2);
    assert.equal(run(['fs_read', '--bogus']).code, 2);
    const bad = run(['fs_read', '--root', tree.root, '--input', '{path:']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /input is not valid JSON/);
  });

  it('refuses paths outside --root unless --allow-outside', () => {
    const outside = path.join(root, 'package.json');
    const r = run(['fs_read', '--root', tree.root, '--input', JSON.stringify({ path: outside, limit: 1 })]);
    assert.equal(r.code, 1);
    assert.match(r.out, /outside the workspace folders.*--allow-outside/);
    const ok = run(['fs_read', '--root', tree.root, '--allow-outside', '--input', JSON.stringify({ path: outside, limit: 1 })]);
    assert.equal(ok.code, 0);
    assert.match(ok.out, new RegExp(`^<path>${outside.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}</path>`));
  });

  it('writes outside --root only with --allow-outside, even with --yes, for every tool that changes files', () => {
    const away = tempTree({ 'old.txt': 'a\n' });
    try {
      const target = path.join(away.root, 'new.txt');
      const calls: [string, unknown][] = [
        ['fs_write', { path: target, content: 'x\n' }],
        ['fs_edit', { path: path.join(away.root, 'old.txt'), old_string: 'a', new_string: 'b' }],
        ['fs_apply_patch', { patch: `*** Begin Patch\n*** Update File: file.txt\n*** Move to: ${target}\n@@\n-one\n+uno\n*** End Patch` }],
      ];
      for (const [tool, input] of calls) {
        const r = run([tool, '--root', tree.root, '--yes', '--input', JSON.stringify(input)]);
        assert.equal(r.code, 1, `${tool}: ${r.out}`);
        // an edit is asked about before its old text is matched (the read question), a write or a move when it lands
        assert.match(r.out, /outside the workspace folders(; nothing was written)?\. .*--allow-outside/);
        assert.equal(fs.existsSync(target), false);
        assert.equal(fs.readFileSync(path.join(away.root, 'old.txt'), 'utf8'), 'a\n');
        assert.equal(fs.readFileSync(path.join(tree.root, 'file.txt'), 'utf8'), 'one\ntwo\n');
      }
      const ok = run(['fs_write', '--root', tree.root, '--yes', '--allow-outside', '--input', JSON.stringify({ path: target, content: 'x\n' })]);
      assert.equal(ok.code, 0, ok.out);
      assert.equal(fs.readFileSync(target, 'utf8'), 'x\n');
    } finally {
      away.cleanup();
    }
  });

  it('asks approval (exit 3) for a sensitive file unless --yes', () => {
    const r = run(['fs_read', '--root', tree.root, '--input', '{"path":".env"}']);
    assert.equal(r.code, 3);
    assert.match(r.out, /may hold secrets/);
    const ok = run(['fs_read', '--root', tree.root, '--yes', '--input', '{"path":".env"}']);
    assert.equal(ok.code, 0);
    assert.match(ok.out, /\nL1: K=v\n/);
  });

  it('prints a change as a unified diff and exits 3 without --yes, applies it with --yes', () => {
    const input = JSON.stringify({ path: 'notes/new.md', content: '# New\n' });
    const r = run(['fs_write', '--root', tree.root, '--input', input]);
    assert.equal(r.code, 3);
    assert.equal(r.out, '--- /dev/null\n+++ b/notes/new.md\n@@ -0,0 +1,1 @@\n+# New\n\nThis change needs the user\'s approval; nothing was written. Run again with --yes to apply it.\n');
    assert.equal(fs.existsSync(path.join(tree.root, 'notes/new.md')), false);
    const json = JSON.parse(run(['fs_write', '--root', tree.root, '--json', '--input', input]).out);
    assert.equal(json.ok, false);
    assert.match(json.text, /^--- \/dev\/null/);
    const ok = run(['fs_write', '--root', tree.root, '--yes', '--input', input]);
    assert.equal(ok.code, 0, ok.out);
    // that no checker runs outside VS Code is said once, in --help, not in every answer
    assert.match(ok.out, /^Created notes\/new\.md: 1 line; version \w{8}\.\n$/);
    assert.match(run(['--help']).err, /\nChanges are not checked for errors: no language server runs outside VS Code\.\n$/);
    assert.equal(fs.readFileSync(path.join(tree.root, 'notes/new.md'), 'utf8'), '# New\n');
  });
});
