import type * as z from 'zod';
import type { globSchema } from './schemas';
import { schemas } from './lazySchemas';
import { globQuick } from './quick';
import { throwIfCancelled } from '../core/cancel';
import { ToolError } from '../core/errors';
import { plural } from '../core/format';
import { callText, continueLine, nextInput, shownInput, shownPhrase, tryLine } from '../core/contract';
import { MAX_GLOB_RESULTS } from '../core/limits';
import { engineFor } from '../services/engine';
import { normalizeGlob } from '../core/search/glob';
import { callFingerprint, encodeCursor, givenCursor } from '../core/list/cursor';
import { globSearch } from '../core/search/globSearch';
import { printedKey } from '../core/search/scope';
import { ignoreNotes } from '../core/search/grep';
import { checkScopes, scopesFor } from '../services/scopes';
import { fitToBudget } from '../services/budget';
import { newInChat } from '../services/once';
import { negate, type AliasTable } from '../services/aliases';
import { textResult, type ToolResult } from '../services/result';
import { preparationFor, readDecision } from '../services/access';
import { resolveTarget } from '../services/target';
import type { ToolContext, QuickCheck, ToolSpec } from '../services/types';

/** Paths per page by default. */
const DEFAULT_LIMIT = 100;

export type GlobInput = z.output<typeof globSchema>;

/** Claude Code, OpenCode: pattern and path; Copilot: query, maxResults; Gemini CLI: dir_path; Cursor: glob_pattern, target_directory. */
export const globAliases: AliasTable = {
  aliases: [
    { names: ['glob', 'glob_pattern', 'query'], field: 'pattern' },
    { names: ['dir_path', 'directory', 'target_directory'], field: 'path' },
    { names: ['max_results', 'head_limit'], field: 'limit' },
    { names: ['respect_git_ignore'], field: 'respect_ignore' },
    { names: ['include_ignored_files'], field: 'respect_ignore', value: negate },
  ],
};

/**
 * The call that continues a page: sorted by path, the same input with a cursor (the last
 * path shown) in place of any offset, so the next page starts right after it, costs what
 * the first page costs however deep it lies, and neither repeats nor skips a path when files
 * were added or removed before it; sorted by time, the next offset.
 */
function continuation(input: GlobInput, next: { offset: number } | { cursor: string }): string {
  return callText('fs_glob', nextInput(input, ['pattern', 'path', 'limit', 'sort', 'respect_ignore'], next));
}

/** What a cursor is bound to: the folders searched, the glob and the ignore choice (a cursor only continues its own listing). */
function globFingerprint(scopes: readonly { base: string }[], pattern: string, respectIgnore: boolean): string {
  return callFingerprint(['fs_glob', scopes.map((s) => s.base), normalizeGlob(pattern), respectIgnore]);
}

/**
 * Nothing matched a pattern with a "/": it is anchored at the searched folder, which models
 * often forget (`src/**\/errors.ts` where the file is `packages/x/src/core/errors.ts`). When the
 * same pattern at any depth matches, say so and give that call.
 */
async function anchorHint(ctx: ToolContext, input: GlobInput, on: { engine: ReturnType<typeof engineFor>; scopes: Awaited<ReturnType<typeof scopesFor>>; where: string }): Promise<string[]> {
  const norm = normalizeGlob(input.pattern);
  if (norm.startsWith('**/')) {
    return [];
  }
  const anywhere = `**/${norm}`;
  const r = await globSearch({ pattern: anywhere, sort: 'path', skip: 0, limit: 1 }, { engine: on.engine, scopes: on.scopes, host: ctx.ws, signal: ctx.signal });
  if (r.total === 0) {
    return [];
  }
  const top = norm.slice(0, norm.indexOf('/') + 1);
  return [
    `The pattern is anchored at ${on.where}: it matches only paths that start with ${shownInput(top)}. At any depth, ${shownInput(anywhere)} matches ${plural(r.total, 'file')}.`,
    tryLine(callText('fs_glob', { pattern: anywhere, ...nextInput(input, ['path', 'limit', 'sort', 'respect_ignore'], {}) })),
  ];
}

export const globTool: ToolSpec<typeof globSchema> = {
  name: 'fs_glob',
  mutates: false,
  get schema() {
    return schemas().globSchema;
  },
  quick: globQuick as QuickCheck<GlobInput>,
  aliases: globAliases,
  example: '{"pattern": "**/*.test.ts", "path": "src"}',

  async prepare(input, ctx) {
    if (input.path === undefined) {
      return { invocationMessage: `Finding files matching ${shownInput(input.pattern)}` };
    }
    const t = await resolveTarget(ctx, input.path);
    return preparationFor(readDecision(ctx, t, 'fs_glob', 'search'), `Finding files matching ${shownInput(input.pattern)} in ${t.located.display}`);
  },

  async invoke(input: GlobInput, ctx: ToolContext): Promise<ToolResult> {
    const respectIgnore = input.respect_ignore ?? true;
    const limit = Math.min(input.limit ?? DEFAULT_LIMIT, MAX_GLOB_RESULTS);
    const sort = input.sort ?? 'path';
    if (input.cursor !== undefined && input.offset !== undefined) {
      throw new ToolError('invalid-input', 'Give offset or cursor, not both: cursor continues after the last path a page showed, offset counts paths from the start. Repeat the call with only the cursor the previous page gave.');
    }
    if (input.cursor !== undefined && sort === 'mtime') {
      throw new ToolError('invalid-input', 'cursor continues a listing sorted by path; with sort "mtime", page with offset (the "Continue with" line gives it).');
    }
    const scopes = await scopesFor(ctx, input.path, respectIgnore, 'files', 'fs_glob', 'folder');
    const fingerprint = globFingerprint(scopes, input.pattern, respectIgnore);
    let after: string | undefined;
    if (input.cursor !== undefined) {
      const c = givenCursor(input.cursor, fingerprint, 'fs_glob', 'search', 'pattern, path, respect_ignore or the workspace folders');
      after = c.after;
    }
    const engine = engineFor(ctx, scopes);
    throwIfCancelled(ctx.signal);
    const r = await globSearch({ pattern: input.pattern, sort, skip: (input.offset ?? 1) - 1, limit, after }, { engine, scopes, host: ctx.ws, signal: ctx.signal });
    await checkScopes(ctx, scopes);
    const total = r.total;
    // matches before the page: counted past the cursor's path, or given as the offset
    const skip = after === undefined ? (input.offset ?? 1) - 1 : r.before;
    if (total > 0 && after === undefined && skip >= total) {
      throw new ToolError('offset-past-end', `offset=${skip + 1} is past the end: ${plural(total, 'file')} match. Use an offset from 1 to ${total}, or omit it.`);
    }
    const shown = scopes[0].display(scopes[0].baseRel);
    const where = scopes.length > 1 ? 'the workspace folders' : shown === '.' ? 'the workspace' : shown;
    const norm = shownInput(normalizeGlob(input.pattern));
    const order = sort === 'mtime' ? ', newest first' : '';
    const notes = newInChat(ctx, await ignoreNotes(ctx.ws, r.reports, { one: 'matching file', many: 'matching files' }, 'searched'));
    if (total === 0) {
      notes.push(...(await anchorHint(ctx, input, { engine, scopes, where })));
    }
    const render = (k: number): string => {
      const more = skip + k < total;
      const matches = `${plural(total, 'file')} ${total === 1 ? 'matches' : 'match'} ${norm} in ${where}${order}`;
      const out =
        total === 0
          ? [`No files match ${norm} in ${where}.`]
          : r.lines.length === 0
            ? [`${matches}; none sorts after ${scopes.length > 1 ? printedKey(after ?? '') : scopes[0].display(after ?? '')}, where the previous page ended.`]
            : [`${matches}; ${shownPhrase(skip + 1, skip + k, more)}:`, ...r.lines.slice(0, k)];
      // what ignore rules left out is the same on every page: said on the first
      if ((skip === 0 && after === undefined) || total === 0) {
        out.push(...notes);
      }
      if (more) {
        const page = { ...input, limit: input.limit && limit };
        out.push(continueLine(continuation(page, sort === 'path' ? { cursor: encodeCursor({ after: r.keys[k - 1], shown: skip + k, call: fingerprint }) } : { offset: skip + k + 1 })));
      }
      return out.join('\n');
    };
    return textResult((await fitToBudget(ctx, r.shown, render)).text);
  },
};
