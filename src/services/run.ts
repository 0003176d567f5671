import type * as z from 'zod';
import { CancelledError, ToolError } from '../core/errors';
import { didYouMean, resolveAliases } from './aliases';
import { ApprovalDenied, ChangeRejected, timedApprover } from './approval';
import { callLogEntry } from './callLog';
import { MAX_ERROR_TEXT_CHARS, MAX_INPUT_DEPTH } from '../core/limits';
import { formatInputError, overDeepField } from './input';
import { errorResult, type ToolResult } from './result';
import type { Preparation, ToolContext, ToolSpec } from './types';

export type Parsed<T> = { ok: true; value: T } | { ok: false; result: ToolResult };

/** The fields a schema takes at a path of nested objects and lists (optional wrappers and preprocessing looked through). */
export function fieldsAt(schema: z.ZodType, path: readonly PropertyKey[] = []): string[] {
  const unwrap = (s: z.ZodType | undefined): z.ZodType | undefined => {
    for (;;) {
      const t = s?.def.type;
      if (t === 'optional' || t === 'nullable' || t === 'default') {
        s = (s!.def as unknown as { innerType: z.ZodType }).innerType;
      } else if (t === 'pipe') {
        // z.preprocess(fn, schema) is a pipe whose output side is the schema
        s = (s!.def as unknown as { out: z.ZodType }).out;
      } else {
        return s;
      }
    }
  };
  // by the kind a schema names in its definition: zod's classes are not loaded to ask (see quick.ts)
  const shapeOf = (s: z.ZodType | undefined) => (s?.def.type === 'object' ? (s.def as unknown as { shape: Record<string, z.ZodType> }).shape : undefined);
  let cur = unwrap(schema);
  for (const key of path) {
    if (cur?.def.type === 'array' && typeof key === 'number') {
      cur = unwrap((cur.def as unknown as { element: z.ZodType }).element);
    } else {
      const shape = shapeOf(cur);
      cur = shape ? unwrap(shape[key as string] as z.ZodType | undefined) : undefined;
    }
  }
  const shape = shapeOf(cur);
  return shape ? Object.keys(shape) : [];
}

/**
 * Validates a call's input: aliases become the fields they stand for, then the tool's
 * schema judges; an unknown field is answered with the field it most likely meant.
 */
export function parseInput<S extends ToolSpec>(spec: S, raw: unknown): Parsed<ReturnType<S['schema']['parse']>> {
  const deep = overDeepField(raw, MAX_INPUT_DEPTH);
  if (deep !== undefined) {
    return { ok: false, result: errorResult(`Invalid input for ${spec.name}:\n- \`${deep}\`: nests arrays or objects more than ${MAX_INPUT_DEPTH} levels deep; no field of this tool does\nA valid call looks like: ${spec.example}`) };
  }
  const fields = spec.quick?.fields ?? fieldsAt(spec.schema);
  const norm = resolveAliases(raw ?? {}, spec.aliases, fields);
  if (!norm.ok) {
    return { ok: false, result: errorResult([`Invalid input for ${spec.name}:`, ...norm.problems, `A valid call looks like: ${spec.example}`].join('\n')) };
  }
  // the plain shape of a valid call is taken without building the schema; anything else is the schema's to judge and word
  const quick = spec.quick?.parse(norm.input);
  if (quick !== undefined) {
    return { ok: true, value: quick as ReturnType<S['schema']['parse']> };
  }
  const r = spec.schema.safeParse(norm.input);
  if (r.success) {
    return { ok: true, value: r.data as ReturnType<S['schema']['parse']> };
  }
  const hint = {
    meant: (key: string, path: readonly PropertyKey[]) => didYouMean(key, fieldsAt(spec.schema, path), path.length ? undefined : spec.aliases),
    fields: (path: readonly PropertyKey[]) => fieldsAt(spec.schema, path),
  };
  return { ok: false, result: errorResult(formatInputError(spec.name, r.error, norm.input, spec.example, hint)) };
}

/** A thrown error as the model should read it: never a stack trace. */
export function failureResult(spec: ToolSpec, e: unknown): ToolResult {
  if (e instanceof ToolError) {
    return errorResult(e.message);
  }
  const msg = e instanceof Error ? e.message : String(e);
  return errorResult(`${spec.name} failed unexpectedly: ${msg}. Nothing was changed. Retry once; if it fails again, tell the user.`);
}

export async function prepareTool(spec: ToolSpec, raw: unknown, ctx: ToolContext): Promise<Preparation | undefined> {
  const parsed = parseInput(spec, raw);
  if (!parsed.ok) {
    return undefined;
  }
  return spec.prepare(parsed.value, ctx);
}

/** Validates, runs and logs one call; every failure becomes an error result. */
export async function invokeTool(spec: ToolSpec, raw: unknown, ctx: ToolContext): Promise<ToolResult> {
  const t0 = performance.now();
  const timed = timedApprover(ctx.approver);
  let result: ToolResult;
  // a call the person stopped or whose change they rejected did not fail: the log says so
  let ended: string | undefined;
  const parsed = parseInput(spec, raw);
  if (!parsed.ok) {
    result = parsed.result;
  } else {
    try {
      result = await spec.invoke(parsed.value, { ...ctx, approver: timed.approver });
    } catch (e) {
      if (e instanceof CancelledError) {
        ended = 'cancelled';
      } else if (e instanceof ChangeRejected) {
        ended = rejectedOutcome(e.reason);
      }
      result = e instanceof ApprovalDenied ? e.result : failureResult(spec, e);
      if (!(e instanceof ToolError) && !(e instanceof ApprovalDenied)) {
        ctx.log.error(`${spec.name} threw: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      }
    }
  }
  result = capErrorText(result);
  const outcome = ended ?? (result.needsApproval ? `needs approval: ${firstLine(result)}` : result.isError ? `error: ${firstLine(result)}` : 'ok');
  ctx.log.info(callLogEntry(spec.name, raw, outcome, performance.now() - t0, timed.waitedMs()));
  return result;
}

/** How the log says that the person rejected a change, with their reason. */
export function rejectedOutcome(reason: string | undefined): string {
  return reason ? `rejected by the user: ${reason.split('\n')[0].slice(0, 160)}` : 'rejected by the user (no reason given)';
}

/** An error answer is a few lines to act on: one that grew past MAX_ERROR_TEXT_CHARS (a long path, a long pattern) is cut. */
function capErrorText(r: ToolResult): ToolResult {
  if (!r.isError) {
    return r;
  }
  return {
    ...r,
    parts: r.parts.map((p) => (p.kind === 'text' && p.text.length > MAX_ERROR_TEXT_CHARS ? { ...p, text: `${p.text.slice(0, MAX_ERROR_TEXT_CHARS)}… [error text cut at ${MAX_ERROR_TEXT_CHARS} characters]` } : p)),
  };
}

function firstLine(r: ToolResult): string {
  const p = r.parts.find((x) => x.kind === 'text');
  return p && p.kind === 'text' ? p.text.split('\n')[0].slice(0, 160) : '';
}
