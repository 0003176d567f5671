import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import { MAX_PDF_PAGES_PER_READ, MAX_READ_LINES } from '../../src/core/limits';
import { TOOLS } from '../../src/tools/registry';
import { resultText } from '../../src/services/result';
import { fieldsAt, parseInput } from '../../src/services/run';
import { DEFAULT_SETTINGS } from '../../src/services/settings';
import { settingsOf } from './helpers';

const root = path.resolve(__dirname, '../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const contributed: Record<string, unknown>[] = manifest.contributes.languageModelTools;

/** The spec's table: the name the model sees -> `toolReferenceName`. */
const REFERENCE_NAMES: Record<string, string> = {
  fs_read: 'fsRead',
  fs_list: 'fsList',
  fs_glob: 'fsGlob',
  fs_grep: 'fsGrep',
  fs_edit: 'fsEdit',
  fs_write: 'fsWrite',
  fs_apply_patch: 'fsApplyPatch',
};

/**
 * How each modelDescription opens. With tool search, Copilot sends our tools deferred and
 * finds them by an embedding of `name + "\n\n" + modelDescription`: the first sentence must
 * say the job in the words a model searches with.
 */
const OPENINGS: Record<string, string> = {
  fs_read: 'Read a file',
  fs_list: 'List a folder',
  fs_glob: 'Find files by glob',
  fs_grep: 'Search file contents',
  fs_edit: 'Edit a file by replacing text',
  fs_write: 'Create or overwrite a file',
  fs_apply_patch: 'Apply a patch',
};

/** A first sentence a search ranks well and a model reads at a glance. */
const MAX_FIRST_SENTENCE_CHARS = 160;

/** The seven modelDescriptions plus their inputSchemas as JSON: what every request carries. */
const MAX_TOOL_DESCRIPTIONS_CHARS = 12000;

/**
 * What a user can type after `#` in VS Code 1.139's chat besides ours (tools and tool sets of the
 * host and Copilot Chat), as the Agent-mode suite enumerated them from the chat input's
 * suggestions; that suite fails when the host offers a different list.
 */
const hostReferences: { references: string[] } = JSON.parse(fs.readFileSync(path.join(root, 'test/agent/host-references.json'), 'utf8'));

/**
 * Inputs each tool's zod schema and its JSON `inputSchema` must agree on. Every
 * registered tool needs an entry, so a new tool cannot skip this check.
 *
 * - `valid`: both accept.
 * - `invalid`: both refuse (a wrong type or range, which the host's own check reports well).
 * - `answered`: the inputSchema lets it through, so that the tool itself answers with
 *   words naming the field (an alias it maps, "did you mean", a missing field): Copilot's
 *   agent mode checks input against the inputSchema before the tool sees it and, on a
 *   failure, gives the model only "must NOT have additional properties".
 */
export const SAMPLES: Record<string, { valid: unknown[]; invalid: unknown[]; answered: { input: unknown; says: RegExp }[] }> = {
  fs_read: {
    valid: [
      { path: 'a.txt' },
      { path: 'src/a.ts', offset: 10, limit: 5 },
      { path: '/abs/x', offset: 1 },
      { path: 'a', limit: 5000 },
      { path: 'a', offset: 3, limit: 1, column: 2001 },
      { path: 'a.py', mode: 'indentation', indentation: { anchor_line: 12, max_levels: 1, include_siblings: false, include_header: true, max_lines: 80 } },
      { path: 'a.py', mode: 'indentation' },
      { path: 'a.py', indentation: { max_levels: 0 } },
      { file_path: 'a' },
      { filePath: 'a', startLine: 3, endLine: 9 },
      { path: 'a'.repeat(4096) },
    ],
    invalid: [
      { path: '' },
      { path: 'a', offset: 0 },
      { path: 'a', limit: -1 },
      { path: 'a', offset: 1.5 },
      { path: 'a', column: 0 },
      { path: 'a', mode: 'lines' },
      { path: 'a', mode: 'indentation', indentation: { anchor_line: 0 } },
      { path: 'a', indentation: { max_levels: -1 } },
      { path: 'a'.repeat(4097) },
    ],
    answered: [
      { input: {}, says: /`path` is required/ },
      { input: { path: 3 }, says: /`path`: expected a file path \(string\) \(got 3\)/ },
      { input: { path: 'a', extra: true }, says: /unknown field `extra`: the fields are `path`, `offset`/ },
      { input: { path: 'a', ofset: 3 }, says: /unknown field `ofset`: did you mean `offset`\?/ },
      { input: { path: 'a', indentation: { depth: 2 } }, says: /unknown field `depth` in `indentation`/ },
      { input: { path: 'a', indentation: { anchorLine: 2 } }, says: /unknown field `anchorLine` in `indentation`: did you mean `anchor_line`\?/ },
      { input: { path: 'a', file_path: 'b' }, says: /`file_path` and `path` both set `path`, to different values: give only `path`/ },
      { input: { path: 'a', start_line: 9, end_line: 3 }, says: /`end_line`: line 3 is before the first line asked for, 9/ },
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
      { dir_path: 'src' },
      { recursive: true },
      { ignore: Array(100).fill('x'.repeat(4096)), cursor: 'c'.repeat(65536) },
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
      { ignore: Array(101).fill('x') },
      { ignore: ['x'.repeat(4097)] },
      { cursor: 'c'.repeat(65537) },
      { path: 'a'.repeat(4097) },
    ],
    answered: [
      { input: { recursive: 'all' }, says: /`recursive`: expected true or false/ },
      { input: { tree: true }, says: /unknown field `tree`: the fields are `path`, `depth`/ },
      { input: { dept: 3 }, says: /did you mean `depth`\?/ },
    ],
  },
  fs_glob: {
    valid: [
      { pattern: '*.ts' },
      { pattern: 'src/**/*.test.ts', path: 'src', limit: 10, offset: 11, sort: 'mtime', respect_ignore: false },
      { pattern: 'a', limit: 5000 },
      { glob: '*.ts' },
      { query: '*.ts', maxResults: 5 },
    ],
    invalid: [{ pattern: '' }, { pattern: '*', sort: 'size' }, { pattern: '*', limit: 0 }, { pattern: '*', offset: 0 }, { pattern: '*'.repeat(4097) }, { pattern: '*', path: 'a'.repeat(4097) }],
    answered: [
      { input: {}, says: /`pattern` is required/ },
      { input: { pattern: 3 }, says: /`pattern`: expected a glob/ },
      { input: { pattern: '*', include: '*.ts' }, says: /unknown field `include`/ },
    ],
  },
  fs_grep: {
    valid: [
      { pattern: 'foo' },
      { pattern: 'a\\(', path: 'src', include: '*.ts', fixed_strings: false, case_sensitive: true, context: 10, output: 'content', offset: 5, limit: 1000, multiline: true, respect_ignore: false },
      { pattern: 'x', output: 'count', context: 0 },
      { pattern: 'x', output: 'files', limit: 5000 },
      { query: 'x' },
      { pattern: 'x', glob: '*.ts', output_mode: 'files_with_matches', '-i': true, '-n': true },
      { pattern: 'x', type: 'ts', '-A': 2, '-B': 1 },
      { pattern: 'x'.repeat(8192), include: 'i'.repeat(4096), path: 'p'.repeat(4096) },
    ],
    invalid: [
      { pattern: '' },
      { pattern: 'x', context: 11 },
      { pattern: 'x', context: -1 },
      { pattern: 'x', output: 'lines' },
      { pattern: 'x', limit: 0 },
      { pattern: 'x', offset: 0 },
      { pattern: 'x', include: '' },
      { pattern: 'x'.repeat(8193) },
      { pattern: 'x', include: 'i'.repeat(4097) },
      { pattern: 'x', path: 'p'.repeat(4097) },
    ],
    answered: [
      { input: {}, says: /`pattern` is required/ },
      { input: { pattern: 'x', type: '.ts' }, says: /`type`: expected a file type/ },
      { input: { pattern: 'x', kind: 'ts' }, says: /unknown field `kind`: the fields are `pattern`/ },
      { input: { pattern: 'x', case_sensitiv: true }, says: /did you mean `case_sensitive`\?/ },
    ],
  },
  fs_edit: {
    valid: [
      { path: 'a.ts', old_string: 'a', new_string: 'b' },
      { path: 'a.ts', old_string: '', new_string: 'new file\n', replace_all: false },
      { path: 'a.ts', edits: [{ old_string: 'a', new_string: 'b', replace_all: true }, { old_string: 'c', new_string: 'd' }] },
      { file_path: 'a.ts', old_string: 'a', new_string: 'b' },
      { filePath: 'a.ts', oldString: 'a', newString: 'b', replaceAll: true },
      { path: 'a.ts', edits: [{ oldString: 'a', newString: 'b' }] },
      { path: 'a.ipynb', cell: 2, old_string: 'a', new_string: 'b' },
      { path: 'a.ipynb', cell: 2, new_string: 'whole source' },
      { path: 'a.ipynb', cell: 3, insert_cell: 'markdown', new_string: '# Title' },
      { path: 'a.ipynb', cell: 3, delete_cell: true },
    ],
    invalid: [{ path: '', old_string: 'a', new_string: 'b' }, { path: 'a', edits: [] }, { path: 'a', edits: 'x' }, { path: 'a.ipynb', cell: 1, insert_cell: 'table', new_string: 'x' }, { path: 'a.ipynb', cell: 1.5, new_string: 'x' }],
    answered: [
      { input: {}, says: /`path` is required/ },
      { input: { path: 'a' }, says: /`old_string`: is required \(or give edits\)/ },
      { input: { path: 'a', old_string: 'a', new_string: 'b', edits: [{ old_string: 'a', new_string: 'b' }] }, says: /not both/ },
      { input: { path: 'a', edits: [{ old_string: 'a' }] }, says: /`edits\.0\.new_string` is required/ },
      { input: { path: 'a', old_string: 'a', new_string: 'b', mode: 'x' }, says: /unknown field `mode`/ },
      { input: { path: 'a.ipynb', cell: 0, new_string: 'x' }, says: /`cell`: must be 1 or more/ },
      { input: { path: 'a.ipynb', cell: 1, symbol: 'f', new_string: 'x' }, says: /`cell`: names a notebook cell/ },
      { input: { path: 'a.ipynb', delete_cell: true }, says: /`delete_cell`: needs `cell`/ },
      { input: { path: 'a.ipynb', cell: 1, insert_cell: 'code' }, says: /`new_string`: is required with insert_cell/ },
    ],
  },
  fs_apply_patch: {
    valid: [{ patch: '*** Begin Patch\n*** Delete File: a.txt\n*** End Patch' }, { input: '*** Begin Patch\n*** End Patch' }, { patchText: 'x' }],
    invalid: [{ patch: '' }, { patch: [] }],
    answered: [
      { input: {}, says: /`patch` is required/ },
      { input: { patch: 'x', path: 'a' }, says: /unknown field `path`/ },
    ],
  },
  fs_write: {
    valid: [{ path: 'a.txt', content: '' }, { path: 'src/new.ts', content: 'export {};\n' }, { file_path: 'a.txt', content: 'x' }, { filePath: 'a.txt', content: 'x' }],
    invalid: [{ path: '', content: 'x' }],
    answered: [
      { input: {}, says: /`path` is required\n- `content` is required/ },
      { input: { path: 'a.txt' }, says: /`content` is required/ },
      { input: { content: 'x' }, says: /`path` is required/ },
      { input: { path: 'a', content: 3 }, says: /`content`: expected the whole new content/ },
      { input: { path: 'a', content: 'x', mode: 'append' }, says: /unknown field `mode`: the fields are `path`, `content`/ },
    ],
  },
};

/** Checks input as Copilot's agent mode does before a tool sees it (ajv, types coerced). */
function hostCheck(schema: object): ValidateFunction {
  new Ajv({ strict: true }).compile(schema);
  return new Ajv({ coerceTypes: true }).compile(schema);
}

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

  it('open every modelDescription with one plain sentence naming the job, and keep all descriptions and schemas within the budget', () => {
    let total = 0;
    for (const t of contributed) {
      const name = t.name as string;
      const description = t.modelDescription as string;
      const first = description.split('\n')[0];
      const opening = OPENINGS[name];
      assert.ok(first.startsWith(opening) && /^\W/.test(first.slice(opening.length)), `${name} opens with "${opening}": ${first}`);
      assert.ok(first.length <= MAX_FIRST_SENTENCE_CHARS, `${name}: first sentence of ${first.length} characters`);
      assert.match(first, /^[^`]*\.$/, `${name}: the first line is one sentence of plain words, ending with a full stop`);
      assert.doesNotMatch(first.slice(0, -1), /[.!?]\s/, `${name}: the first line holds one sentence`);
      total += description.length + JSON.stringify(t.inputSchema).length;
    }
    assert.ok(total <= MAX_TOOL_DESCRIPTIONS_CHARS, `descriptions and schemas total ${total} characters`);
  });

  it('give every string field of every tool, list items included, a maximum length', () => {
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

  it('use reference names that no tool or tool set of the host already has (a clash silently replaces the built-in one)', () => {
    const taken = new Map(hostReferences.references.map((r) => [r.toLowerCase(), r]));
    assert.ok(taken.has('read') && taken.has('edit') && taken.has('search'), 'the list holds the built-in tool sets');
    for (const [name, ref] of Object.entries(REFERENCE_NAMES)) {
      assert.ok(!taken.has(ref.toLowerCase()), `${name}'s reference #${ref} is the host's #${taken.get(ref.toLowerCase())}`);
    }
  });

  for (const spec of TOOLS) {
    const schema = () => contributed.find((t) => t.name === spec.name)!.inputSchema as { properties: Record<string, { description?: string }> };

    it(`${spec.name}: the inputSchema lets through what the tool accepts or answers, and refuses what both refuse`, () => {
      const samples = SAMPLES[spec.name];
      assert.ok(samples, `samples for ${spec.name}`);
      const validate = hostCheck(schema());
      for (const v of samples.valid) {
        assert.ok(validate(structuredClone(v)), `inputSchema accepts ${JSON.stringify(v)}: ${JSON.stringify(validate.errors)}`);
        const parsed = parseInput(spec, v);
        assert.ok(parsed.ok, `the tool accepts ${JSON.stringify(v)}: ${parsed.ok ? '' : resultText(parsed.result)}`);
      }
      for (const v of samples.invalid) {
        assert.ok(!validate(structuredClone(v)), `inputSchema rejects ${JSON.stringify(v)}`);
        assert.ok(!parseInput(spec, v).ok, `the tool rejects ${JSON.stringify(v)}`);
      }
      for (const { input, says } of samples.answered) {
        assert.ok(validate(structuredClone(input)), `inputSchema lets ${JSON.stringify(input)} through to the tool: ${JSON.stringify(validate.errors)}`);
        const parsed = parseInput(spec, input);
        assert.ok(!parsed.ok, `the tool refuses ${JSON.stringify(input)}`);
        assert.match(resultText(parsed.result), says);
      }
    });

    it(`${spec.name}: every field the tool requires says so in its description, and every field is described`, () => {
      const props = schema().properties;
      assert.deepEqual(Object.keys(props), fieldsAt(spec.schema), 'the same fields, in the same order');
      const empty = parseInput(spec, {});
      const missing = empty.ok ? '' : resultText(empty.result);
      for (const field of fieldsAt(spec.schema)) {
        const required = missing.includes(`\`${field}\` is required`);
        assert.ok(props[field].description, `${spec.name}.${field} is described`);
        assert.equal(props[field].description!.startsWith('Required. '), required, `${spec.name}.${field}: "Required." exactly when the tool requires it`);
      }
    });
  }

  it("describes what the tools do whatever the settings: the caps the code applies, a review that the approval policy may skip", () => {
    const tool = (name: string) => contributed.find((t) => t.name === name)! as { modelDescription: string; inputSchema: { properties: Record<string, { description: string }> } };
    assert.match(tool('fs_read').inputSchema.properties.limit.description, new RegExp(`Default and maximum ${MAX_READ_LINES} \\(PDF: ${MAX_PDF_PAGES_PER_READ}\\)`));
    for (const name of ['fs_edit', 'fs_write', 'fs_apply_patch']) {
      assert.doesNotMatch(tool(name).modelDescription, /The user reviews/, `${name}: with approvalPolicy sensitiveOnly or never, most changes land without a review`);
      assert.match(tool(name).modelDescription, /The user may review/, name);
    }
    assert.match(tool('fs_write').modelDescription, /The result gives the lines added and removed, the diff,/);
    assert.doesNotMatch(tool('fs_list').modelDescription, /see everything/, 'the ignore globs of the call apply with respect_ignore false too');
  });

  it('gives the settings the defaults the code uses; the files that always ask start from the built-in patterns, which the setting only adds to', () => {
    const props = settingsOf(manifest);
    assert.deepEqual(props['agentFileTools.sensitiveFiles'].default, []);
    assert.deepEqual(props['agentFileTools.protectedFiles'].default, []);
    assert.ok(DEFAULT_SETTINGS.protectedFiles.length > 200 && DEFAULT_SETTINGS.sensitiveFiles.length > 50, 'the built-in lists, which the Settings editor would show one per row');
    for (const key of ['approvalPolicy', 'saveAfterChange', 'formatAfterChange', 'instructionFiles', 'maxImageBytes'] as const) {
      assert.deepEqual(props[`agentFileTools.${key}`].default, DEFAULT_SETTINGS[key], key);
    }
  });

  it('groups the settings by what they are for, each in a titled section, and names a command that shows the built-in patterns', () => {
    const sections: { title: string; properties: Record<string, unknown> }[] = manifest.contributes.configuration;
    assert.ok(Array.isArray(sections) && sections.length >= 4, 'an array of sections');
    const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8'));
    const titles = sections.map((s) => nls[s.title.replace(/^%|%$/g, '')] ?? s.title);
    assert.equal(new Set(titles).size, titles.length, 'titles tell the sections apart');
    for (const s of sections) {
      assert.ok(Object.keys(s.properties).length <= 8, `${s.title}: a section a person takes in at a glance`);
    }
    const tools = sections.find((s) => Object.keys(s.properties).some((k) => k.startsWith('agentFileTools.tools.')))!;
    assert.ok(Object.keys(tools.properties).every((k) => k.startsWith('agentFileTools.tools.')), 'the tools offered have a section of their own');
    for (const key of ['protectedFiles', 'sensitiveFiles']) {
      assert.match(nls[`config.${key}.markdownDescription`], /\(command:agentFileTools\.showBuiltInPatterns\)/, key);
    }
    assert.ok(manifest.contributes.commands.some((c: { command: string }) => c.command === 'agentFileTools.showBuiltInPatterns'));
  });

  it("checks each tool's Run a Tool input against that tool's inputSchema, from a file inside the extension (VS Code takes only an absolute URL or ./ there)", () => {
    const entries: { fileMatch: string; url: string }[] = manifest.contributes.jsonValidation;
    assert.deepEqual(entries.map((e) => e.fileMatch), contributed.map((t) => `${t.name}.input.json`));
    for (const [i, e] of entries.entries()) {
      assert.match(e.url, /^\.\/dist\/schemas\/fs_\w+\.json$/, e.url);
      // what the build wrote (npm run build runs before the unit tests)
      assert.deepEqual(JSON.parse(fs.readFileSync(path.join(root, e.url), 'utf8')), contributed[i].inputSchema, e.url);
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
