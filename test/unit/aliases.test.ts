import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { resolveAliases, snakeCase } from '../../src/services/aliases';
import { findTool, TOOLS } from '../../src/tools/registry';
import { resultText } from '../../src/services/result';
import { parseInput } from '../../src/services/run';
import { call, context, tempTree } from './helpers';

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8'));

/**
 * Every alias, one case each: what a model sends, and the input the tool then runs with.
 * The mapping is stated here independently of the tables in src/tools, and a test below
 * fails when a table names an alias this list does not try.
 */
const CASES: { tool: string; alias: string; input: Record<string, unknown>; means: Record<string, unknown> }[] = [
  { tool: 'fs_read', alias: 'file_path', input: { file_path: 'a.ts' }, means: { path: 'a.ts' } },
  { tool: 'fs_read', alias: 'absolute_path', input: { absolute_path: '/w/a.ts' }, means: { path: '/w/a.ts' } },
  { tool: 'fs_read', alias: 'target_file', input: { target_file: 'a.ts' }, means: { path: 'a.ts' } },
  { tool: 'fs_read', alias: 'start_line', input: { path: 'a', start_line: 5 }, means: { path: 'a', offset: 5 } },
  { tool: 'fs_read', alias: 'start_line_one_indexed', input: { path: 'a', start_line_one_indexed: '5' }, means: { path: 'a', offset: 5 } },
  { tool: 'fs_read', alias: 'end_line', input: { path: 'a', start_line: 5, end_line: 9 }, means: { path: 'a', offset: 5, limit: 5 } },
  { tool: 'fs_read', alias: 'end_line_one_indexed_inclusive', input: { path: 'a', end_line_one_indexed_inclusive: 40 }, means: { path: 'a', limit: 40 } },
  { tool: 'fs_write', alias: 'file_path', input: { file_path: 'a.ts', content: 'x' }, means: { path: 'a.ts', content: 'x' } },
  { tool: 'fs_write', alias: 'absolute_path', input: { absolute_path: '/w/a.ts', content: '' }, means: { path: '/w/a.ts', content: '' } },
  { tool: 'fs_write', alias: 'target_file', input: { target_file: 'a.ts', content: 'x' }, means: { path: 'a.ts', content: 'x' } },
  { tool: 'fs_edit', alias: 'file_path', input: { file_path: 'a', old_string: 'x', new_string: 'y' }, means: { path: 'a', old_string: 'x', new_string: 'y' } },
  { tool: 'fs_edit', alias: 'absolute_path', input: { absolute_path: '/w/a', old_string: 'x', new_string: 'y' }, means: { path: '/w/a', old_string: 'x', new_string: 'y' } },
  { tool: 'fs_edit', alias: 'target_file', input: { target_file: 'a', old_string: 'x', new_string: 'y' }, means: { path: 'a', old_string: 'x', new_string: 'y' } },
  { tool: 'fs_edit', alias: 'old_str', input: { path: 'a', old_str: 'x', new_str: 'y' }, means: { path: 'a', old_string: 'x', new_string: 'y' } },
  { tool: 'fs_edit', alias: 'old_text', input: { path: 'a', old_text: 'x', new_text: 'y' }, means: { path: 'a', old_string: 'x', new_string: 'y' } },
  { tool: 'fs_edit', alias: 'search', input: { path: 'a', search: 'x', replace: 'y' }, means: { path: 'a', old_string: 'x', new_string: 'y' } },
  { tool: 'fs_edit', alias: 'new_str', input: { path: 'a', old_string: 'x', new_str: 'y' }, means: { path: 'a', old_string: 'x', new_string: 'y' } },
  { tool: 'fs_edit', alias: 'new_text', input: { path: 'a', old_string: 'x', new_text: 'y' }, means: { path: 'a', old_string: 'x', new_string: 'y' } },
  { tool: 'fs_edit', alias: 'replace', input: { path: 'a', old_string: 'x', replace: 'y' }, means: { path: 'a', old_string: 'x', new_string: 'y' } },
  { tool: 'fs_apply_patch', alias: 'input', input: { input: '*** Begin Patch' }, means: { patch: '*** Begin Patch' } },
  { tool: 'fs_apply_patch', alias: 'patch_text', input: { patchText: '*** Begin Patch' }, means: { patch: '*** Begin Patch' } },
  { tool: 'fs_apply_patch', alias: 'diff', input: { diff: '*** Begin Patch' }, means: { patch: '*** Begin Patch' } },
  { tool: 'fs_list', alias: 'dir_path', input: { dir_path: 'src' }, means: { path: 'src' } },
  { tool: 'fs_list', alias: 'directory', input: { directory: 'src' }, means: { path: 'src' } },
  { tool: 'fs_list', alias: 'relative_workspace_path', input: { relative_workspace_path: 'src' }, means: { path: 'src' } },
  { tool: 'fs_list', alias: 'max_depth', input: { max_depth: 3 }, means: { depth: 3 } },
  { tool: 'fs_list', alias: 'respect_git_ignore', input: { respect_git_ignore: false }, means: { respect_ignore: false } },
  { tool: 'fs_glob', alias: 'glob', input: { glob: '*.ts' }, means: { pattern: '*.ts' } },
  { tool: 'fs_glob', alias: 'glob_pattern', input: { glob_pattern: '*.ts' }, means: { pattern: '*.ts' } },
  { tool: 'fs_glob', alias: 'query', input: { query: '**/x.ts' }, means: { pattern: '**/x.ts' } },
  { tool: 'fs_glob', alias: 'dir_path', input: { pattern: '*', dir_path: 'src' }, means: { pattern: '*', path: 'src' } },
  { tool: 'fs_glob', alias: 'directory', input: { pattern: '*', directory: 'src' }, means: { pattern: '*', path: 'src' } },
  { tool: 'fs_glob', alias: 'target_directory', input: { pattern: '*', target_directory: 'src' }, means: { pattern: '*', path: 'src' } },
  { tool: 'fs_glob', alias: 'max_results', input: { pattern: '*', max_results: 7 }, means: { pattern: '*', limit: 7 } },
  { tool: 'fs_glob', alias: 'head_limit', input: { pattern: '*', head_limit: 7 }, means: { pattern: '*', limit: 7 } },
  { tool: 'fs_glob', alias: 'respect_git_ignore', input: { pattern: '*', respect_git_ignore: false }, means: { pattern: '*', respect_ignore: false } },
  { tool: 'fs_glob', alias: 'include_ignored_files', input: { pattern: '*', include_ignored_files: true }, means: { pattern: '*', respect_ignore: false } },
  { tool: 'fs_grep', alias: 'query', input: { query: 'foo' }, means: { pattern: 'foo' } },
  { tool: 'fs_grep', alias: 'regex', input: { regex: 'fo+' }, means: { pattern: 'fo+' } },
  { tool: 'fs_grep', alias: 'dir_path', input: { pattern: 'x', dir_path: 'src' }, means: { pattern: 'x', path: 'src' } },
  { tool: 'fs_grep', alias: 'directory', input: { pattern: 'x', directory: 'src' }, means: { pattern: 'x', path: 'src' } },
  { tool: 'fs_grep', alias: 'glob', input: { pattern: 'x', glob: '*.ts' }, means: { pattern: 'x', include: '*.ts' } },
  { tool: 'fs_grep', alias: 'include_pattern', input: { pattern: 'x', include_pattern: 'src/**' }, means: { pattern: 'x', include: 'src/**' } },
  { tool: 'fs_grep', alias: 'file_pattern', input: { pattern: 'x', file_pattern: '*.md' }, means: { pattern: 'x', include: '*.md' } },
  { tool: 'fs_grep', alias: 'output_mode', input: { pattern: 'x', output_mode: 'files_with_matches' }, means: { pattern: 'x', output: 'files' } },
  { tool: 'fs_grep', alias: '-i', input: { pattern: 'x', '-i': true }, means: { pattern: 'x', case_sensitive: false } },
  { tool: 'fs_grep', alias: 'ignore_case', input: { pattern: 'x', ignore_case: false }, means: { pattern: 'x', case_sensitive: true } },
  { tool: 'fs_grep', alias: 'case_insensitive', input: { pattern: 'x', case_insensitive: 'true' }, means: { pattern: 'x', case_sensitive: false } },
  { tool: 'fs_grep', alias: 'is_regexp', input: { pattern: 'a.b', is_regexp: false }, means: { pattern: 'a.b', fixed_strings: true } },
  { tool: 'fs_grep', alias: '-C', input: { pattern: 'x', '-C': 2 }, means: { pattern: 'x', context: 2 } },
  { tool: 'fs_grep', alias: 'context_lines', input: { pattern: 'x', context_lines: 3 }, means: { pattern: 'x', context: 3 } },
  { tool: 'fs_grep', alias: 'head_limit', input: { pattern: 'x', head_limit: 20 }, means: { pattern: 'x', limit: 20 } },
  { tool: 'fs_grep', alias: 'max_results', input: { pattern: 'x', max_results: 20 }, means: { pattern: 'x', limit: 20 } },
  { tool: 'fs_grep', alias: 'respect_git_ignore', input: { pattern: 'x', respect_git_ignore: false }, means: { pattern: 'x', respect_ignore: false } },
  { tool: 'fs_grep', alias: 'include_ignored_files', input: { pattern: 'x', include_ignored_files: 'false' }, means: { pattern: 'x', respect_ignore: true } },
  { tool: 'fs_grep', alias: 'type', input: { pattern: 'x', type: 'py' }, means: { pattern: 'x', include: '*.{py,pyi}' } },
  { tool: 'fs_grep', alias: '-A', input: { pattern: 'x', '-A': 3 }, means: { pattern: 'x', context: 3 } },
  { tool: 'fs_grep', alias: '-B', input: { pattern: 'x', '-B': '2' }, means: { pattern: 'x', context: 2 } },
  { tool: 'fs_read', alias: 'view_range', input: { path: 'a', view_range: [5, 9] }, means: { path: 'a', offset: 5, limit: 5 } },
  { tool: 'fs_write', alias: 'contents', input: { target_file: 'a', contents: 'x' }, means: { path: 'a', content: 'x' } },
  { tool: 'fs_write', alias: 'file_text', input: { path: 'a', file_text: '' }, means: { path: 'a', content: '' } },
  { tool: 'fs_list', alias: 'recursive', input: { recursive: true }, means: { depth: 10 } },
  { tool: 'fs_edit', alias: 'replacements', input: { path: 'a', replacements: [{ old_string: 'x', new_string: 'y' }] }, means: { path: 'a', edits: [{ old_string: 'x', new_string: 'y' }] } },
  { tool: 'fs_edit', alias: 'expected_replacements', input: { path: 'a', old_string: 'x', new_string: 'y', expected_replacements: 1 }, means: { path: 'a', old_string: 'x', new_string: 'y' } },
];

/** camelCase of a snake_case name: the form OpenCode's and Copilot's tools use. */
function camel(name: string): string {
  return name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

function parsed(tool: string, input: unknown): unknown {
  const r = parseInput(findTool(tool)!, input);
  assert.ok(r.ok, r.ok ? '' : resultText(r.result));
  return r.value;
}

function hostAccepts(tool: string, input: unknown): boolean {
  const schema = manifest.contributes.languageModelTools.find((t: { name: string }) => t.name === tool).inputSchema;
  return new Ajv({ coerceTypes: true }).compile(schema)(structuredClone(input)) as boolean;
}

describe('field aliases', () => {
  for (const c of CASES) {
    it(`${c.tool}: ${c.alias} ${JSON.stringify(c.input)} means ${JSON.stringify(c.means)}`, () => {
      assert.deepEqual(parsed(c.tool, c.input), c.means);
      assert.ok(hostAccepts(c.tool, c.input), 'the inputSchema lets it through to the tool');
      const camelName = camel(c.alias);
      if (camelName !== c.alias) {
        const input = Object.fromEntries(Object.entries(c.input).map(([k, v]) => [k === c.alias ? camelName : k, v]));
        assert.deepEqual(parsed(c.tool, input), c.means, `${camelName} too`);
      }
    });
  }

  it('tries every alias the tools declare', () => {
    const tried = new Set(CASES.map((c) => `${c.tool} ${c.alias}`));
    for (const spec of TOOLS) {
      for (const a of spec.aliases?.aliases ?? []) {
        for (const n of a.names) {
          assert.ok(tried.has(`${spec.name} ${n}`), `a case for ${spec.name} ${n}`);
        }
      }
    }
  });

  it('takes camelCase for any field (filePath, caseSensitive) and drops Copilot\'s explanation and Claude\'s -n', () => {
    assert.deepEqual(parsed('fs_grep', { pattern: 'x', caseSensitive: true, fixedStrings: 'true', outputMode: 'count', explanation: 'looking for x', '-n': true }), {
      pattern: 'x',
      case_sensitive: true,
      fixed_strings: true,
      output: 'count',
    });
    assert.equal(snakeCase('filePath'), 'file_path');
    assert.equal(snakeCase('-C'), '-C');
    assert.equal(snakeCase('path'), 'path');
  });

  it('accepts an alias beside its field when both say the same, and refuses them when they differ', () => {
    assert.deepEqual(parsed('fs_read', { path: 'a', file_path: 'a' }), { path: 'a' });
    const r = parseInput(findTool('fs_glob')!, { pattern: '*.ts', glob: '*.md' });
    assert.ok(!r.ok);
    assert.equal(resultText(r.result), 'Invalid input for fs_glob:\n- `glob` and `pattern` both set `pattern`, to different values: give only `pattern`\nA valid call looks like: {"pattern": "**/*.test.ts", "path": "src"}');
    const camel = parseInput(findTool('fs_edit')!, { path: 'a', old_string: 'x', oldString: 'y', new_string: 'z' });
    assert.ok(!camel.ok, 'a field and its camelCase form with different values: the last no longer wins silently');
    assert.match(resultText(camel.result), /- `oldString` and `old_string` both set `old_string`, to different values: give only `old_string`/);
    assert.deepEqual(parsed('fs_edit', { path: 'a', old_string: 'x', oldString: 'x', new_string: 'z' }), { path: 'a', old_string: 'x', new_string: 'z' });
    const two = parseInput(findTool('fs_grep')!, { pattern: 'x', respect_git_ignore: true, include_ignored_files: true });
    assert.ok(!two.ok);
    assert.match(resultText(two.result), /`include_ignored_files` and `respect_git_ignore` both set `respect_ignore`/);
  });

  it('maps values of output whichever name carries them', () => {
    assert.deepEqual(parsed('fs_grep', { pattern: 'x', output: 'files_with_matches' }), { pattern: 'x', output: 'files' });
    assert.deepEqual(parsed('fs_grep', { pattern: 'x', output_mode: 'content' }), { pattern: 'x', output: 'content' });
  });

  it('leaves an unknown name for the schema to answer with "did you mean"', () => {
    const r = resolveAliases({ pathh: 'a' }, findTool('fs_read')!.aliases, ['path']);
    assert.deepEqual(r, { ok: true, input: { pathh: 'a' } });
    const read = parseInput(findTool('fs_read')!, { pathh: 'a' });
    assert.ok(!read.ok);
    assert.match(resultText(read.result), /unknown field `pathh`: did you mean `path`\?/);
    const viaAlias = parseInput(findTool('fs_grep')!, { pattern: 'x', outputmode: 'files' });
    assert.ok(!viaAlias.ok);
    assert.match(resultText(viaAlias.result), /unknown field `outputmode`: did you mean `output`\?/, 'a near spelling of an alias suggests its field');
  });

  it('reads the line range of a view_range, -1 meaning the end, and names view_range when it is not one', () => {
    assert.deepEqual(parsed('fs_read', { path: 'a', view_range: [7, -1] }), { path: 'a', offset: 7 });
    assert.deepEqual(parsed('fs_read', { path: 'a', view_range: ['3', '3'] }), { path: 'a', offset: 3, limit: 1 });
    for (const bad of [[9, 3], [0, 4], [1], 'x', [1, 2, 3]]) {
      const r = parseInput(findTool('fs_read')!, { path: 'a', view_range: bad });
      assert.ok(!r.ok, JSON.stringify(bad));
      assert.match(resultText(r.result), /^Invalid input for fs_read:\n- `view_range`: expected \[first, last\] line numbers/);
    }
    const both = parseInput(findTool('fs_read')!, { path: 'a', offset: 2, view_range: [5, 9] });
    assert.ok(!both.ok);
    assert.match(resultText(both.result), /`view_range` and `offset` both set `offset`/);
    assert.deepEqual(parsed('fs_read', { path: 'a', should_read_entire_file: true }), { path: 'a' }, "Cursor's flag changes nothing");
  });

  it('grep: -A, -B and -C are one context, the largest; type is an include glob, an unknown type its extension', () => {
    assert.deepEqual(parsed('fs_grep', { pattern: 'x', '-A': 1, '-B': 4 }), { pattern: 'x', context: 4 });
    assert.deepEqual(parsed('fs_grep', { pattern: 'x', '-C': 2, '-A': 1 }), { pattern: 'x', context: 2 });
    assert.deepEqual(parsed('fs_grep', { pattern: 'x', context: 1, '-B': 3 }), { pattern: 'x', context: 3 });
    assert.deepEqual(parsed('fs_grep', { pattern: 'x', type: 'ts' }), { pattern: 'x', include: '*.{ts,tsx,mts,cts}' });
    assert.deepEqual(parsed('fs_grep', { pattern: 'x', type: 'lua' }), { pattern: 'x', include: '*.lua' });
    const clash = parseInput(findTool('fs_grep')!, { pattern: 'x', type: 'ts', glob: '*.md' });
    assert.ok(!clash.ok);
    assert.match(resultText(clash.result), /both set `include`, to different values: give only `include`/);
    const bad = parseInput(findTool('fs_grep')!, { pattern: 'x', type: '*.ts' });
    assert.ok(!bad.ok);
    assert.match(resultText(bad.result), /- `type`: expected a file type such as "ts"/);
    const notNumber = parseInput(findTool('fs_grep')!, { pattern: 'x', '-A': 'many', '-B': 2 });
    assert.ok(!notNumber.ok, 'a context that is no number is refused, not dropped');
  });

  it('list: recursive is the deepest listing or one level, and a depth given beside it wins', () => {
    assert.deepEqual(parsed('fs_list', { path: 'src', recursive: 'false' }), { path: 'src', depth: 1 });
    assert.deepEqual(parsed('fs_list', { recursive: true, depth: 3 }), { depth: 3 });
    const bad = parseInput(findTool('fs_list')!, { recursive: 'yes' });
    assert.ok(!bad.ok);
    assert.match(resultText(bad.result), /- `recursive`: expected true or false \(got "yes"\)/);
  });

  it("edit: a list's items may name the file (OpenCode, Copilot), one file per call; a count other than 1 is refused", () => {
    const one = { old_string: 'x', new_string: 'y' };
    assert.deepEqual(parsed('fs_edit', { replacements: [{ filePath: 'a.ts', oldString: 'x', newString: 'y', explanation: 'why' }] }), { path: 'a.ts', edits: [one] });
    assert.deepEqual(parsed('fs_edit', { filePath: 'a.ts', edits: [{ filePath: 'a.ts', ...one }, { file_path: 'a.ts', ...one }] }), { path: 'a.ts', edits: [one, one] });
    assert.deepEqual(parsed('fs_edit', { path: 'a.ts', edits: [{ path: 'a.ts', ...one }] }), { path: 'a.ts', edits: [one] });
    const two = parseInput(findTool('fs_edit')!, { replacements: [{ filePath: 'a.ts', ...one }, { filePath: 'b.ts', ...one }] });
    assert.ok(!two.ok);
    assert.match(resultText(two.result), /- `edits`: name 2 files \("a\.ts", "b\.ts"\), and fs_edit changes one file per call: call it once per file, or use fs_apply_patch/);
    const other = parseInput(findTool('fs_edit')!, { path: 'a.ts', edits: [{ filePath: 'b.ts', ...one }] });
    assert.ok(!other.ok, 'an item naming another file than path');
    const count = parseInput(findTool('fs_edit')!, { path: 'a', ...one, expected_replacements: 3 });
    assert.ok(!count.ok, 'replacing every place when the model expected a number of them could change places it did not mean');
    assert.match(resultText(count.result), /- `expected_replacements`: fs_edit checks no count: set "replace_all": true/);
  });

  it("edit: an edits item takes every alias and camelCase form, and refuses two names for one field with different values", () => {
    const one = { old_string: 'x', new_string: 'y', replace_all: true };
    for (const item of [
      { oldText: 'x', newText: 'y', replaceAll: true },
      { old_str: 'x', new_str: 'y', replace_all: 'true' },
      { search: 'x', replace: 'y', replaceAll: true, explanation: 'why' },
      { oldString: 'x', old_string: 'x', newString: 'y', replaceAll: true },
    ]) {
      assert.deepEqual(parsed('fs_edit', { path: 'a', edits: [item] }), { path: 'a', edits: [one] }, JSON.stringify(item));
    }
    const clash = parseInput(findTool('fs_edit')!, { path: 'a', edits: [{ old_string: 'x', old_str: 'z', new_string: 'y' }] });
    assert.ok(!clash.ok, 'which old_string the model meant cannot be known');
    assert.match(resultText(clash.result), /- `edits\.0\.old_str`: gives `old_string` a second, different value \(`old_string` gave one\): give only `old_string`/);
    const unknown = parseInput(findTool('fs_edit')!, { path: 'a', edits: [{ old_string: 'x', new_string: 'y', fooBar: 1 }] });
    assert.ok(!unknown.ok);
    assert.match(resultText(unknown.result), /unknown field `fooBar` in `edits\.0`/, 'an unknown name is quoted as sent');
  });

  it('answers unknown fields with one list of the fields, inside an edits item too, and guesses no field from an alias inside a longer name', () => {
    const grep = parseInput(findTool('fs_grep')!, { pattern: 'x', foo: 1, bar: 2, case_sensitiv: true });
    assert.ok(!grep.ok);
    const text = resultText(grep.result);
    assert.match(text, /\n- unknown field `case_sensitiv`: did you mean `case_sensitive`\?\n/);
    assert.match(text, /\n- unknown fields `foo`, `bar`: the fields are `pattern`, `path`, `include`,/);
    assert.equal(text.match(/the fields are/g)?.length, 1, 'the fields are listed once');
    const item = parseInput(findTool('fs_edit')!, { path: 'a', edits: [{ old_string: 'x', new_string: 'y', lines: 3 }] });
    assert.ok(!item.ok);
    assert.match(resultText(item.result), /- unknown field `lines` in `edits\.0`: the fields are `old_string`, `new_string`, `replace_all`\n/);
    const near = parseInput(findTool('fs_edit')!, { path: 'a', edits: [{ old_string: 'x', new_strng: 'y' }] });
    assert.ok(!near.ok);
    assert.match(resultText(near.result), /- unknown field `new_strng` in `edits\.0`: did you mean `new_string`\?/);
    const longer = parseInput(findTool('fs_edit')!, { path: 'a', old_string: 'x', new_string: 'y', max_replacements: 2 });
    assert.ok(!longer.ok);
    assert.match(resultText(longer.result), /- unknown field `max_replacements`: the fields are `path`/);
  });

  it('runs the tools with the mapped input, and the continuation uses our names', async () => {
    const t = tempTree({ 'a.txt': 'one\ntwo\nthree\nfour\n', 'src/x.ts': 'needle\n' });
    try {
      const ctx = await context(t.root);
      const read = await call(ctx, 'fs_read', { filePath: 'a.txt', startLine: 2, endLine: 3 });
      assert.match(read.text, /\nL2: two\nL3: three\n<\/content>\nContinue with: fs_read \{"path":"a\.txt","offset":4,"limit":2\}$/);
      const grep = await call(ctx, 'fs_grep', { query: 'needle', output_mode: 'files_with_matches', glob: '*.ts' });
      assert.equal(grep.text, '1 matching line in 1 file for "needle" in the workspace (include: *.ts); all shown:\nsrc/x.ts');
      const list = await call(ctx, 'fs_list', { dir_path: 'src' });
      assert.match(list.text, /^Folder src \(/);
      const glob = await call(ctx, 'fs_glob', { glob: '*.ts', max_results: 5 });
      assert.match(glob.text, /^1 file matches \*\*\/\*\.ts in the workspace; all shown:\nsrc\/x\.ts$/);
    } finally {
      t.cleanup();
    }
  });
});
