import { MAX_CURSOR_INPUT_CHARS, MAX_EDIT_TEXT_CHARS, MAX_EDITS_PER_CALL, MAX_GLOB_INPUT_CHARS, MAX_GREP_CONTEXT_LINES, MAX_IGNORE_INPUT_GLOBS, MAX_LIST_DEPTH_LEVELS, MAX_PATCH_CHARS, MAX_PATH_INPUT_CHARS, MAX_PATTERN_INPUT_CHARS, MAX_SYMBOL_QUERY_CHARS, MAX_VERSION_INPUT_CHARS } from '../core/limits';
import { loneSurrogate } from '../core/text/encoding';
import { namesFolder } from '../services/input';
import type { QuickCheck } from '../services/types';
import { columnInSlice, editShapeProblems, indentationInOutline, indentationOutsideItsMode, symbolWhole } from './inputRules';

/**
 * Each tool's quick check: the plain JSON shape of a valid call (each field of its exact
 * type, within its bounds, no unknown field), taken without building the tool's schema
 * (src/tools/schemas.ts) or loading zod. They take less than the schemas do, never more: a
 * string for a number ("10"), "true" for true, an alias inside an edit, anything unusual
 * goes to the schema, which takes it or words the refusal as always. What they take, they
 * give as the schema would: a copy of the input, its fields in the schema's order (no field
 * here has a default or a transform). test/unit/quick.test.ts holds each one to its schema.
 */

/** Not taken: the schema is to judge. */
const NO: unique symbol = Symbol('not taken');

/** A field's value as the schema gives it, or NO. */
type Field = (v: unknown) => unknown;

const when =
  (ok: (v: unknown) => boolean): Field =>
  (v) =>
    ok(v) ? v : NO;

const content = (max: number): Field => when((v) => typeof v === 'string' && v.length <= max && !loneSurrogate(v));
const text = (max: number): Field => when((v) => typeof v === 'string' && v.length >= 1 && v.length <= max && !loneSurrogate(v));
const changedPath = (max: number): Field => when((v) => typeof v === 'string' && v.length >= 1 && v.length <= max && !loneSurrogate(v) && !namesFolder(v));
const int = (min: number, max = Number.MAX_SAFE_INTEGER): Field => when((v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max);
const bool: Field = when((v) => typeof v === 'boolean');
const oneOf = (...values: string[]): Field => when((v) => typeof v === 'string' && values.includes(v));

/** A list (as JSON gives) of `min` to `max` items, each taken by `item`: its copy. */
function list(item: Field, min: number, max: number): Field {
  return (v) => {
    if (!Array.isArray(v) || Object.getPrototypeOf(v) !== Array.prototype || v.length < min || v.length > max) {
      return NO;
    }
    const out: unknown[] = [];
    for (let i = 0; i < v.length; i++) {
      if (!Object.prototype.hasOwnProperty.call(v, i)) {
        return NO;
      }
      const x = item(v[i]);
      if (x === NO) {
        return NO;
      }
      out.push(x);
    }
    return out;
  };
}

/**
 * A plain object (as JSON gives) of these fields only, the `required` ones among them, that
 * `across` (the schema's checks across fields) takes: its copy.
 */
function object(fields: readonly (readonly [string, Field])[], required: readonly string[] = [], across: (v: Record<string, unknown>) => boolean = () => true): Field {
  const byName = new Map(fields);
  return (v) => {
    if (v === null || typeof v !== 'object' || Object.getPrototypeOf(v) !== Object.prototype || Object.getOwnPropertySymbols(v).length) {
      return NO;
    }
    for (const key of Object.keys(v)) {
      if (!byName.has(key)) {
        return NO;
      }
    }
    // in the schema's order, as the schema gives them (a continuation line shows them so)
    const out: Record<string, unknown> = {};
    for (const [name, field] of fields) {
      if (Object.prototype.hasOwnProperty.call(v, name)) {
        const x = field((v as Record<string, unknown>)[name]);
        if (x === NO) {
          return NO;
        }
        out[name] = x;
      }
    }
    return required.every((k) => Object.prototype.hasOwnProperty.call(out, k)) && across(out) ? out : NO;
  };
}

function quick(fields: readonly (readonly [string, Field])[], required: readonly string[], across?: (v: Record<string, unknown>) => boolean): QuickCheck<unknown> {
  const check = object(fields, required, across);
  return {
    fields: fields.map(([name]) => name),
    parse(input) {
      const out = check(input);
      return out === NO ? undefined : out;
    },
  };
}

export const readQuick: QuickCheck<unknown> = quick(
    [
      ['path', text(MAX_PATH_INPUT_CHARS)],
      ['offset', int(1)],
      ['limit', int(1)],
      ['column', int(1)],
      ['mode', oneOf('slice', 'indentation', 'outline')],
      [
        'indentation',
        object([
          ['anchor_line', int(1)],
          ['max_levels', int(0)],
          ['include_siblings', bool],
          ['include_header', bool],
          ['max_lines', int(1)],
        ]),
      ],
      ['symbol', text(MAX_SYMBOL_QUERY_CHARS)],
    ],
    ['path'],
    (v) => !indentationOutsideItsMode(v) && columnInSlice(v) && !indentationInOutline(v) && symbolWhole(v),
  );

export const listQuick: QuickCheck<unknown> = quick(
    [
      ['path', text(MAX_PATH_INPUT_CHARS)],
      ['depth', int(1, MAX_LIST_DEPTH_LEVELS)],
      ['offset', int(1)],
      ['cursor', text(MAX_CURSOR_INPUT_CHARS)],
      ['limit', int(1)],
      ['include_hidden', bool],
      ['respect_ignore', bool],
      ['ignore', list(when((g) => text(MAX_GLOB_INPUT_CHARS)(g) !== NO && !(g as string).startsWith('!')), 0, MAX_IGNORE_INPUT_GLOBS)],
      ['source', oneOf('filesystem', 'git')],
    ],
    [],
  );

export const globQuick: QuickCheck<unknown> = quick(
    [
      ['pattern', text(MAX_GLOB_INPUT_CHARS)],
      ['path', text(MAX_PATH_INPUT_CHARS)],
      ['limit', int(1)],
      ['offset', int(1)],
      ['cursor', text(MAX_CURSOR_INPUT_CHARS)],
      ['sort', oneOf('path', 'mtime')],
      ['respect_ignore', bool],
    ],
    ['pattern'],
  );

export const grepQuick: QuickCheck<unknown> = quick(
    [
      ['pattern', text(MAX_PATTERN_INPUT_CHARS)],
      ['path', text(MAX_PATH_INPUT_CHARS)],
      ['include', text(MAX_GLOB_INPUT_CHARS)],
      ['fixed_strings', bool],
      ['case_sensitive', bool],
      ['context', int(0, MAX_GREP_CONTEXT_LINES)],
      ['output', oneOf('content', 'files', 'count')],
      ['offset', int(1)],
      ['cursor', text(MAX_CURSOR_INPUT_CHARS)],
      ['limit', int(1)],
      ['multiline', bool],
      ['respect_ignore', bool],
    ],
    ['pattern'],
  );

/** One edit of a list, its fields by their own names only (an alias or a second name is the schema's to map). */
const editItem = object(
  [
    ['old_string', content(MAX_EDIT_TEXT_CHARS)],
    ['new_string', content(MAX_EDIT_TEXT_CHARS)],
    ['replace_all', bool],
  ],
  ['old_string', 'new_string'],
);

export const editQuick: QuickCheck<unknown> = quick(
    [
      ['path', changedPath(MAX_PATH_INPUT_CHARS)],
      ['symbol', text(MAX_SYMBOL_QUERY_CHARS)],
      ['cell', int(1)],
      ['insert_cell', oneOf('code', 'markdown', 'raw')],
      ['delete_cell', bool],
      ['old_string', content(MAX_EDIT_TEXT_CHARS)],
      ['new_string', content(MAX_EDIT_TEXT_CHARS)],
      ['replace_all', bool],
      ['edits', list(editItem, 1, MAX_EDITS_PER_CALL)],
    ],
    ['path'],
    (v) => editShapeProblems(v).length === 0,
  );

export const writeQuick: QuickCheck<unknown> = quick(
    [
      ['path', changedPath(MAX_PATH_INPUT_CHARS)],
      ['content', content(MAX_EDIT_TEXT_CHARS)],
      ['version', text(MAX_VERSION_INPUT_CHARS)],
    ],
    ['path', 'content'],
  );

export const applyPatchQuick: QuickCheck<unknown> = quick([['patch', text(MAX_PATCH_CHARS)]], ['patch']);
