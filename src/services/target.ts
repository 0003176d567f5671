import { ToolError } from '../core/errors';
import { inOrder } from '../core/inOrder';
import { PATH_CHECKS_IN_FLIGHT } from '../core/limits';
import { locate, resolveInputPath, type Located } from '../core/paths';
import type { GitDirectories } from '../core/gitDirectory';
import type { OpenDocument } from '../host/workspace';
import type { ToolContext } from './types';

export interface Target {
  /** As given, made absolute. */
  abs: string;
  /** Symlinks resolved: what policy and the ledger key on. */
  real: string;
  located: Located;
  /** The git directory (a repository's own data, whatever its name) that holds it or is it. */
  gitDir?: string;
}

const finders = new WeakMap<ToolContext, GitDirectories>();

/** The call's finder of git directories: one per call, so each folder is asked about once. */
export function gitDirectoriesOf(ctx: ToolContext): GitDirectories {
  let f = finders.get(ctx);
  if (!f) {
    f = ctx.ws.gitDirectories();
    finders.set(ctx, f);
  }
  return f;
}

/**
 * For the targets of one change together: the files it creates count as present, so
 * files that make a git directory only together (a patch adding `HEAD`, `objects/..` and
 * `refs/..`) are seen as inside one. Sets each target's `gitDir` again.
 */
export async function resolveGitDirectories(ctx: ToolContext, targets: readonly Target[]): Promise<void> {
  const dirs = gitDirectoriesOf(ctx);
  dirs.plan(targets.map((t) => t.real));
  await inOrder(targets, PATH_CHECKS_IN_FLIGHT, async (t) => {
    const gitDir = await dirs.enclosing(t.real);
    if (gitDir !== undefined) {
      t.gitDir = gitDir;
    }
  });
}

export async function resolveTarget(ctx: ToolContext, input: string): Promise<Target> {
  const roots = ctx.ws.roots();
  const abs = resolveInputPath(input, roots);
  const real = await ctx.ws.realpath(abs);
  const gitDir = await gitDirectoriesOf(ctx).enclosing(real);
  return { abs, real, located: locate(real, roots), ...(gitDir !== undefined ? { gitDir } : {}) };
}

/** The editor document for a target, looked up by the path given and by its real path. */
export function openDocumentFor(ctx: ToolContext, t: Target): OpenDocument | undefined {
  return ctx.ws.openDocument(t.abs) ?? (t.real !== t.abs ? ctx.ws.openDocument(t.real) : undefined);
}

/**
 * After a folder was read by its path: the path must still resolve to the folder the
 * decision was made on, or what was read may be another folder's.
 */
export async function checkUnchanged(ctx: ToolContext, real: string, display: string): Promise<void> {
  if ((await ctx.ws.realpath(real)) !== real) {
    throw new ToolError('changed', `${display} changed while it was read (a folder on its path became a link), so nothing is shown. Call the tool again to see it as it is now.`);
  }
}
