import { decideRead, globSet, type ReadDecision } from '../core/policy';
import { locate, resolveInputPath, type Located } from '../core/paths';
import type { OpenDocument } from '../host/workspace';
import type { Preparation, ToolContext } from './types';

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

export function readDecision(ctx: ToolContext, t: Target, toolName: string, verb: string): ReadDecision {
  return decideRead({
    located: t.located,
    real: t.real,
    openInEditor: openDocumentFor(ctx, t) !== undefined,
    allowOutside: globSet(ctx.settings.allowedOutsidePaths),
    sensitive: globSet(ctx.settings.sensitiveFiles),
    toolName,
    verb,
  });
}

export function preparationFor(decision: ReadDecision, invocationMessage: string): Preparation {
  return decision.kind === 'confirm'
    ? { invocationMessage, confirmation: { title: decision.title, message: decision.message, reason: decision.reason } }
    : { invocationMessage };
}
