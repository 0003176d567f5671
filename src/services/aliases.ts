import { levenshtein } from '../core/suggest';

/**
 * Field names models are trained on (the file tools of Claude Code, Codex, OpenCode, Copilot,
 * Gemini CLI and Cursor), accepted as synonyms of ours so that a guessed name costs no round
 * trip. Every alias is listed in the README's contract section; an unknown field that is no
 * alias gets "did you mean".
 */
export interface Alias {
  /** The names a model may send, in snake_case; the camelCase form of each is accepted too (`file_path`, `filePath`). */
  names: readonly string[];
  /** The field it stands for. */
  field: string;
  /**
   * Its value as the field's, when not the same (`is_regexp: true` is `fixed_strings: false`).
   * `input` holds the fields known so far (the caller's own, then earlier aliases'). Throws
   * {@link AliasError} when the value cannot be mapped.
   */
  value?: (value: unknown, input: Readonly<Record<string, unknown>>) => unknown;
  /**
   * For an alias that stands for several fields (`view_range` is `offset` and `limit`): their
   * values, instead of `field`'s. Throws {@link AliasError} like `value`.
   */
  expand?: (value: unknown, input: Readonly<Record<string, unknown>>) => Readonly<Record<string, unknown>>;
  /**
   * When the field is already set (by the caller or an earlier alias): the value both make
   * together (`-A` and `-B` are the larger of the two as `context`), instead of a refusal.
   */
  combine?: (previous: unknown, value: unknown) => unknown;
}

export interface AliasTable {
  aliases: readonly Alias[];
  /** Values of a field accepted for another (`output: "files_with_matches"` is `"files"`). */
  values?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Fields with no meaning here, dropped without a word (line numbers, for one, are always shown). */
  ignored?: readonly string[];
  /**
   * Last, on the input with every alias mapped: moves what other tools nest elsewhere to
   * where ours takes it (mutating `input`); returns the problems, if any.
   */
  finish?: (input: Record<string, unknown>) => string[];
}

/** Sent by models trained on Copilot's tools with every call; it changes nothing. */
const IGNORED_EVERYWHERE = ['explanation'];

export class AliasError extends Error {}

/** `filePath` -> `file_path`; other names unchanged. */
export function snakeCase(name: string): string {
  return /^[a-z][a-zA-Z0-9]*$/.test(name) && /[A-Z]/.test(name) ? name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) : name;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A boolean flag that means the opposite of the field it stands for; other values pass on, for the field's own check. */
export function negate(v: unknown): unknown {
  return v === true || v === 'true' ? false : v === false || v === 'false' ? true : v;
}

/** A whole number from a number or a numeric string, else undefined. */
export function wholeNumber(v: unknown): number | undefined {
  const n = typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
}

export type Normalized = { ok: true; input: unknown } | { ok: false; problems: string[] };

/**
 * The input with aliases turned into the fields they stand for (and their camelCase forms
 * into snake_case). Fields and unknown names pass through untouched for the schema to
 * judge. An alias given beside its field with a different value is a problem: which one
 * the model meant cannot be known.
 */
export function resolveAliases(raw: unknown, table: AliasTable | undefined, fields: readonly string[]): Normalized {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: true, input: raw };
  }
  const aliasOf = new Map<string, Alias>();
  for (const a of table?.aliases ?? []) {
    for (const n of a.names) {
      aliasOf.set(n, a);
    }
  }
  const ignored = new Set([...IGNORED_EVERYWHERE, ...(table?.ignored ?? [])]);
  const out: Record<string, unknown> = {};
  const given: { name: string; alias: Alias; value: unknown }[] = [];
  const problems: string[] = [];
  const from = new Map<string, string>();
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const name = fields.includes(key) ? key : snakeCase(key);
    if (fields.includes(name)) {
      // `old_string` and `oldString` both given: the same, or a question only the model can answer
      if (from.has(name) && !sameValue(out[name], value)) {
        problems.push(`- \`${key}\` and \`${from.get(name)}\` both set \`${name}\`, to different values: give only \`${name}\``);
        continue;
      }
      out[name] = value;
      from.set(name, key);
    } else if (aliasOf.has(name)) {
      given.push({ name: key, alias: aliasOf.get(name)!, value });
    } else if (!ignored.has(name)) {
      out[key] = value;
    }
  }
  // In table order, so an alias can build on an earlier one (end_line on start_line).
  given.sort((a, b) => table!.aliases.indexOf(a.alias) - table!.aliases.indexOf(b.alias));
  for (const g of given) {
    let values: Readonly<Record<string, unknown>>;
    try {
      values = g.alias.expand ? g.alias.expand(g.value, out) : { [g.alias.field]: g.alias.value ? g.alias.value(g.value, out) : g.value };
    } catch (e) {
      problems.push(`- \`${g.name}\`: ${e instanceof AliasError ? e.message : String(e)}`);
      continue;
    }
    for (const [field, value] of Object.entries(values)) {
      if (out[field] !== undefined && g.alias.combine) {
        out[field] = g.alias.combine(out[field], value);
      } else if (out[field] !== undefined && !sameValue(out[field], value)) {
        const other = from.get(field) ?? field;
        problems.push(`- \`${g.name}\` and \`${other}\` both set \`${field}\`, to different values: give only \`${field}\``);
        continue;
      } else {
        out[field] = value;
      }
      from.set(field, g.name);
    }
  }
  for (const [field, map] of Object.entries(table?.values ?? {})) {
    const v = out[field];
    if (typeof v === 'string' && Object.prototype.hasOwnProperty.call(map, v)) {
      out[field] = map[v];
    }
  }
  if (!problems.length && table?.finish) {
    problems.push(...table.finish(out));
  }
  return problems.length ? { ok: false, problems } : { ok: true, input: out };
}

function squash(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

/** `end_line`, `endLine` -> `_end_line_`: a name's words, delimited, to find one inside another whole. */
function words(name: string): string {
  return `_${snakeCase(name).toLowerCase().replace(/-/g, '_').replace(/^_+|_+$/g, '')}_`;
}

/**
 * The field an unknown name most likely meant: a near spelling of a field or of an alias
 * (whose field is then suggested), a name that holds a field's name or is held in it
 * (`filepath`), or whole words of an alias (`line` of `end_line`). Undefined when nothing
 * is close. An alias inside a longer name says nothing (`max_replacements` is no kind of
 * `replacements`).
 */
export function didYouMean(name: string, fields: readonly string[], table: AliasTable | undefined): string | undefined {
  // A field name is a word or two: a longer key gets no guess (its edit distance would cost its length).
  if (name.length > 64) {
    return undefined;
  }
  const wanted = squash(name);
  const wantedWords = words(name);
  let best: { field: string; score: number } | undefined;
  const consider = (candidate: string, field: string, isField: boolean) => {
    const c = squash(candidate);
    const d = levenshtein(wanted, c);
    const score = d / Math.max(wanted.length, c.length, 1);
    const near = d <= 2 && score <= 0.5;
    const long = wanted.length >= 4 && c.length >= 4;
    const contains = long && (isField ? c.includes(wanted) || wanted.includes(c) : words(candidate).includes(wantedWords));
    if ((near || contains) && (!best || score < best.score)) {
      best = { field, score };
    }
  };
  for (const f of fields) {
    consider(f, f, true);
  }
  for (const a of table?.aliases ?? []) {
    for (const n of a.names) {
      consider(n, a.field, false);
    }
  }
  return best?.field;
}
