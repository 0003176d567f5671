import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { TOOLS } from '../../src/tools/registry';
import { DEFAULT_SETTINGS } from '../../src/tools/settings';

const root = path.resolve(__dirname, '../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const contributed: Record<string, unknown>[] = manifest.contributes.languageModelTools;

/** The spec's table: the name the model sees -> `toolReferenceName`. */
const REFERENCE_NAMES: Record<string, string> = {
  fs_read: 'read',
  fs_list: 'list',
  fs_glob: 'glob',
  fs_grep: 'grep',
  fs_edit: 'fsEdit',
  fs_write: 'fsWrite',
  fs_apply_patch: 'fsApplyPatch',
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
    ],
  },
  fs_glob: {
    valid: [{ pattern: '*.ts' }, { pattern: 'src/**/*.test.ts', path: 'src', limit: 10, offset: 11, sort: 'mtime', respect_ignore: false }, { pattern: 'a', limit: 5000 }],
    invalid: [{}, { pattern: '' }, { pattern: 3 }, { pattern: '*', sort: 'size' }, { pattern: '*', limit: 0 }, { pattern: '*', offset: 0 }, { pattern: '*', include: '*.ts' }, { glob: '*.ts' }],
  },
  fs_grep: {
    valid: [
      { pattern: 'foo' },
      { pattern: 'a\\(', path: 'src', include: '*.ts', fixed_strings: false, case_sensitive: true, context: 10, output: 'content', offset: 5, limit: 1000, multiline: true, respect_ignore: false },
      { pattern: 'x', output: 'count', context: 0 },
      { pattern: 'x', output: 'files', limit: 5000 },
    ],
    invalid: [{}, { pattern: '' }, { pattern: 'x', context: 11 }, { pattern: 'x', context: -1 }, { pattern: 'x', output: 'lines' }, { pattern: 'x', limit: 0 }, { pattern: 'x', offset: 0 }, { pattern: 'x', include: '' }, { query: 'x' }],
  },
  fs_edit: {
    valid: [
      { path: 'a.ts', old_string: 'a', new_string: 'b' },
      { path: 'a.ts', old_string: '', new_string: 'new file\n', replace_all: false },
      { path: 'a.ts', edits: [{ old_string: 'a', new_string: 'b', replace_all: true }, { old_string: 'c', new_string: 'd' }] },
    ],
    invalid: [{}, { old_string: 'a', new_string: 'b' }, { path: '', old_string: 'a', new_string: 'b' }, { path: 'a', old_string: 1, new_string: 'b' }, { path: 'a', edits: [] }, { path: 'a', edits: [{ old_string: 'a' }] }, { path: 'a', edits: [{ old_string: 'a', new_string: 'b', extra: 1 }] }, { path: 'a', old_string: 'a', new_string: 'b', mode: 'x' }],
  },
  fs_apply_patch: {
    valid: [{ patch: '*** Begin Patch\n*** Delete File: a.txt\n*** End Patch' }],
    invalid: [{}, { patch: '' }, { patch: 3 }, { input: '*** Begin Patch' }, { patch: 'x', path: 'a' }],
  },
  fs_write: {
    valid: [{ path: 'a.txt', content: '' }, { path: 'src/new.ts', content: 'export {};\n' }],
    invalid: [{}, { path: 'a.txt' }, { content: 'x' }, { path: '', content: 'x' }, { path: 'a', content: 3 }, { path: 'a', content: 'x', mode: 'append' }],
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

  it('gives the settings the defaults the code uses', () => {
    const props = manifest.contributes.configuration.properties;
    assert.deepEqual(props['agentFileTools.sensitiveFiles'].default, [...DEFAULT_SETTINGS.sensitiveFiles]);
    assert.deepEqual(props['agentFileTools.protectedFiles'].default, [...DEFAULT_SETTINGS.protectedFiles]);
    for (const key of ['approvalPolicy', 'saveAfterChange', 'formatAfterChange', 'instructionFiles', 'maxImageBytes'] as const) {
      assert.deepEqual(props[`agentFileTools.${key}`].default, DEFAULT_SETTINGS[key], key);
    }
  });

  it('keeps activation lazy and the manifest within the host it is tested on', () => {
    assert.deepEqual(manifest.activationEvents, []);
    assert.deepEqual(manifest.extensionKind, ['workspace']);
    const engine = /^\^?(\d+)\.(\d+)\.(\d+)$/.exec(manifest.engines.vscode);
    assert.ok(engine && Number(engine[1]) === 1 && Number(engine[2]) <= 139, 'engines.vscode at most 1.139');
    const types = manifest.devDependencies['@types/vscode'].replace(/^[\^~]/, '');
    assert.equal(types, manifest.engines.vscode.replace(/^\^/, ''), '@types/vscode matches engines.vscode, so only APIs stable there are used');
  });
});
