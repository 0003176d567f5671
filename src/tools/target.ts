import { ToolError } from '../core/errors';
import { locate, resolveInputPath, type Located } from '../core/paths';
import type { OpenDocument } from '../host/workspace';
import type { ToolContext } from './types';

export interface Target {
  /** As given, made absolute. */
  abs: string;
  /** Symlinks resolved: what policy and the ledger key on. */
  real: string;
  located: Located;
}

export async function resolveTarget(ctx: ToolContext, input: string): Promise<Target> {
  const roots = ctx.ws.roots();
  const abs = resolveInputPath(input, roots);
  const real = await ctx.ws.realpath(abs);
  return { abs, real, located: locate(real, roots) };
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
