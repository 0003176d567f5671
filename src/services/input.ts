import type * as z from 'zod';
import { MAX_INPUT_ISSUES } from '../core/limits';

function describeReceived(v: unknown): string {
  if (v === undefined) {
    return 'nothing';
  }
  if (typeof v === 'string' && v.length > 60) {
    return `${JSON.stringify(v.slice(0, 40))}... (${v.length} characters)`;
  }
  return boundedJson(v, 60);
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const k of path) {
    if (cur === null || typeof cur !== 'object') {
      return undefined;
    }
    cur = (cur as Record<PropertyKey, unknown>)[k];
  }
  return cur;
}

/** How to answer an unknown field: the field it most likely meant, else the fields there are. */
export interface UnknownFieldHint {
  /** The field `key` most likely meant, if any is close. */
  meant(key: string, path: readonly PropertyKey[]): string | undefined;
  /** The fields of the object at `path`. */
  fields(path: readonly PropertyKey[]): readonly string[];
}

function unknownName(k: string): string {
  return k.length > 64 ? `\`${k.slice(0, 40)}...\` (${k.length} characters)` : `\`${k}\``;
}

/**
 * A validation failure in words a model acts on: each bad field, what was wrong, what
 * it got, and a valid example call. Unknown fields with a likely meaning get "did you
 * mean" each; the others share one line that lists the fields there are.
 */
export function formatInputError(tool: string, error: z.ZodError, input: unknown, example: string, unknownField?: UnknownFieldHint): string {
  const lines = [`Invalid input for ${tool}:`];
  for (const issue of error.issues.slice(0, MAX_INPUT_ISSUES)) {
    const field = issue.path.length ? issue.path.join('.') : '(input)';
    if (issue.code === 'unrecognized_keys') {
      const where = issue.path.length ? ` in \`${field}\`` : '';
      const unmatched: string[] = [];
      // a hundred thousand unknown keys are named (and matched to a field) a few at most
      for (const k of issue.keys.slice(0, MAX_INPUT_ISSUES)) {
        const meant = unknownField?.meant(k, issue.path);
        if (meant) {
          lines.push(`- unknown field ${unknownName(k)}${where}: did you mean \`${meant}\`?`);
        } else {
          unmatched.push(k);
        }
      }
      if (unmatched.length) {
        const fields = unknownField?.fields(issue.path) ?? [];
        const list = fields.length ? `: the fields are ${fields.map((f) => `\`${f}\``).join(', ')}` : '';
        lines.push(`- unknown field${unmatched.length > 1 ? 's' : ''} ${unmatched.map(unknownName).join(', ')}${where}${list}`);
      }
      if (issue.keys.length > MAX_INPUT_ISSUES) {
        lines.push(`- and ${issue.keys.length - MAX_INPUT_ISSUES} more unknown fields`);
      }
      continue;
    }
    if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined && issue.path.length) {
      lines.push(`- \`${field}\` is required`);
      continue;
    }
    lines.push(`- \`${field}\`: ${issue.message} (got ${describeReceived(valueAt(input, issue.path))})`);
  }
  if (error.issues.length > MAX_INPUT_ISSUES) {
    lines.push(`- and ${error.issues.length - MAX_INPUT_ISSUES} more problems like these`);
  }
  lines.push(`A valid call looks like: ${example}`);
  return lines.join('\n');
}

/** The first field of `input` nesting arrays or objects deeper than `maxDepth`, if any: checked before validation, iteratively. */
export function overDeepField(input: unknown, maxDepth: number): string | undefined {
  if (input === null || typeof input !== 'object') {
    return undefined;
  }
  for (const [key, value] of Object.entries(input)) {
    const stack: [unknown, number][] = [[value, 1]];
    while (stack.length) {
      const [v, d] = stack.pop()!;
      if (v === null || typeof v !== 'object') {
        continue;
      }
      if (d > maxDepth) {
        return key;
      }
      for (const child of Object.values(v)) {
        stack.push([child, d + 1]);
      }
    }
  }
  return undefined;
}

/**
 * JSON of a value for a log line or a message: at most `maxChars`, whatever the value's
 * size or depth. A string longer than the cut is cut before it is written out (the log
 * line of a 4 MB patch wrote all of it, escapes and all, to keep 200 characters).
 */
export function boundedJson(v: unknown, maxChars: number): string {
  let s: string;
  try {
    s = JSON.stringify(v, (_k, x: unknown) => (typeof x === 'string' && x.length > maxChars + 1 ? x.slice(0, maxChars + 1) : x)) ?? String(v);
  } catch {
    s = '(too deeply nested to show)';
  }
  return s.length > maxChars ? `${s.slice(0, Math.max(0, maxChars - 3))}...` : s;
}

/** Whether a path's last segment is empty, "." or "..": it can name a folder only. */
export function namesFolder(p: string): boolean {
  const last = p.trim().split(/[\\/]/).pop() ?? '';
  return last === '' || last === '.' || last === '..';
}
