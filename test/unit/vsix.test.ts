import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { mayImport } from '../../src/host/compileCache';
import { TOOL_NAMES } from '../../src/tools/names';

const root = path.resolve(__dirname, '../../..');
const vsix = path.join(root, 'agent-file-tools.vsix');

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  localOffset: number;
}

/** The entries of a zip archive, from its central directory (local headers may omit sizes). */
function zipEntries(buf: Buffer): ZipEntry[] {
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) {
    eocd--;
  }
  assert.ok(eocd >= 0, 'a zip end-of-central-directory record');
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    assert.equal(buf.readUInt32LE(at), 0x02014b50, 'central directory entry');
    const nameLen = buf.readUInt16LE(at + 28);
    const extraLen = buf.readUInt16LE(at + 30);
    const commentLen = buf.readUInt16LE(at + 32);
    entries.push({
      name: buf.toString('utf8', at + 46, at + 46 + nameLen),
      method: buf.readUInt16LE(at + 10),
      compressedSize: buf.readUInt32LE(at + 20),
      localOffset: buf.readUInt32LE(at + 42),
    });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

function zipFile(buf: Buffer, entries: ZipEntry[], name: string): Buffer {
  const e = entries.find((x) => x.name === name);
  assert.ok(e, `${name} in the archive`);
  const start = e.localOffset + 30 + buf.readUInt16LE(e.localOffset + 26) + buf.readUInt16LE(e.localOffset + 28);
  const data = buf.subarray(start, start + e.compressedSize);
  return e.method === 8 ? zlib.inflateRawSync(data) : data;
}

describe('the packaged .vsix', function () {
  this.timeout(180000);
  let entries: ZipEntry[];
  let names: string[];
  let buf: Buffer;

  before(() => {
    // Package afresh so the list reflects the current tree.
    execFileSync('npm', ['run', '--silent', 'package'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    buf = fs.readFileSync(vsix);
    entries = zipEntries(buf);
    names = entries.map((e) => e.name.toLowerCase());
  });

  it('holds the tree-sitter runtime and every grammar an outline reads, and nothing but those of the package', () => {
    const grammars = ['typescript', 'tsx', 'javascript', 'python', 'go', 'rust', 'java', 'c-sharp', 'cpp'];
    const want = ['tree-sitter.js', 'tree-sitter.wasm', ...grammars.map((g) => `tree-sitter-${g}.wasm`)].map((f) => `extension/dist/tree-sitter/${f}`);
    assert.deepEqual(names.filter((n) => n.startsWith('extension/dist/tree-sitter/')).sort(), want.sort());
  });

  it('holds the bundles (extension, task thread, parse thread, PDF reader, MCP server), manifest, docs, licence and media', () => {
    // vsce stores README and CHANGELOG in lower case and LICENSE as LICENSE.txt
    for (const want of ['extension/dist/extension.js', 'extension/dist/extension-main.js', 'extension/dist/mcp-server.js', 'extension/dist/cli-mcp.js', 'extension/dist/taskworker.js', 'extension/dist/treesitterworker.js', 'extension/dist/pdfjs.js', 'extension/dist/pdfjs-worker.js', 'extension/package.json', 'extension/readme.md', 'extension/changelog.md', 'extension/license.txt', 'extension/media/icon.png']) {
      assert.ok(names.includes(want), `${want} in ${names.join(', ')}`);
    }
  });

  it("holds the extension's code as a bundle its entry can load from V8's cached data: nothing in it may call import()", () => {
    assert.equal(mayImport(zipFile(buf, entries, 'extension/dist/extension-main.js').toString('utf8')), false);
  });

  it("holds the extension's code without the MCP SDK, which it loads from dist/mcp-server.js when a server starts", () => {
    const code = zipFile(buf, entries, 'extension/dist/extension-main.js').toString('utf8');
    assert.match(code, /\brequire\(\s*["']\.\/mcp-server\.js["']\s*\)/);
    assert.doesNotMatch(code, /StreamableHTTPServerTransport|Mcp-Session-Id|mcp-session-id/i, 'no part of the SDK is in the bundle loaded at activation');
    assert.match(zipFile(buf, entries, 'extension/dist/mcp-server.js').toString('utf8'), /mcp-session-id/i);
  });

  it("holds the extension's code with one copy of the vscode API's names: each copy costs the window's first call a millisecond or more", () => {
    const code = zipFile(buf, entries, 'extension/dist/extension-main.js').toString('utf8');
    const requires = [...code.matchAll(/\brequire\(\s*["']vscode["']\s*\)/g)].length;
    assert.ok(requires >= 1 && requires <= 2, `vscode is required ${requires} times`);
    assert.doesNotMatch(code, /\(\s*require\(\s*["']vscode["']\s*\)\s*\)/, 'no module wraps the vscode API in a copy of its own');
  });

  it('holds the CLI: its entry, a bundle per tool beside it, and the schemas and file-type, which they load on demand', () => {
    for (const want of ['extension/dist/cli.js', ...TOOL_NAMES.map((n) => `extension/dist/cli-${n}.js`), 'extension/dist/cli-schemas.js', 'extension/dist/file-type.js']) {
      assert.ok(names.includes(want), `${want} in ${names.join(', ')}`);
    }
  });

  it('holds every file a CLI bundle loads beside it', () => {
    const bundles = entries.filter((e) => /^extension\/dist\/cli[\w-]*\.js$/.test(e.name));
    assert.ok(bundles.length > TOOL_NAMES.length);
    let loads = 0;
    for (const b of bundles) {
      const code = zipFile(buf, entries, b.name).toString('utf8');
      for (const m of code.matchAll(/\b(?:require|import)\(\s*["'](\.\/[\w./-]+\.js)["']\s*\)/g)) {
        const want = `extension/dist/${path.posix.normalize(m[1])}`.toLowerCase();
        assert.ok(names.includes(want), `${b.name} loads ${m[1]}, which is not in the package`);
        loads++;
      }
    }
    assert.ok(loads >= TOOL_NAMES.length * 2, `the bundles load the tools' runners and the schemas (${loads} loads found)`);
  });

  it('holds the shipped agent, the walkthrough media, the input schemas and the result grammar, each at the path the manifest names', () => {
    const source = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    const paths = [
      ...source.contributes.chatAgents.map((a: { path: string }) => a.path),
      ...source.contributes.jsonValidation.map((j: { url: string }) => j.url),
      ...source.contributes.grammars.map((g: { path: string }) => g.path),
      ...source.contributes.walkthroughs.flatMap((w: { steps: { media: { markdown?: string; image?: string } }[] }) => w.steps.map((s) => s.media.markdown ?? s.media.image)),
    ];
    assert.ok(paths.length >= 2, `the manifest names an agent and walkthrough media: ${paths.join(', ')}`);
    for (const p of paths) {
      const name = `extension/${path.posix.normalize(p as string)}`;
      assert.ok(names.includes(name.toLowerCase()), `${name} in the package`);
      assert.equal(zipFile(buf, entries, name).toString('utf8'), fs.readFileSync(path.join(root, p as string), 'utf8'), `${p} is packaged as it is in the tree`);
    }
  });

  it('holds the message bundle the manifest names (l10n), as it is in the tree', () => {
    const source = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    const name = `extension/${path.posix.join(path.posix.normalize(source.l10n), 'bundle.l10n.json')}`;
    assert.ok(names.includes(name), `${name} in the package`);
    assert.deepEqual(JSON.parse(zipFile(buf, entries, name).toString('utf8')), JSON.parse(fs.readFileSync(path.join(root, 'l10n', 'bundle.l10n.json'), 'utf8')));
  });

  it('holds nothing from src/, test/ or node_modules/, and no source maps', () => {
    const bad = names.filter((e) => /^extension\/(src|test|node_modules|out|bench|scripts)\//.test(e) || e.endsWith('.map') || e.endsWith('.ts'));
    assert.deepEqual(bad, []);
  });

  it('carries the same tools as the source manifest', () => {
    const packed = JSON.parse(zipFile(buf, entries, 'extension/package.json').toString('utf8'));
    const source = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    assert.deepEqual(packed.contributes.languageModelTools, source.contributes.languageModelTools);
  });
});
