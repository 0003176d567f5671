import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { resolveAliases, snakeCase } from '../../src/tools/aliases';
import { findTool, TOOLS } from '../../src/tools/registry';
import { resultText } from '../../src/tools/result';
import { parseInput } from '../../src/tools/run';
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
