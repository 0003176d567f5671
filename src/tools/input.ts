import * as z from 'zod';

/**
 * An integer that may arrive as a string: some models send `"offset": "10"`. Only
 * whole decimal numbers are taken; "", "ten" and 1.5 are refused with the field named.
 */
export function intField(min: number) {
  return z.preprocess(
    (v) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v),
    z.number({ error: 'expected a whole number' }).int({ error: 'expected a whole number' }).min(min, { error: `must be ${min} or more` }),
  );
}

/** A boolean that may arrive as "true"/"false". */
export function boolField() {
  return z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean({ error: 'expected true or false' }));
}

function describeReceived(v: unknown): string {
  if (v === undefined) {
    return 'nothing';
  }
  const s = JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
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

/**
 * A validation failure in words a model acts on: each bad field, what was wrong, what
 * it got, and a valid example call.
 */
export function formatInputError(tool: string, error: z.ZodError, input: unknown, example: string): string {
  const lines = [`Invalid input for ${tool}:`];
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.join('.') : '(input)';
    if (issue.code === 'unrecognized_keys') {
      lines.push(`- unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `\`${k}\``).join(', ')}`);
      continue;
    }
    if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined && issue.path.length) {
      lines.push(`- \`${field}\` is required`);
      continue;
    }
    lines.push(`- \`${field}\`: ${issue.message} (got ${describeReceived(valueAt(input, issue.path))})`);
  }
  lines.push(`A valid call looks like: ${example}`);
  return lines.join('\n');
}

/**
 * The exact call that continues a paged answer: the tool, the caller's own options
 * (in the given order, so the text is the same for the same input) and the new position.
 */
export function continuationCall<T extends object>(tool: string, input: T, keys: readonly (keyof T & string)[], position: Record<string, number | string>): string {
  const next: Record<string, unknown> = {};
  for (const key of keys) {
    if (input[key] !== undefined) {
      next[key] = input[key];
    }
  }
  return `${tool} ${JSON.stringify({ ...next, ...position })}`;
}
