import * as nodePath from 'node:path';
import { escapeGlobLiteral } from '../core/ignore/globs';
import { MAX_SUGGESTIONS } from '../core/limits';
import { locate } from '../core/paths';
import { engineFor } from './engine';
import { globSearch } from '../core/search/globSearch';
import { nameSimilarity, rankSimilar } from '../core/suggest';
import { readDecision } from './access';
import { scopesFor } from './scopes';
import type { Target } from './target';
import type { ToolContext } from './types';

/** Files a workspace-wide name search looks at, at most, before ranking. */
const MAX_NAME_MATCHES = 200;

/**
 * Files elsewhere in the workspace with the wanted name, or its stem with another
 * extension (`main.js` finds `src/main.ts`): the mistakes models make most often are
 * a wrong folder or a wrong extension. Found with the glob engine, so ignore rules
 * apply and ripgrep does the walking.
 */
async function workspaceMatches(ctx: ToolContext, want: string): Promise<string[]> {
  if (ctx.ws.roots().length === 0) {
    return [];
  }
  const scopes = await scopesFor(ctx, undefined, true, 'files', 'fs_read', 'folder');
  const engine = engineFor(ctx, scopes);
  const dot = want.lastIndexOf('.');
  const stem = dot > 0 ? want.slice(0, dot) : want;
  const patterns = [`**/${escapeGlobLiteral(want)}`, `**/${escapeGlobLiteral(stem)}.*`];
  const found = new Set<string>();
  for (const pattern of patterns) {
    const r = await globSearch({ pattern, sort: 'path', skip: 0, limit: MAX_NAME_MATCHES }, { engine, scopes, host: ctx.ws, signal: ctx.signal });
    r.lines.forEach((l) => found.add(l));
  }
  return [...found];
}

/** How many trailing path segments two paths share. */
function sharedTail(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) {
    n++;
  }
  return n;
}

/**
 * Up to {@link MAX_SUGGESTIONS} paths the model may have meant: similar names in the
 * same folder first, then files of that name elsewhere in the workspace. The names of a
 * folder the model may not list unasked (outside the workspace, a secret's folder) are
 * an answer about it: none are offered from there, whatever was allowed for `t` itself.
 */
export async function suggestPaths(ctx: ToolContext, t: Target): Promise<string[]> {
  const dir = nodePath.dirname(t.real);
  const want = nodePath.basename(t.real);
  const out: string[] = [];
  const folder: Target = { abs: dir, real: dir, located: locate(dir, ctx.ws.roots()) };
  if (readDecision(ctx, folder, 'fs_list', 'list').kind !== 'allow') {
    return out;
  }
  try {
    const entries = await ctx.ws.readDirectory(dir);
    const names = rankSimilar(
      want,
      entries.map((e) => e.name),
    );
    out.push(...names.map((name) => locate(nodePath.join(dir, name), ctx.ws.roots()).display));
  } catch {
    // the folder is missing too
  }
  if (out.length < MAX_SUGGESTIONS && t.located.root) {
    const guess = t.located.display.split('/');
    const elsewhere = (await workspaceMatches(ctx, want).catch(() => []))
      .filter((p) => !out.includes(p))
      .map((p) => ({ p, tail: sharedTail(guess, p.split('/')), score: nameSimilarity(want, p.slice(p.lastIndexOf('/') + 1)) }))
      // A path that ends with the whole guess is what the model meant, from another folder
      // (`src/v4/core/errors.ts` for `packages/zod/src/v4/core/errors.ts`); then the name, then the folders it shares.
      .sort((a, b) => Number(b.tail === guess.length) - Number(a.tail === guess.length) || b.score - a.score || b.tail - a.tail || (a.p < b.p ? -1 : a.p > b.p ? 1 : 0));
    out.push(...elsewhere.slice(0, MAX_SUGGESTIONS - out.length).map((e) => e.p));
  }
  return out;
}
