import * as z from 'zod';
import { throwIfCancelled } from '../core/cancel';
import { ToolError } from '../core/errors';
import { formatCount, plural } from '../core/format';
import { MAX_GLOB_INPUT_CHARS, MAX_GREP_CONTEXT_LINES, MAX_GREP_MATCHES, MAX_PATH_INPUT_CHARS, MAX_PATTERN_INPUT_CHARS } from '../core/limits';
import { locate } from '../core/paths';
import { engineFor } from './engine';
import { contentPage, filesPage, grepCounts, ignoreNotes, inPathOrder, type GrepOutput, type GrepRequest } from '../core/search/grep';
import { sensitiveFileTester } from '../core/policy';
import type { CaseMode } from '../core/search/regex';
import { openScope, type Scope } from '../core/search/scope';
import { fitToBudget } from './budget';
import { boolField, continuationCall, intField, textField } from './input';
import { textResult, type ToolResult } from './result';
import { authorize, checkUnchanged, preparationFor, readDecision, resolveTarget } from './target';
import type { ToolContext, ToolSpec } from './types';

/** Matches (content) or files (files, count) per page by default. */
const DEFAULT_LIMIT = 100;

export const grepSchema = z.strictObject({
  pattern: textField(MAX_PATTERN_INPUT_CHARS, 'a regular expression'),
  path: textField(MAX_PATH_INPUT_CHARS, 'a folder or file path').optional(),
  include: textField(MAX_GLOB_INPUT_CHARS, 'a glob, e.g. "*.ts"').optional(),
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

/** After a walk by path: each searched folder must still be the one decided on (see checkUnchanged). */
export async function checkScopes(ctx: ToolContext, scopes: readonly Scope[]): Promise<void> {
  for (const s of scopes) {
    await checkUnchanged(ctx, s.base, s.display(s.baseRel));
  }
}

function continuation(input: GrepInput, offset: number): string {
  return continuationCall('fs_grep', input, ['pattern', 'path', 'include', 'fixed_strings', 'case_sensitive', 'context', 'output', 'limit', 'multiline', 'respect_ignore'], { offset });
}

export const grepTool: ToolSpec<typeof grepSchema> = {
  name: 'fs_grep',
  mutates: false,
  schema: grepSchema,
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
    // A sensitive file (or folder) named as the path was asked about and approved by scopesFor.
    let approved: string | undefined;
    if (input.path !== undefined) {
      const t = await resolveTarget(ctx, input.path);
      const d = readDecision(ctx, t, 'fs_grep', 'search');
      if (d.kind === 'confirm' && d.reasons.includes('sensitive') && t.real === scopes[0].base) {
        approved = t.real;
      }
    }
    const engine = engineFor(ctx, scopes);
    throwIfCancelled(ctx.signal);
    const env = { engine, scopes, host: ctx.ws, dirty: ctx.ws.dirtyDocuments(), sensitive: sensitiveFileTester(ctx.settings.sensitiveFiles), approved, signal: ctx.signal };
    const result = await grepCounts(req, env);
    const files = result.files;
    const records = files.reduce((s, f) => s + f.count, 0);
    const unit: [string, string] = req.query.multiline ? ['match', 'matches'] : ['matching line', 'matching lines'];
    const shown = scopes[0].display(scopes[0].baseRel);
    const where = scopes.length > 1 ? 'the workspace folders' : shown === '.' ? 'the workspace' : shown;
    const totalItems = output === 'content' ? records : files.length;
    if (totalItems > 0 && req.skip >= totalItems) {
      throw new ToolError('offset-past-end', `offset=${req.skip + 1} is past the end: there are ${output === 'content' ? plural(records, unit[0], unit[1]) : plural(files.length, 'file')}. Use an offset from 1 to ${totalItems}, or omit it.`);
    }
    const head =
      files.length === 0
        ? `No ${unit[1]} for ${JSON.stringify(input.pattern)} in ${where}${input.include ? ` (include: ${input.include})` : ''}.`
        : `Found ${plural(records, unit[0], unit[1])} in ${plural(files.length, 'file')} for ${JSON.stringify(input.pattern)} in ${where}${input.include ? ` (include: ${input.include})` : ''}.`;
    const notes: string[] = [];
    notes.push(...(await ignoreNotes(ctx.ws, result.reports, { one: 'matching file', many: 'matching files', unit }, 'searched')));
    notes.push(`Searched with ${engine.label}.`);
    const page = files.length > 0 ? (output === 'content' ? await contentPage(req, env, inPathOrder(files, req.skip + req.limit)) : filesPage(req, inPathOrder(files, req.skip + req.limit))) : undefined;
    await checkScopes(ctx, scopes);
    const what = output === 'content' ? (req.query.multiline ? 'matches' : 'matching lines') : 'files';
    const order = output === 'content' ? ', grouped by file in path order' : ' in path order';
    const render = (k: number): string => {
      const out = [head];
      const next = req.skip + k < totalItems ? req.skip + k : undefined;
      if (page) {
        out.push(req.skip === 0 && next === undefined ? `Showing all ${what}${order}:` : `Showing ${what} ${formatCount(req.skip + 1)}–${formatCount(req.skip + k)} of ${formatCount(totalItems)}${order}:`);
        out.push(...page.lines(k));
      }
      out.push('');
      if (page && next !== undefined) {
        const why =
          k < page.shown
            ? "the page was cut to fit this call's token budget"
            : k < page.wanted
              ? 'the page reached the 64 KiB output cap'
              : `the limit of ${formatCount(req.limit)} ${output === 'content' ? 'matches' : 'files'} was reached`;
        out.push(`Truncated: ${why}. Continue with: ${continuation(input, next + 1)} (or narrow the search with path or include).`);
      }
      out.push(...notes);
      return out.join('\n');
    };
    return textResult((await fitToBudget(ctx, page?.shown ?? 0, render)).text);
  },
};
