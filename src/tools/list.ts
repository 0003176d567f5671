import type * as z from 'zod';
import type { listSchema } from './schemas';
import { schemas } from './lazySchemas';
import { listQuick } from './quick';
import { throwIfCancelled } from '../core/cancel';
import { ToolError } from '../core/errors';
import { MAX_LIST_DEPTH_LEVELS, MAX_LIST_ENTRIES, MAX_LIST_OUTPUT_BYTES } from '../core/limits';
import { callFingerprint, encodeCursor, givenCursor } from '../core/list/cursor';
import { entryLine, renderListing } from '../core/list/render';
import { findRepository, type Repository } from '../core/list/gitIndex';
import { fileSystemSource, gitSource, trackedUnder } from '../core/list/sources';
import { locate, printedPath } from '../core/paths';
import { outsideQuestion } from '../core/policy';
import { GIT_INDEX_OUTSIDE } from '../core/questions';
import { ApprovalDenied } from '../services/approval';
import { listPage, type TrackedPaths } from '../core/list/walk';
import { openScope } from '../core/search/scope';
import { fitToBudget } from '../services/budget';
import { boundedJson } from '../services/input';
import { AliasError, type AliasTable } from '../services/aliases';
import { callText, nextInput } from '../core/contract';
import { textResult, type ToolResult } from '../services/result';
import { authorize, preparationFor, readDecision } from '../services/access';
import { checkUnchanged, resolveTarget } from '../services/target';
import type { ToolContext, QuickCheck, ToolSpec } from '../services/types';

/** Default levels listed. */
const DEFAULT_DEPTH = 2;
/** Default entries per page. */
const DEFAULT_LIMIT = 100;

export type ListInput = z.output<typeof listSchema>;

function recursiveDepth(v: unknown): number {
  if (v === true || v === 'true' || v === false || v === 'false') {
    return v === true || v === 'true' ? MAX_LIST_DEPTH_LEVELS : 1;
  }
  throw new AliasError(`expected true or false (got ${boundedJson(v, 60)})`);
}

/** Codex, Gemini CLI: dir_path; Cursor: relative_workspace_path; Cline: recursive (the deepest listing, or one level). */
export const listAliases: AliasTable = {
  aliases: [
    { names: ['dir_path', 'directory', 'relative_workspace_path'], field: 'path' },
    { names: ['max_depth'], field: 'depth' },
    { names: ['respect_git_ignore'], field: 'respect_ignore' },
    // a depth given beside it wins
    { names: ['recursive'], field: 'depth', value: recursiveDepth, combine: (depth) => depth },
  ],
};

/**
 * The call that continues a listing: the same input, with a cursor in place of any offset.
 * A cursor names the last entry shown, so the next page starts right after it even when
 * the tree changed in between, and the walk skips what lies before it; an offset would be
 * counted again from the start.
 */
function continuation(input: ListInput, cursor: string): string {
  return callText('fs_list', nextInput(input, ['path', 'depth', 'limit', 'include_hidden', 'respect_ignore', 'ignore', 'source'], { cursor }));
}

/**
 * The repository of a listed folder. A `.git` file (linked work tree, submodule) or a
 * `.git` link may point anywhere, and what its index names is shown as this folder's files: when it
 * points outside the workspace, the person is asked first, as for any outside read.
 */
async function repositoryOf(ctx: ToolContext, folder: string): Promise<Repository | undefined> {
  const repo = await findRepository(ctx.ws, folder);
  if (repo?.linked && !locate(repo.gitDir, ctx.ws.roots()).root) {
    const q = outsideQuestion('fs_list', 'read', repo.gitDir, GIT_INDEX_OUTSIDE);
    const answer = await ctx.approver.confirm({ reasons: q.reasons, title: q.title, message: q.message }, ctx.signal);
    if (!answer.allowed) {
      throw new ApprovalDenied(answer.result);
    }
  }
  return repo;
}

/**
 * The files git tracks under a listed folder, which an ignore file does not leave out: none
 * when the repository's git folder is outside the workspace (reading it would ask the
 * person, and a listing from disk does without).
 */
async function trackedFiles(ctx: ToolContext, folder: string): Promise<TrackedPaths | undefined> {
  const repo = await findRepository(ctx.ws, folder);
  return repo && (!repo.linked || locate(repo.gitDir, ctx.ws.roots()).root) ? trackedUnder(ctx.ws, repo, folder) : undefined;
}

export const listTool: ToolSpec<typeof listSchema> = {
  name: 'fs_list',
  mutates: false,
  get schema() {
    return schemas().listSchema;
  },
  quick: listQuick as QuickCheck<ListInput>,
  aliases: listAliases,
  example: '{"path": "src", "depth": 2, "limit": 100}',

  async prepare(input, ctx) {
    const t = await resolveTarget(ctx, input.path ?? (ctx.ws.roots()[0]?.path ?? '.'));
    return preparationFor(readDecision(ctx, t, 'fs_list', 'list'), `Listing ${t.located.display}`);
  },

  async invoke(input: ListInput, ctx: ToolContext): Promise<ToolResult> {
    if (input.offset !== undefined && input.cursor !== undefined) {
      throw new ToolError('invalid-input', 'Give offset or cursor, not both: cursor continues after the last entry a page showed, offset counts entries from the start. Repeat the call with only the cursor the previous page gave.');
    }
    const roots = ctx.ws.roots();
    if (!input.path && roots.length === 0) {
      throw new ToolError('invalid-input', 'No workspace folder is open, so there is no default folder to list. Give an absolute path.');
    }
    const t = await resolveTarget(ctx, input.path ?? roots[0].path);
    await authorize(ctx, t, 'fs_list', 'list');
    const depth = input.depth ?? DEFAULT_DEPTH;
    const limit = Math.min(input.limit ?? DEFAULT_LIMIT, MAX_LIST_ENTRIES);
    const includeHidden = input.include_hidden ?? true;
    const respectIgnore = input.respect_ignore ?? true;
    const source = input.source ?? 'filesystem';
    const scope = await openScope(ctx.ws, t, {
      purpose: 'files',
      respectIgnore,
      settingGlobs: ctx.settings.ignoreGlobs,
      callGlobs: input.ignore ?? [],
      accept: 'folder',
      toolName: 'fs_list',
      signal: ctx.signal,
    });
    const fingerprint = callFingerprint([t.real, depth, includeHidden, respectIgnore, input.ignore ?? [], source]);
    let after: string | undefined;
    let before = (input.offset ?? 1) - 1;
    if (input.cursor !== undefined) {
      const c = givenCursor(input.cursor, fingerprint, 'fs_list', 'listing', 'path, depth, include_hidden, respect_ignore, ignore or source');
      after = c.after;
      before = c.shown;
    }
    throwIfCancelled(ctx.signal);
    const src =
      source === 'git'
        ? await gitSource(ctx.ws, ctx.ws.processes, t.real, { repo: await repositoryOf(ctx, t.real), trusted: ctx.ws.isTrusted(), signal: ctx.signal })
        : fileSystemSource(ctx.ws, t.real, scope.policy, () => trackedFiles(ctx, t.real));
    const matcher = scope.policy.matcher([], [], { ignoreFiles: source !== 'git' });
    const page = await listPage(src, matcher, scope.baseRel, {
      depth,
      limit,
      skip: after === undefined ? before : 0,
      after,
      includeHidden,
      maxBytes: MAX_LIST_OUTPUT_BYTES,
      lineBytes: (e) => Buffer.byteLength(entryLine(e), 'utf8') + 1,
      signal: ctx.signal,
    });
    await checkUnchanged(ctx, t.real, t.located.display);
    if (page.entries.length === 0 && after === undefined && before > 0) {
      const n = page.total ?? 0;
      throw new ToolError('offset-past-end', `offset=${before + 1} is past the end of the listing of ${t.located.display}: it has ${n} entries at depth ${depth}. Use an offset from 1 to ${Math.max(n, 1)}, or omit it.`);
    }
    const render = (k: number): string => {
      const shown = Math.min(k, page.entries.length);
      const more = page.more || shown < page.entries.length;
      const last = page.entries[shown - 1];
      return renderListing({
        displayPath: t.located.display,
        absolutePath: printedPath(t.real),
        page,
        shown,
        before,
        total: more ? undefined : after === undefined ? page.total : before + (page.total ?? 0),
        continueCall: more && last ? continuation({ ...input, limit: input.limit && limit }, encodeCursor({ after: last.rel, shown: before + shown, call: fingerprint })) : undefined,
        respectIgnore,
        callGlobs: (input.ignore ?? []).length > 0,
      });
    };
    return textResult((await fitToBudget(ctx, page.entries.length, render)).text);
  },
};
