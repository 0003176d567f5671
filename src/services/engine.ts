import { pickEngine, type SearchEngine } from '../core/search/engine';
import type { Scope } from '../core/search/scope';
import { gitDirectoriesOf } from './target';
import type { ToolContext } from './types';

/** The search engine for these scopes: ripgrep when they are all on the local disk. */
export function engineFor(ctx: ToolContext, scopes: readonly Scope[]): SearchEngine {
  const onDisk = scopes.every((sc) => ctx.ws.onDisk(sc.rootPath));
  return pickEngine(ctx.ws.bundledRipgrep(), ctx.ws, ctx.ws.processes, gitDirectoriesOf(ctx), ctx.signal, (m) => ctx.log.info(m), onDisk);
}
