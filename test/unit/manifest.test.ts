import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { TOOLS } from '../../src/tools/registry';

const root = path.resolve(__dirname, '../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const contributed: Record<string, unknown>[] = manifest.contributes.languageModelTools;

/** The spec's table: the name the model sees -> `toolReferenceName`. */
const REFERENCE_NAMES: Record<string, string> = {
  fs_read: 'read',
  fs_list: 'list',
  fs_glob: 'glob',
  fs_grep: 'grep',
  fs_edit: 'edit',
  fs_write: 'write',
  fs_apply_patch: 'applyPatch',
};

/**
 * Inputs each tool's zod schema and its JSON `inputSchema` must agree on. Every
 * registered tool needs an entry, so a new tool cannot skip this check.
 */
export const SAMPLES: Record<string, { valid: unknown[]; invalid: unknown[] }> = {
  fs_read: {
    valid: [
      { path: 'a.txt' },
      { path: 'src/a.ts', offset: 10, limit: 5 },
      { path: '/abs/x', offset: 1 },
      { path: 'a', limit: 5000 },
      { path: 'a.py', mode: 'indentation', indentation: { anchor_line: 12, max_levels: 1, include_siblings: false, include_header: true, max_lines: 80 } },
      { path: 'a.py', mode: 'indentation' },
      { path: 'a.py', indentation: { max_levels: 0 } },
      { path: 'a'.repeat(4096) },
    ],
    invalid: [
      {},
      { path: '' },
      { path: 3 },
      { path: 'a', offset: 0 },
      { path: 'a', limit: -1 },
      { path: 'a', offset: 1.5 },
      { path: 'a', extra: true },
      { file_path: 'a' },
      { path: 'a', mode: 'lines' },
      { path: 'a', mode: 'indentation', indentation: { anchor_line: 0 } },
      { path: 'a', indentation: { max_levels: -1 } },
      { path: 'a', indentation: { depth: 2 } },
      { path: 'a'.repeat(4097) },
    ],
  },
  fs_list: {
    valid: [
      {},
      { path: 'src' },
      { path: 'src', depth: 10, limit: 1000, offset: 101 },
      { path: '/abs', cursor: 'WzEsImEiLDEsIngiXQ', include_hidden: false, respect_ignore: false },
      { ignore: ['*.snap', 'fixtures/'], source: 'git' },
      { limit: 5000 },
      { ignore: Array(100).fill('x'.repeat(4096)), cursor: 'c'.repeat(16384) },
    ],
    invalid: [
      { path: '' },
      { depth: 0 },
      { depth: 11 },
      { offset: 0 },
      { limit: 0 },
      { cursor: '' },
      { include_hidden: 'yes' },
      { ignore: 'dist' },
      { ignore: [''] },
      { source: 'disk' },
      { dir_path: 'src' },
      { ignore: Array(101).fill('x') },
      { ignore: ['x'.repeat(4097)] },
      { cursor: 'c'.repeat(16385) },
      { path: 'a'.repeat(4097) },
    ],
  },
  fs_glob: {
    valid: [{ pattern: '*.ts' }, { pattern: 'src/**/*.test.ts', path: 'src', limit: 10, offset: 11, sort: 'mtime', respect_ignore: false }, { pattern: 'a', limit: 5000 }],
    invalid: [{}, { pattern: '' }, { pattern: 3 }, { pattern: '*', sort: 'size' }, { pattern: '*', limit: 0 }, { pattern: '*', offset: 0 }, { pattern: '*', include: '*.ts' }, { glob: '*.ts' }, { pattern: '*'.repeat(4097) }, { pattern: '*', path: 'a'.repeat(4097) }],
  },
  fs_grep: {
    valid: [
      { pattern: 'foo' },
      { pattern: 'a\\(', path: 'src', include: '*.ts', fixed_strings: false, case_sensitive: true, context: 10, output: 'content', offset: 5, limit: 1000, multiline: true, respect_ignore: false },
      { pattern: 'x', output: 'count', context: 0 },
      { pattern: 'x', output: 'files', limit: 5000 },
      { pattern: 'x'.repeat(8192), include: 'i'.repeat(4096), path: 'p'.repeat(4096) },
    ],
    invalid: [{}, { pattern: '' }, { pattern: 'x', context: 11 }, { pattern: 'x', context: -1 }, { pattern: 'x', output: 'lines' }, { pattern: 'x', limit: 0 }, { pattern: 'x', offset: 0 }, { pattern: 'x', include: '' }, { query: 'x' }, { pattern: 'x'.repeat(8193) }, { pattern: 'x', include: 'i'.repeat(4097) }, { pattern: 'x', path: 'p'.repeat(4097) }],
  },
};

describe('package.json and the tool registry', () => {
  it('contribute exactly the same tools', () => {
    assert.deepEqual(
      contributed.map((t) => t.name),
      TOOLS.map((t) => t.name),
    );
  });

  it('name every tool validly, once, with the spec reference name and the fields Copilot needs', () => {
    const names = new Set<string>();
    for (const t of contributed) {
      const name = t.name as string;
      assert.match(name, /^[\w-]+$/);
      assert.ok(!/^(copilot_|vscode_)/.test(name), `${name} uses a reserved prefix`);
      assert.ok(!names.has(name), `${name} twice`);
      names.add(name);
      assert.equal(t.toolReferenceName, REFERENCE_NAMES[name], `${name} toolReferenceName`);
      for (const field of ['displayName', 'userDescription', 'modelDescription', 'inputSchema', 'icon']) {
        assert.ok(t[field], `${name} has ${field}`);
      }
      assert.equal(t.canBeReferencedInPrompt, true);
      assert.ok((t.modelDescription as string).length > 200, `${name} modelDescription says when to use it, limits and how to continue`);
    }
  });

  it('give every string field, list items included, a maximum length', () => {
    const strings = (schema: Record<string, unknown>, at: string): [string, Record<string, unknown>][] => {
      const out: [string, Record<string, unknown>][] = [];
      if (schema.type === 'string' && !schema.enum) {
        out.push([at, schema]);
      }
      for (const [k, v] of Object.entries((schema.properties as Record<string, Record<string, unknown>>) ?? {})) {
        out.push(...strings(v, `${at}.${k}`));
      }
      if (schema.items) {
        out.push(...strings(schema.items as Record<string, unknown>, `${at}[]`));
        assert.ok(typeof schema.maxItems === 'number', `${at} has maxItems`);
      }
      return out;
    };
    for (const t of contributed) {
      for (const [at, s] of strings(t.inputSchema as Record<string, unknown>, t.name as string)) {
        assert.ok(typeof s.maxLength === 'number', `${at} has maxLength`);
      }
    }
  });

  for (const spec of TOOLS) {
    it(`${spec.name}: zod schema and inputSchema accept and reject the same inputs`, () => {
      const samples = SAMPLES[spec.name];
      assert.ok(samples, `samples for ${spec.name}`);
      const schema = contributed.find((t) => t.name === spec.name)!.inputSchema as object;
      const validate = new Ajv({ strict: true }).compile(schema);
      for (const v of samples.valid) {
        assert.ok(validate(v), `inputSchema accepts ${JSON.stringify(v)}: ${JSON.stringify(validate.errors)}`);
        assert.ok(spec.schema.safeParse(v).success, `zod accepts ${JSON.stringify(v)}`);
      }
      for (const v of samples.invalid) {
        assert.ok(!validate(v), `inputSchema rejects ${JSON.stringify(v)}`);
        assert.ok(!spec.schema.safeParse(v).success, `zod rejects ${JSON.stringify(v)}`);
      }
    });
  }

  it('keeps activation lazy and the manifest within the host it is tested on', () => {
    assert.deepEqual(manifest.activationEvents, []);
    assert.deepEqual(manifest.extensionKind, ['workspace']);
    const engine = /^\^?(\d+)\.(\d+)\.(\d+)$/.exec(manifest.engines.vscode);
    assert.ok(engine && Number(engine[1]) === 1 && Number(engine[2]) <= 139, 'engines.vscode at most 1.139');
    const types = manifest.devDependencies['@types/vscode'].replace(/^[\^~]/, '');
    assert.equal(types, manifest.engines.vscode.replace(/^\^/, ''), '@types/vscode matches engines.vscode, so only APIs stable there are used');
  });
});
