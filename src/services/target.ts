import { ToolError } from '../core/errors';
import { inOrder } from '../core/inOrder';
import { PATH_CHECKS_IN_FLIGHT } from '../core/limits';
import { locate, resolveInputPath, type Located } from '../core/paths';
import { inputPathProblem, isShortNameOf, looksLikeShortName, nameProblemMessage, windowsNameProblem } from '../core/nameRules';
import { nameKey, otherSpelling, sameName } from '../core/names';
import type { GitDirectories } from '../core/gitDirectory';
import { HOST_PATH, WINDOWS_PATHS } from '../host/volume';
import type { OpenDocument } from '../host/workspace';
import type { ToolContext } from './types';

export interface Target {
  /** As given, made absolute. */
  abs: string;
  /** Symlinks resolved, each name as on disk: what policy and the ledger key on. */
  real: string;
  located: Located;
  /** The git directory (a repository's own data, whatever its name) that holds it or is it. */
  gitDir?: string;
  /**
   * A name Windows does not keep as written (see core/nameRules.ts), in the words of the
   * refusal: `always` where the workspace is on Windows (every tool refuses it), else only
   * a change refuses it, as it would create the name.
   */
  badName?: { message: string; always: boolean };
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
  const trimmed = input.trim();
  const early = inputPathProblem(trimmed, HOST_PATH);
  if (early) {
    // never resolved: a drive's current folder, or a device, is not the disk's to guess at
    const shown = trimmed.replace(/\\/g, '/');
    return { abs: trimmed, real: trimmed, located: { display: shown, root: undefined, relative: undefined }, badName: { message: nameProblemMessage(shown, early, true), always: true } };
  }
  const abs = await spelledPath(ctx, trimmed);
  const real = await ctx.ws.realpath(abs);
  const located = locate(real, roots);
  const gitDir = await gitDirectoriesOf(ctx).enclosing(real);
  const badName = (await nameCheck(ctx, abs, real, located.display)) ?? trailingSpace(input, abs, located.display);
  return { abs, real, located, ...(gitDir !== undefined ? { gitDir } : {}), ...(badName ? { badName } : {}) };
}

/**
 * The absolute path the model's path names. On a POSIX volume a backslash can be part of
 * a name (a hostile repository can hold both `a\\b.txt` and `a/b.txt`): the entry spelled
 * with it is taken when it exists, so that a path a tool printed reaches that entry when
 * passed back, and the backslashes are read as separators only when it does not.
 */
async function spelledPath(ctx: ToolContext, input: string): Promise<string> {
  const roots = ctx.ws.roots();
  if (!WINDOWS_PATHS && input.includes('\\')) {
    const literal = resolveInputPath(input, roots, HOST_PATH, true);
    if ((await ctx.ws.stat(literal)) !== undefined || (await ctx.ws.readLink(literal)) !== undefined) {
      return literal;
    }
  }
  return resolveInputPath(input, roots);
}

/**
 * A path given with spaces after its last name (`c.txt `) names a file whose name ends in
 * a space, which Windows drops: refused as such (elsewhere by a change only), rather than
 * taken for the name without them.
 */
function trailingSpace(input: string, abs: string, display: string): Target['badName'] {
  const spaces = / +$/.exec(input.trimStart());
  if (!spaces) {
    return undefined;
  }
  const p = windowsNameProblem(`${HOST_PATH.basename(abs)}${spaces[0]}`);
  return p ? { message: nameProblemMessage(`${display}${spaces[0]}`, p, WINDOWS_PATHS), always: WINDOWS_PATHS } : undefined;
}

/**
 * The first name of the path Windows would not keep as written (see core/nameRules.ts).
 * Where the workspace is on Windows, any such name, and a short name (`PROGRA~1`) that
 * the disk resolved to another entry; elsewhere only a name that does not exist yet,
 * which a change would create (one that exists is a file of the repository, and reading
 * or changing it is fine).
 */
async function nameCheck(ctx: ToolContext, abs: string, real: string, display: string): Promise<Target['badName']> {
  const root = HOST_PATH.parse(abs).root;
  const names = abs.slice(root.length).split(WINDOWS_PATHS ? /[\\/]/ : '/');
  for (let i = 0; i < names.length; i++) {
    const p = windowsNameProblem(names[i]);
    if (p) {
      if (WINDOWS_PATHS) {
        return { message: nameProblemMessage(display, p, true), always: true };
      }
      const upTo = HOST_PATH.join(root, ...names.slice(0, i + 1));
      if ((await ctx.ws.stat(upTo)) === undefined && (await ctx.ws.readLink(upTo)) === undefined) {
        return { message: nameProblemMessage(display, p, false), always: false };
      }
    }
  }
  if (WINDOWS_PATHS && real !== abs) {
    const cmp = ctx.ws.names(real);
    for (let i = 0; i < names.length; i++) {
      if (!looksLikeShortName(names[i])) {
        continue;
      }
      const upTo = HOST_PATH.join(root, ...names.slice(0, i + 1));
      const onDisk = HOST_PATH.basename(await ctx.ws.realpath(upTo));
      if (isShortNameOf(names[i], onDisk, (a, b) => sameName(cmp, a, b))) {
        return {
          message: nameProblemMessage(display, { rule: 'short-name', part: names[i], why: `is a Windows short name of ${onDisk}: give the name as it is (${onDisk})` }, true),
          always: true,
        };
      }
    }
  }
  return undefined;
}

/**
 * A file's key for what a call or a session remembers of it (its read version, its lock):
 * its real path as its volume compares names, so that two spellings of one file (a new
 * file named in two cases on a volume that folds them) are one file.
 */
export function fileKey(ctx: ToolContext, real: string): string {
  return nameKey(ctx.ws.names(real), real);
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

/**
 * The target as a change that names it would spell it: where the model wrote the final
 * name in another case or normalisation of the entry on disk (on a volume that folds,
 * `Src/app.ts` finds `Src/App.ts`), that spelling in the folder on disk; undefined when
 * the name is written as it is on disk. A rename to it changes only the name's spelling.
 */
export function respelled(ctx: ToolContext, t: Target): Target | undefined {
  const given = HOST_PATH.basename(t.abs);
  const onDisk = HOST_PATH.basename(t.real);
  if (!otherSpelling(ctx.ws.names(t.real), given, onDisk)) {
    return undefined;
  }
  const real = HOST_PATH.join(HOST_PATH.dirname(t.real), given);
  return { ...t, real, located: locate(real, ctx.ws.roots()) };
}
