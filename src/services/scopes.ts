import { ToolError } from '../core/errors';
import { locate } from '../core/paths';
import { openScope, type Scope } from '../core/search/scope';
import { authorize } from './access';
import { checkUnchanged, resolveTarget } from './target';
import type { ToolContext } from './types';

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
