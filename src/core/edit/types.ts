import type { Level } from './levels';

/**
 * The levels of the matching cascade, strictest first, in the order the steps of
 * {@link CASCADE} run them. Each step is tried only when every earlier one found nothing;
 * the first step that finds something decides.
 *
 * - `exact`: old_string is a substring of the file (line endings aside: a LF old_string
 *   matches a CRLF file and the reverse).
 * - `read-prefix`: exact once the `L{n}: ` prefixes copied from fs_read (or fs_grep) output
 *   are removed from every line.
 * - `trimmed-boundary`: whole lines equal once the blank lines around old_string are dropped.
 *   An old_string that ends with a line break matches the file's last line when that line
 *   has none; the file then keeps its ending: a last line without a line break stays without
 *   one (new_string's final line break is dropped there), at this level and every looser one.
 * - `line-trimmed`: whole lines equal apart from trailing whitespace.
 * - `indentation-flexible`: equal apart from indentation, and the indentation of the block is
 *   the file's under one consistent map (a shifted base, tabs for spaces, 2 for 4 columns).
 *   Or, where old_string is in the file once, indentation that differs by different amounts on
 *   different lines (a nested block copied without its indentation, a line that lost four
 *   spaces and the next two): unchanged lines keep the file's indentation, a changed line takes
 *   that of the line it replaces, an added line that of the lines around it, or is refused where
 *   they do not settle it (see `PerLineAnchors` in `project.ts`).
 * - `whitespace-normalized`: as above, and runs of spaces inside lines count as one space.
 * - `unicode-normalized`: as above, and typographic quotes, dashes and spaces count as their
 *   ASCII forms.
 * - `block-anchor`: as above, but the file has more or fewer blank lines inside the block than
 *   old_string; every line with text still matches, in order.
 * - `unicode-normalized` again, inside a single line: a phrase within a long line of prose,
 *   its typography made ASCII on both sides. This runs after `block-anchor`: a block of lines
 *   answers before a phrase inside a line.
 * - `escape-normalized`: old_string was escaped twice (`\n`, `\t`, `\"` as two characters):
 *   unescaped, it matches as a substring or at one of the line levels above.
 * - `context-aware`: old_string leaves lines out with an elision line (`// ... existing code
 *   ...`); the parts around it match, in order, and the left-out lines are kept unchanged.
 *
 * replace_all has no level of its own: every level yields all of its places, and replace_all
 * replaces them all.
 */
export type MatchLevel = Level;

export interface EditRequest {
  oldString: string;
  newString: string;
  /** Replace every place the first matching level finds. @default false */
  replaceAll?: boolean;
}

/** One place to change: content[start, end) becomes `text` (already adapted: indentation, escapes, line endings). UTF-16 offsets. */
export interface Replacement {
  start: number;
  end: number;
  text: string;
  /** 1-based line of `start`. */
  line: number;
  /** 1-based line of the last character replaced (`line` when the range is empty or within one line). */
  endLine: number;
}

export interface FoundEdit {
  ok: true;
  level: MatchLevel;
  /** True only for the `exact` level: the model's text was found as given. */
  exact: boolean;
  replacements: Replacement[];
  /** The places old_string matched (1-based lines, inclusive), in order; a replacement may cover less of a place when some of its lines do not change. */
  places: { startLine: number; endLine: number }[];
  /** Short notes of what tolerance was applied, for the model. */
  adjustments: string[];
  /** Things the model should check that are not a tolerance (text that looks like a placeholder, places left alone). */
  warnings: string[];
}

export interface ClosestRegion {
  startLine: number;
  endLine: number;
  /** First line that differs (1-based, in the file). */
  line: number;
  /** That line as old_string has it. */
  expected: string;
  /** That line as the file has it. */
  actual: string;
  /** `text`: the words differ; `indentation`: only the indentation (or its structure) differs; `whitespace`: only other whitespace. */
  difference: 'text' | 'indentation' | 'whitespace';
  /** How many lines of the region differ (the first is `line`): in their words for `text` (and then in indentation too), in indentation for `indentation`. */
  differing?: number;
  /** When a few lines differ: each of them, in order (`line` and its texts first). */
  lines?: LineDifference[];
  /** When more lines differ than are listed (or a line could not be placed): the region as the file has it now. */
  current?: RegionText;
  /**
   * `indentation` only: new_string's line `newLine` (1-based), an added line, which the lines
   * around it (the file lines `after` and `before`, 1-based, with their indentation in columns)
   * do not place, old_string having been indented off by different amounts.
   */
  uncertain?: { newLine: number; text: string; after?: { line: number; columns: number }; before?: { line: number; columns: number } };
}

/** One line of old_string and the file's line where old_string puts it. */
export interface LineDifference {
  /** 1-based, in the file. */
  line: number;
  expected: string;
  actual: string;
}

/** Lines of the file from `startLine` (1-based), as many as fit the caps; `cut` when the region goes on. */
export interface RegionText {
  startLine: number;
  lines: string[];
  cut: boolean;
}

export interface NotFound {
  ok: false;
  reason: 'not-found';
  closest?: ClosestRegion;
  /** A likely cause seen in old_string itself (a half-copied line-number prefix, …). */
  hint?: string;
}

export interface Ambiguous {
  ok: false;
  reason: 'ambiguous';
  level: MatchLevel;
  /** 1-based first line of each place, in file order (at most the first few hundred). */
  lines: number[];
  /** How many places in all. */
  count: number;
  /** The first few places' first lines, from the line above each: what tells them apart, without another read. */
  previews?: RegionText[];
  /** replace_all only: some places overlap, so they cannot all be replaced. */
  overlapping?: boolean;
  /** old_string's lines all begin with `L{n}: `, and the file has it both as written and, elsewhere, without the prefixes. */
  readings?: { asWritten: number[]; withoutPrefixes: number[] };
  /**
   * old_string is in the file as written only where it cuts `word` (a name or number) in
   * two, at `line`, and a looser reading of it takes in that place (`lines`, at `level`).
   */
  cutReading?: { word: string; line: number };
}

export interface TooBroad {
  ok: false;
  reason: 'too-broad';
  level: MatchLevel;
  lines: number[];
  /** The loosely matched block (1-based lines, inclusive). */
  block: { startLine: number; endLine: number };
}

export interface Invalid {
  ok: false;
  reason: 'invalid';
  message: string;
}

export type FindFailure = NotFound | Ambiguous | TooBroad | Invalid;
export type FindResult = FoundEdit | FindFailure;

export type PlanResult = { ok: true; text: string; results: FoundEdit[] } | { ok: false; index: number; failure: FindFailure };
