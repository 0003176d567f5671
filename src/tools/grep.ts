import type * as z from 'zod';
import type { grepSchema } from './schemas';
import { schemas } from './lazySchemas';
import { grepQuick } from './quick';
import { throwIfCancelled } from '../core/cancel';
import { ToolError } from '../core/errors';
import { plural } from '../core/format';
import { callText, continueLine, nextInput, shownInput, shownPhrase, tryLine } from '../core/contract';
import { MAX_GREP_MATCHES } from '../core/limits';
import { callFingerprint, encodeCursor, givenCursor } from '../core/list/cursor';
import { normalizeGlob } from '../core/search/glob';
import { engineFor } from '../services/engine';
import { printedKey } from '../core/search/scope';
import { contentPage, filesPage, grepCounts, ignoreNotes, recordUnit, type GrepOutput, type GrepRequest } from '../core/search/grep';
import { hasUppercaseLiteral, type CaseMode } from '../core/search/regex';
import { fitToBudget } from '../services/budget';
import { newInChat } from '../services/once';
import { boundedJson } from '../services/input';
import { AliasError, negate, wholeNumber, type AliasTable } from '../services/aliases';
import { textResult, type ToolResult } from '../services/result';
import { preparationFor, readDecision, sensitiveFileTest } from '../services/access';
import { checkScopes, scopesFor } from '../services/scopes';
import { resolveTarget } from '../services/target';
import type { ToolContext, QuickCheck, ToolSpec } from '../services/types';

/** Matches (content) or files (files, count) per page by default. */
const DEFAULT_LIMIT = 100;

export type GrepInput = z.output<typeof grepSchema>;

/** ripgrep's file types that are more than their own extension; any other type `x` is `*.x`. */
const FILE_TYPES: Readonly<Record<string, string>> = {
  js: '*.{js,jsx,mjs,cjs,vue}',
  ts: '*.{ts,tsx,mts,cts}',
  py: '*.{py,pyi}',
  rust: '*.rs',
  ruby: '*.{rb,gemspec,rake}',
  cpp: '*.{cpp,cc,cxx,c++,hpp,hh,hxx,h,inl}',
  c: '*.{c,h}',
  csharp: '*.cs',
  kotlin: '*.{kt,kts}',
  md: '*.{md,markdown,mdx}',
  markdown: '*.{md,markdown,mdx}',
  yaml: '*.{yaml,yml}',
  html: '*.{html,htm}',
  sh: '*.{sh,bash,zsh}',
  java: '*.java',
  go: '*.go',
  json: '*.{json,jsonc}',
};

/** Two context sizes as one: the larger; a value that is no whole number is kept, for the schema to refuse. */
function largerContext(a: unknown, b: unknown): unknown {
  const x = wholeNumber(a);
  const y = wholeNumber(b);
  return x === undefined ? a : y === undefined ? b : Math.max(x, y);
}

/** Claude Code's `type` (a ripgrep file type, `ts`) as an include glob. */
function typeGlob(v: unknown): unknown {
  if (typeof v !== 'string' || !/^[A-Za-z0-9+_-]{1,32}$/.test(v)) {
    throw new AliasError(`expected a file type such as "ts" or "py" (got ${boundedJson(v, 60)}); or give an include glob such as "*.ts"`);
  }
  return FILE_TYPES[v.toLowerCase()] ?? `*.${v}`;
}

/**
 * Claude Code: glob, type, output_mode ("files_with_matches"), -i, -A, -B, -C, head_limit; Copilot: query,
 * isRegexp, includePattern, maxResults, includeIgnoredFiles; Gemini CLI: dir_path; Cline:
 * regex, file_pattern. `-n` (line numbers) is dropped: they are always shown.
 */
export const grepAliases: AliasTable = {
  aliases: [
    { names: ['query', 'regex'], field: 'pattern' },
    { names: ['dir_path', 'directory'], field: 'path' },
    { names: ['glob', 'include_pattern', 'file_pattern'], field: 'include' },
    { names: ['type'], field: 'include', value: typeGlob },
    { names: ['output_mode'], field: 'output' },
    { names: ['-i', 'ignore_case', 'case_insensitive'], field: 'case_sensitive', value: negate },
    { names: ['is_regexp'], field: 'fixed_strings', value: negate },
    { names: ['-C', 'context_lines'], field: 'context' },
    // lines after and before a match: context is both, as many as the larger asks
    { names: ['-A', '-B'], field: 'context', combine: largerContext },
    { names: ['head_limit', 'max_results'], field: 'limit' },
    { names: ['respect_git_ignore'], field: 'respect_ignore' },
    { names: ['include_ignored_files'], field: 'respect_ignore', value: negate },
  ],
  values: { output: { files_with_matches: 'files' } },
  ignored: ['-n'],
};

/** The pattern as a result names it: quoted, and cut when long (the Continue line carries it whole). */
function quotedPattern(p: string): string {
  return shownInput(p, true);
}

const CALL_KEYS = ['pattern', 'path', 'include', 'fixed_strings', 'case_sensitive', 'context', 'output', 'limit', 'multiline', 'respect_ignore'] as const;

/**
 * The call that continues a page: the same input with a cursor in place of any offset. The
 * cursor names the file the page ended in and how many of its results it showed, so the
 * next page starts right after them, costs what the first page costs however deep it lies,
 * and neither repeats nor skips a result when files before it changed.
 */
function continuation(input: GrepInput, cursor: string): string {
  return callText('fs_grep', nextInput(input, CALL_KEYS, { cursor }));
}

/** What a cursor is bound to: everything that decides the results and their order but the page's size and context. */
function grepFingerprint(scopes: readonly { base: string }[], req: GrepRequest, respectIgnore: boolean): string {
  return callFingerprint(['fs_grep', scopes.map((s) => s.base), req.query, req.include === undefined ? null : normalizeGlob(req.include), req.output, respectIgnore]);
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

/** A first page that shows under a fifth of more than this many hits: the search is wider than the question. */
const FLOOD_FACTOR = 5;
const FLOOD_MIN_ITEMS = 100;

/** On a flooded first page, one line: the fields that would narrow the search, those not given yet. */
function narrowAdvice(input: GrepInput, output: GrepOutput): string[] {
  const ways: string[] = [];
  if (input.include === undefined) {
    ways.push('"include" (a glob such as "*.ts")');
  }
  ways.push(input.path === undefined ? '"path" (a folder)' : 'a narrower "path"');
  if (output === 'content') {
    ways.push('"output": "count" for the count in each file');
  }
  return [`To narrow the search, give ${ways.slice(0, -1).join(', ')}${ways.length > 1 ? ' or ' : ''}${ways[ways.length - 1]}.`];
}

export const grepTool: ToolSpec<typeof grepSchema> = {
  name: 'fs_grep',
  mutates: false,
  get schema() {
    return schemas().grepSchema;
  },
  quick: grepQuick as QuickCheck<GrepInput>,
  aliases: grepAliases,
  example: '{"pattern": "function \\\\w+Handler", "path": "src", "include": "*.ts"}',

  async prepare(input, ctx) {
    if (input.path === undefined) {
      return { invocationMessage: `Searching for ${quotedPattern(input.pattern)}` };
    }
    const t = await resolveTarget(ctx, input.path);
    return preparationFor(readDecision(ctx, t, 'fs_grep', 'search'), `Searching ${t.located.display} for ${quotedPattern(input.pattern)}`);
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
    if (input.cursor !== undefined && input.offset !== undefined) {
      throw new ToolError('invalid-input', 'Give offset or cursor, not both: cursor continues after the last result a page showed, offset counts results from the start. Repeat the call with only the cursor the previous page gave.');
    }
    const scopes = await scopesFor(ctx, input.path, respectIgnore, 'search', 'fs_grep', 'folder-or-file');
    const fingerprint = grepFingerprint(scopes, req, respectIgnore);
    if (input.cursor !== undefined) {
      const c = givenCursor(input.cursor, fingerprint, 'fs_grep', 'search', 'pattern, path, include, fixed_strings, case_sensitive, multiline, output, respect_ignore or the workspace folders');
      req.after = { key: c.after, within: c.shown };
    }
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
    const env = { engine, scopes, host: ctx.ws, dirty: ctx.ws.dirtyDocuments(), sensitive: sensitiveFileTest(ctx.settings), approved, signal: ctx.signal };
    const result = await grepCounts(req, env);
    const files = result.files;
    const records = result.records;
    const unit = recordUnit(req.query);
    const shown = scopes[0].display(scopes[0].baseRel);
    const where = `${scopes.length > 1 ? 'the workspace folders' : shown === '.' ? 'the workspace' : shown}${input.include ? ` (include: ${input.include})` : ''}`;
    const totalItems = output === 'content' ? records : files;
    // items before the page: counted past the cursor, or given as the offset
    const skip = req.after ? result.before : req.skip;
    if (totalItems > 0 && !req.after && req.skip >= totalItems) {
      throw new ToolError('offset-past-end', `offset=${req.skip + 1} is past the end: there are ${output === 'content' ? plural(records, unit[0], unit[1]) : plural(files, 'file')}. Use an offset from 1 to ${totalItems}, or omit it.`);
    }
    const found = `${plural(records, unit[0], unit[1])} in ${plural(files, 'file')} for ${quotedPattern(input.pattern)} in ${where}`;
    const notes: string[] = [];
    notes.push(...newInChat(ctx, await ignoreNotes(ctx.ws, result.reports, { one: 'matching file', many: 'matching files', unit }, 'searched')));
    // Whether anything matched in files that may hold secrets is never a condition here.
    if (files === 0) {
      notes.push(...smartCaseHint(input));
    }
    // past a cursor, `first` starts at the file it names or after it, and only that file's shown records are skipped
    const pageReq = req.after ? { ...req, skip: result.skipFirst } : req;
    const page = result.first.length > 0 ? (output === 'content' ? await contentPage(pageReq, env, result.first) : filesPage(pageReq, result.first)) : undefined;
    await checkScopes(ctx, scopes);
    if (page && page.shown === 0) {
      // counted on the first read, gone on the second: the files changed during the search
      throw new ToolError('changed', 'The matching files changed while they were searched: the lines counted were gone when read. Repeat the call.');
    }
    const first = skip === 0 && !req.after;
    const render = (k: number): string => {
      const more = skip + k < totalItems;
      const out: string[] = [];
      if (page) {
        const phrase = shownPhrase(skip + 1, skip + k, more);
        out.push(`${found}; ${output === 'content' || phrase === 'all shown' ? '' : 'files '}${phrase}:`, ...page.lines(k));
      } else if (files > 0) {
        const at = scopes.length > 1 ? printedKey(req.after!.key) : scopes[0].display(req.after!.key);
        out.push(`${found}; none ${output === 'content' ? `after the ${plural(req.after!.within, unit[0], unit[1])} shown in` : 'after'} ${at}, where the previous page ended.`);
      } else {
        out.push(`No ${unit[1]} for ${quotedPattern(input.pattern)} in ${where}.`);
      }
      // what ignore rules left out is the same on every page: said on the first
      if (first || files === 0) {
        out.push(...notes);
      }
      if (more && first && totalItems > FLOOD_MIN_ITEMS && totalItems > FLOOD_FACTOR * k) {
        out.push(...narrowAdvice(input, output));
      }
      if (more && page) {
        const end = page.end(k);
        out.push(continueLine(continuation({ ...input, limit: input.limit && req.limit }, encodeCursor({ after: end.key, shown: end.within, call: fingerprint }))));
      }
      return out.join('\n');
    };
    return textResult((await fitToBudget(ctx, page?.shown ?? 0, render)).text);
  },
};
