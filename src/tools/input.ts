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

/** What to say about an unknown field: "did you mean `path`?", or the fields there are. */
export type UnknownFieldHint = (key: string, path: readonly PropertyKey[]) => string;

/**
 * A validation failure in words a model acts on: each bad field, what was wrong, what
 * it got, and a valid example call.
 */
export function formatInputError(tool: string, error: z.ZodError, input: unknown, example: string, unknownField?: UnknownFieldHint): string {
  const lines = [`Invalid input for ${tool}:`];
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.join('.') : '(input)';
    if (issue.code === 'unrecognized_keys') {
      const where = issue.path.length ? ` in \`${field}\`` : '';
      for (const k of issue.keys) {
        lines.push(`- unknown field \`${k}\`${where}${unknownField ? `: ${unknownField(k, issue.path)}` : ''}`);
      }
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
