import * as z from 'zod';
import { loneSurrogate } from '../core/text/encoding';
import { namesFolder } from './input';

// The fields the tools' schemas are made of (src/tools/schemas.ts). Only the schemas use
// zod at run time: a call whose input the quick check takes (src/tools/quick.ts) loads none.

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

/**
 * A string of at most `maxChars` characters: longer input is refused with the field's
 * limit named, never echoed back whole (the schema says "expected {what}" otherwise).
 */
export function textField(maxChars: number, what: string) {
  return z
    .string({ error: `expected ${what} (string)` })
    .min(1, { error: 'must not be empty', ...textOnly })
    .max(maxChars, { error: (issue) => `is ${String((issue.input as string).length)} characters long; at most ${maxChars} are accepted`, ...textOnly })
    .superRefine(refuseLoneSurrogate);
}

/**
 * Text must be well formed: a lone surrogate would be written as U+FFFD (see
 * {@link loneSurrogate}), silently not what was sent, and matches nothing a file holds.
 */
function refuseLoneSurrogate(v: string, ctx: z.RefinementCtx): void {
  const lone = loneSurrogate(v);
  if (lone) {
    ctx.addIssue({ code: 'custom', message: `holds a lone surrogate (${lone.unit} at character ${lone.index}), half of a character that no file can store; send the whole character or leave it out` });
  }
}

/**
 * Length checks apply to text only: a list given for a string is answered as the wrong
 * type alone, not as "100000 characters long". (zod runs checks whose `when` holds; its
 * parameter types do not name `when` for every check.)
 */
const textOnly: object = { when: (p: { value: unknown }): boolean => typeof p.value === 'string' };

/**
 * Text that may be empty (file content, a replacement) of at most `maxChars` characters,
 * refused like `textField` beyond that.
 */
export function contentField(maxChars: number, what: string) {
  return z
    .string({ error: `expected ${what} (string)` })
    .max(maxChars, { error: (issue) => `is ${String((issue.input as string).length)} characters long; at most ${maxChars} are accepted`, ...textOnly })
    .superRefine(refuseLoneSurrogate);
}

/**
 * The path of a file to change: a path that ends as a folder's does (`a.txt/`, `dir/.`,
 * `dir/..`) is refused, as the file system would refuse it; resolved, it would name
 * another file than the one written (`a.txt/` would write `a.txt`).
 */
export function changedFilePathField(maxChars: number) {
  return textField(maxChars, 'a file path').refine((v) => !namesFolder(v), {
    error: 'ends as a folder\'s path does ("/", "/." or "/..") but must name the file to change: give the file\'s path without it',
  });
}
