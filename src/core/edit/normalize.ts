/**
 * The normalisations the cascade tolerates. None of them touches a letter, a digit or an
 * underscore, and none folds case: what they forgive is formatting (whitespace, typography,
 * escaping, line endings, copied prefixes), never a different word or number.
 */
import { asciiTypography as asciiTypographyWhole, asciiTypographySameLength } from '../text/typography';

/** `s` with typographic quotes, dashes and spaces as ASCII; same length, same offsets (the one-character entries of `core/text/typography.ts`). */
export function asciiTypography(s: string): string {
  return asciiTypographySameLength(s);
}

/** Trimmed, inner runs of spaces and tabs as one space. */
export function collapseSpaces(s: string): string {
  const t = s.trim();
  return /\s\s|[^\S ]/.test(t) ? t.replace(/\s+/g, ' ') : t;
}

/**
 * Spaces next to brackets and separators, where they are layout, not a word boundary:
 * after `(` `[` `{`, before `)` `]` `}` `,` `;`, and between a name and its `(`. A space
 * between two letters, digits or underscores is never one of them, so two words are never
 * joined (`return x` is not `returnx`), nor two operators (`a - -b` is not `a--b`).
 */
const LAYOUT_SPACE = /(?<=[([{]) +| +(?=[)\]},;])|(?<=[\p{L}\p{N}_$]) +(?=\()/gu;
const LAYOUT_SPACE_TEST = /[([{] | [)\]},;(]/;

/** {@link collapseSpaces}'s text without the spaces of {@link LAYOUT_SPACE}: `call( x, y )` reads as `call(x, y)`. */
export function tightSpacing(collapsed: string): string {
  return LAYOUT_SPACE_TEST.test(collapsed) ? collapsed.replace(LAYOUT_SPACE, '') : collapsed;
}

/**
 * The key two lines share when they say the same thing and differ only in formatting:
 * indentation, trailing and inner whitespace, spaces next to brackets and separators,
 * typographic punctuation. The loosest line equivalence of the cascade; places are counted with it.
 */
export function substanceKey(line: string): string {
  return tightSpacing(collapseSpaces(asciiTypographyWhole(line)));
}

export function isBlank(line: string): boolean {
  return line.trim().length === 0;
}

/** Leading spaces and tabs of a line. */
export function leadingWhitespace(line: string): string {
  let i = 0;
  while (i < line.length && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) {
    i++;
  }
  return line.slice(0, i);
}

/**
 * The `L{n}: ` prefix fs_read prints (and fs_grep's `  L{n}: ` / `  L{n}- `): the number
 * and what follows the prefix. An empty line may have lost the space after the colon.
 */
const READ_PREFIX = /^(?: {2})?L(\d+)[:-](?: |$)/;

/**
 * Line-number prefixes of read outputs a model copies into old_string: ours, then other
 * agents' (`12 | ` of Roo Code, `12→` of Claude Code, both with the number right-aligned).
 * Each is removed only when every line carries the same one.
 */
const LINE_PREFIXES: readonly { re: RegExp; shown: string; from: string }[] = [
  { re: READ_PREFIX, shown: '`L{n}: `', from: 'fs_read output' },
  { re: /^ *(\d+) \|(?: |$)/, shown: '`{n} | `', from: 'a read output' },
  { re: /^ *(\d+)\u2192/, shown: '`{n}\u2192`', from: 'a read output' },
];

/** A line as fs_grep prints it: two spaces, then `L{n}: ` or `L{n}- ` (the prefix fs_read never prints so). */
const GREP_PREFIX = /^(?: {2}L\d+[:-]|L\d+-)(?: |$)/m;

/** old_string with its line-number prefixes removed, the first line's number, and how to strip new_string the same way. */
export interface Unprefixed {
  text: string;
  first: number;
  /** The prefix, as the model is told: `` `L{n}: ` ``. */
  shown: string;
  /** Where such prefixes come from: `fs_read output`. */
  from: string;
  /** new_string without the prefixes, on the lines that have one (lines the model added may not). */
  stripNew: (text: string) => string;
}

/**
 * old_string without the line-number prefixes of a read output, when every line has one of
 * the same kind and the numbers count up by one (blank lines around the copy may have none);
 * undefined otherwise (a half-prefixed text is not guessed at).
 */
export function stripReadPrefixes(text: string): Unprefixed | undefined {
  for (const p of LINE_PREFIXES) {
    const r = stripWith(text, p.re);
    if (r) {
      // fs_grep indents its lines by two spaces and marks context lines `L{n}-`
      const from = p.re === READ_PREFIX && GREP_PREFIX.test(text) ? 'fs_grep output' : p.from;
      return { ...r, shown: p.shown, from, stripNew: (t) => stripLoose(t, p.re) };
    }
  }
  return undefined;
}

function stripWith(text: string, re: RegExp): { text: string; first: number } | undefined {
  const lines = text.split('\n');
  let lo = 0;
  let hi = lines.length - 1;
  while (lo <= hi && isBlank(lines[lo])) {
    lo++;
  }
  while (hi >= lo && isBlank(lines[hi])) {
    hi--;
  }
  if (lo > hi) {
    return undefined;
  }
  let first = -1;
  for (let i = lo; i <= hi; i++) {
    const m = re.exec(lines[i]);
    if (!m) {
      return undefined;
    }
    const n = Number(m[1]);
    if (i === lo) {
      first = n;
    } else if (n !== first + i - lo) {
      return undefined;
    }
    lines[i] = lines[i].slice(m[0].length);
  }
  return { text: lines.join('\n'), first };
}

function stripLoose(text: string, re: RegExp): string {
  return text
    .split('\n')
    .map((l) => {
      const m = re.exec(l);
      return m ? l.slice(m[0].length) : l;
    })
    .join('\n');
}

/** new_string without fs_read's `L{n}: ` prefixes, on the lines that have one. */
export function stripReadPrefixesLoose(text: string): string {
  return stripLoose(text, READ_PREFIX);
}

/** Whether old_string looks like it was copied with prefixes, but not consistently. */
export function looksPrefixed(text: string): boolean {
  return READ_PREFIX.test(text);
}

/**
 * Undoes one level of string escaping, as when a model escapes its JSON argument twice:
 * `\n` `\t` `\r` become the characters, `\"` `\'` `` \` `` the quotes, `\$` a dollar (a
 * template literal escaped for a shell or JSON), `\\` one backslash. Any other backslash is
 * kept. With `quotesOnly`, only the quotes, `\$` and `\\`.
 */
export function unescapeOnce(text: string, quotesOnly: boolean): string {
  if (text.indexOf('\\') === -1) {
    return text;
  }
  return text.replace(/\\([\\nrt"'`$])/g, (whole, c: string) => {
    switch (c) {
      case 'n':
        return quotesOnly ? whole : '\n';
      case 't':
        return quotesOnly ? whole : '\t';
      case 'r':
        return quotesOnly ? whole : '\r';
      default:
        return c;
    }
  });
}

/**
 * A line that stands for lines left out: `...`, `…`, `// ... existing code ...`,
 * `# ...`, `/* ... *\/`, `<!-- ... -->`. It must start (after a comment marker) with an
 * ellipsis and say little else, so ordinary code is not mistaken for it.
 */
export function isElision(line: string): boolean {
  const t = line.trim();
  if (t.length === 0 || t.length > 80) {
    return false;
  }
  const inner = t
    .replace(/^(?:\/\/+|#+|--+|;+|\/\*+|<!--|\{\/\*|\*+)\s*/, '')
    .replace(/\s*(?:\*+\/\}?|-->)$/, '')
    .trim();
  if (inner !== t) {
    // Inside a comment: `// ...existing code...`, `# ... rest unchanged`.
    return /^(?:\.\.\.|…)[\p{L}\s,'()-]*(?:\.\.\.|…)?$/u.test(inner);
  }
  // Bare: `...` or `... existing code ...`, never code such as `...props,` (a spread).
  return /^(?:\.\.\.|…)(?:\s[\p{L}\s'()-]*(?:\.\.\.|…)?)?$/u.test(t);
}
