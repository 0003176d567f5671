import * as z from 'zod';
import { throwIfCancelled } from '../core/cancel';
import { ToolError } from '../core/errors';
import { plural } from '../core/format';
import { callText, continueLine, nextInput, shownPhrase, tryLine } from '../core/contract';
import { MAX_GREP_CONTEXT_LINES, MAX_GREP_MATCHES } from '../core/limits';
import { locate } from '../core/paths';
import { engineFor } from './engine';
import { contentPage, filesPage, grepCounts, ignoreNotes, inPathOrder, recordUnit, sensitiveTester, type GrepOutput, type GrepRequest } from '../core/search/grep';
import { hasUppercaseLiteral, type CaseMode } from '../core/search/regex';
import { moreSuffix } from '../core/search/report';
import { openScope, type Scope } from '../core/search/scope';
import { fitToBudget } from './budget';
import { boolField, intField } from './input';
import { negate, type AliasTable } from './aliases';
import { textResult, type ToolResult } from './result';
import { authorize, preparationFor, readDecision, resolveTarget } from './target';
import type { ToolContext, ToolSpec } from './types';

/** Matches (content) or files (files, count) per page by default. */
const DEFAULT_LIMIT = 100;

export const grepSchema = z.strictObject({
  pattern: z.string({ error: 'expected a regular expression (string)' }).min(1, { error: 'must not be empty' }),
  path: z.string({ error: 'expected a folder or file path (string)' }).min(1, { error: 'must not be empty' }).optional(),
  include: z.string({ error: 'expected a glob (string), e.g. "*.ts"' }).min(1, { error: 'must not be empty' }).optional(),
  fixed_strings: boolField().optional(),
  case_sensitive: boolField().optional(),
  context: intField(0).pipe(z.number().max(MAX_GREP_CONTEXT_LINES, { error: `must be ${MAX_GREP_CONTEXT_LINES} or less` })).optional(),
  output: z.enum(['content', 'files', 'count'], { error: 'expected "content", "files" or "count"' }).optional(),
  offset: intField(1).optional(),
  limit: intField(1).optional(),
  multiline: boolField().optional(),
  respect_ignore: boolField().optional(),
});

export type GrepInput = z.output<typeof grepSchema>;

/**
 * Claude Code: glob, output_mode ("files_with_matches"), -i, -C, head_limit; Copilot: query,
 * isRegexp, includePattern, maxResults, includeIgnoredFiles; Gemini CLI: dir_path; Cline:
 * regex, file_pattern. `-n` (line numbers) is dropped: they are always shown.
 */
export const grepAliases: AliasTable = {
  aliases: [
    { names: ['query', 'regex'], field: 'pattern' },
    { names: ['dir_path', 'directory'], field: 'path' },
    { names: ['glob', 'include_pattern', 'file_pattern'], field: 'include' },
    { names: ['output_mode'], field: 'output' },
    { names: ['-i', 'ignore_case', 'case_insensitive'], field: 'case_sensitive', value: negate },
    { names: ['is_regexp'], field: 'fixed_strings', value: negate },
    { names: ['-C', 'context_lines'], field: 'context' },
    { names: ['head_limit', 'max_results'], field: 'limit' },
    { names: ['respect_git_ignore'], field: 'respect_ignore' },
    { names: ['include_ignored_files'], field: 'respect_ignore', value: negate },
  ],
  values: { output: { files_with_matches: 'files' } },
  ignored: ['-n'],
};

/** Where the search runs: the given path, or every workspace folder. */
export async function scopesFor(ctx: ToolContext, path: string | undefined, respectIgnore: boolean, purpose: 'files' | 'search', toolName: string, accept: 'folder' | 'folder-or-file'): Promise<Scope[]> {
  const roots = ctx.ws.roots();
  const given = path !== undefined ? await resolveTarget(ctx, path) : undefined;
  if (given) {
    await authorize(ctx, given, toolName, 'search');
  }
  const targets = given ? [given] : roots.map((r) => ({ real: r.path, located: locate(r.path, roots) }));
  if (targets.length === 0) {
    throw new ToolError('invalid-input', `No workspace folder is open, so ${toolName} has nowhere to search by default. Give an absolute path.`);
  }
  const scopes: Scope[] = [];
  for (const t of targets) {
    scopes.push(await openScope(ctx.ws, t, { purpose, respectIgnore, settingGlobs: ctx.settings.ignoreGlobs, accept, toolName, signal: ctx.signal }));
  }
  return scopes;
}

const CALL_KEYS = ['pattern', 'path', 'include', 'fixed_strings', 'case_sensitive', 'context', 'output', 'limit', 'multiline', 'respect_ignore'] as const;

function continuation(input: GrepInput, offset: number): string {
  return callText('fs_grep', nextInput(input, CALL_KEYS, { offset }));
}

/**
 * When nothing matched because smart case made the search case-sensitive (the pattern has
 * an uppercase letter), the reason and the call that ignores case.
 */
function smartCaseHint(input: GrepInput): string[] {
  if (input.case_sensitive !== undefined || !hasUppercaseLiteral(input.pattern, input.fixed_strings ?? false)) {
    return [];
  }
  return [
    'The pattern has an uppercase letter, so the search was case-sensitive (smart case).',
    tryLine(callText('fs_grep', nextInput(input, CALL_KEYS, { case_sensitive: false }))),
  ];
}

export const grepTool: ToolSpec<typeof grepSchema> = {
  name: 'fs_grep',
  mutates: false,
  schema: grepSchema,
  aliases: grepAliases,
  example: '{"pattern": "function \\\\w+Handler", "path": "src", "include": "*.ts"}',

  async prepare(input, ctx) {
    if (input.path === undefined) {
      return { invocationMessage: `Searching for ${JSON.stringify(input.pattern)}` };
    }
    const t = await resolveTarget(ctx, input.path);
    return preparationFor(readDecision(ctx, t, 'fs_grep', 'search'), `Searching ${t.located.display} for ${JSON.stringify(input.pattern)}`);
  },

  async invoke(input: GrepInput, ctx: ToolContext): Promise<ToolResult> {
    const output: GrepOutput = input.output ?? 'content';
    const respectIgnore = input.respect_ignore ?? true;
    const caseMode: CaseMode = input.case_sensitive === undefined ? 'smart' : input.case_sensitive ? 'sensitive' : 'insensitive';
    const req: GrepRequest = {
      query: { pattern: input.pattern, fixedStrings: input.fixed_strings ?? false, caseMode, multiline: input.multiline ?? false },
      include: input.include,
      context: output === 'content' ? (input.context ?? 0) : 0,
      output,
      skip: (input.offset ?? 1) - 1,
      limit: Math.min(input.limit ?? DEFAULT_LIMIT, MAX_GREP_MATCHES),
    };
    const scopes = await scopesFor(ctx, input.path, respectIgnore, 'search', 'fs_grep', 'folder-or-file');
    // A sensitive file named as the path was approved (scopesFor asked).
    const approved = new Set<string>();
    if (input.path !== undefined) {
      const t = await resolveTarget(ctx, input.path);
      const d = readDecision(ctx, t, 'fs_grep', 'search');
      if (d.kind === 'confirm' && d.reason === 'sensitive' && t.located.relative) {
        approved.add(t.located.relative);
      }
    }
    const engine = engineFor(ctx, scopes);
    throwIfCancelled(ctx.signal);
    const env = { engine, scopes, host: ctx.ws, dirty: ctx.ws.dirtyDocuments(), sensitive: sensitiveTester(ctx.settings.sensitiveFiles), approved, signal: ctx.signal };
    const result = await grepCounts(req, env);
    const files = result.files;
    const records = files.reduce((s, f) => s + f.count, 0);
    const unit = recordUnit(req.query);
    const shown = scopes[0].display(scopes[0].baseRel);
    const where = `${scopes.length > 1 ? 'the workspace folders' : shown === '.' ? 'the workspace' : shown}${input.include ? ` (include: ${input.include})` : ''}`;
    const totalItems = output === 'content' ? records : files.length;
    if (totalItems > 0 && req.skip >= totalItems) {
      throw new ToolError('offset-past-end', `offset=${req.skip + 1} is past the end: there are ${output === 'content' ? plural(records, unit[0], unit[1]) : plural(files.length, 'file')}. Use an offset from 1 to ${totalItems}, or omit it.`);
    }
    const found = `${plural(records, unit[0], unit[1])} in ${plural(files.length, 'file')} for ${JSON.stringify(input.pattern)} in ${where}`;
    const notes: string[] = [];
    if (result.sensitive.length) {
      const n = result.sensitive.reduce((s, f) => s + f.count, 0);
      const names = result.sensitive.slice(0, 5).map((f) => f.display);
      notes.push(`${plural(n, unit[0], unit[1])} in ${plural(result.sensitive.length, 'sensitive file')} not shown (${names.join(', ')}${moreSuffix(result.sensitive.length, names.length)}): they may hold secrets; read them with fs_read to be asked for approval.`);
    }
    notes.push(...(await ignoreNotes(ctx.ws, result.reports, { one: 'matching file', many: 'matching files', unit }, 'searched')));
    if (files.length === 0 && result.sensitive.length === 0) {
      notes.push(...smartCaseHint(input));
    }
    const page = files.length > 0 ? (output === 'content' ? await contentPage(req, env, inPathOrder(files, req.skip + req.limit)) : filesPage(req, inPathOrder(files, req.skip + req.limit))) : undefined;
    const render = (k: number): string => {
      const more = req.skip + k < totalItems;
      const out: string[] = [];
      if (page) {
        const phrase = shownPhrase(req.skip + 1, req.skip + k, more);
        out.push(`${found}; ${output === 'content' || phrase === 'all shown' ? '' : 'files '}${phrase}:`, ...page.lines(k));
      } else {
        out.push(`No ${unit[1]} for ${JSON.stringify(input.pattern)} in ${where}.`);
      }
      out.push(...notes);
      if (more) {
        out.push(continueLine(continuation(input, req.skip + k + 1)));
      }
      return out.join('\n');
    };
    return textResult((await fitToBudget(ctx, page?.shown ?? 0, render)).text);
  },
};
