import { expandBraces } from './braces';
import { charAt, charLen, parseSet } from './charSet';
import { foldCase } from '../names';

/**
 * Glob matching in linear-bounded time. Patterns reach these matchers from the model
 * (`fs_glob`, `include`, `ignore`), from the workspace (`.gitignore` lines) and from
 * settings, and the paths they are tested on come from the workspace; a regex
 * translation backtracks (`*a*a*a*a*c` against a long name, `a/**\/a/**\/c` against a
 * deep path) for minutes. Here a pattern is a list of segments, a segment a list of
 * tokens, and both levels are matched by the wildcard algorithm that remembers only the
 * last star: at most (path length) x (pattern length) steps, whatever the input.
 *
 * Grammar (one path segment; segments are separated by "/"):
 *
 * ```
 * segment  := "**"                      (a whole segment: any number of segments)
 *           | token*
 * token    := "*"                       (any run of characters, "/" excepted; "**" too)
 *           | "?"                       (one character)
 *           | "[" ["!" | "^"] member+ "]" (one character of the set, never "/")
 *           | "\" char                  (that character)
 *           | char
 * member   := char ["-" char] | "[:" name ":]" | "\" char
 * ```
 *
 * Braces are expanded before (see {@link expandBraces}); parentheses, "|", "+" and "@"
 * are plain characters, as in ripgrep's globs.
 */

type Token = { kind: 'text'; text: string } | { kind: 'one' } | { kind: 'set'; test: (c: string) => boolean } | { kind: 'star' };

/** The tokens of one segment; undefined when an unclosed "[" makes it match nothing (`strictSets`). */
function tokenize(seg: string, nocase: boolean, strictSets: boolean): Token[] | undefined {
  const out: Token[] = [];
  const text = (s: string) => {
    const last = out[out.length - 1];
    const t = nocase ? foldCase(s) : s;
    if (last && last.kind === 'text') {
      last.text += t;
    } else {
      out.push({ kind: 'text', text: t });
    }
  };
  for (let i = 0; i < seg.length; ) {
    const c = seg[i];
    if (c === '*') {
      if (out[out.length - 1]?.kind !== 'star') {
        out.push({ kind: 'star' });
      }
      i++;
    } else if (c === '?') {
      out.push({ kind: 'one' });
      i++;
    } else if (c === '[') {
      const set = parseSet(seg, i, nocase);
      if (!set) {
        if (strictSets) {
          return undefined;
        }
        text('[');
        i++;
      } else {
        out.push({ kind: 'set', test: set.test });
        i = set.end + 1;
      }
    } else if (c === '\\' && i + 1 < seg.length) {
      const ch = charAt(seg, i + 1);
      text(ch);
      i += 1 + ch.length;
    } else {
      const ch = charAt(seg, i);
      text(ch);
      i += ch.length;
    }
  }
  return out;
}

/** Matches one token that is not a star at `i`; the units it took, or -1. */
function step(t: Token, s: string, i: number): number {
  if (i >= s.length) {
    return -1;
  }
  if (t.kind === 'text') {
    return s.startsWith(t.text, i) ? t.text.length : -1;
  }
  const n = charLen(s, i);
  if (t.kind === 'one') {
    return n;
  }
  return t.kind === 'set' && t.test(s.slice(i, i + n)) ? n : -1;
}

/**
 * The wildcard algorithm over any alphabet: `at(tok, pos)` consumes a unit of input for a
 * non-star token (returning how many positions it took, or -1); a star can take any
 * number. On a mismatch only the last star takes one position more; earlier stars never
 * need to, since the tokens after a star match at the leftmost place they fit.
 */
function wildcard<T extends { kind: string }>(tokens: readonly T[], length: number, at: (t: T, pos: number) => number, advance: (pos: number) => number): boolean {
  let ti = 0;
  let pos = 0;
  let starTi = -1;
  let starPos = 0;
  while (pos < length) {
    if (ti < tokens.length && tokens[ti].kind !== 'star') {
      const n = at(tokens[ti], pos);
      if (n >= 0) {
        ti++;
        pos += n;
        continue;
      }
    } else if (ti < tokens.length) {
      starTi = ti++;
      starPos = pos;
      continue;
    }
    if (starTi < 0) {
      return false;
    }
    ti = starTi + 1;
    starPos = advance(starPos);
    pos = starPos;
  }
  while (ti < tokens.length && tokens[ti].kind === 'star') {
    ti++;
  }
  return ti === tokens.length;
}

type SegmentTest = (s: string) => boolean;

/** A UTF-16 surrogate: where a name holds one, its characters are read from the start only. */
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * A star, then tokens without one (`*.[jt]s`, `*.ts?`), as a test of the name's end: each
 * token from the last, a text by its length and a `?` or set by one character, and the star
 * takes what is left before them; with one star, only the end can hold the rest. A name
 * with a surrogate is left to the walk, which reads characters from the start.
 */
function starThenFixed(rest: readonly Token[], walk: SegmentTest): SegmentTest {
  return (s) => {
    if (SURROGATE.test(s)) {
      return walk(s);
    }
    let pos = s.length;
    for (let k = rest.length - 1; k >= 0; k--) {
      const t = rest[k];
      if (t.kind === 'text') {
        pos -= t.text.length;
        if (pos < 0 || !s.startsWith(t.text, pos)) {
          return false;
        }
      } else if (--pos < 0 || (t.kind === 'set' && !t.test(s[pos]))) {
        return false;
      }
    }
    return true;
  };
}

/**
 * One segment's tokens as a test, with the common shapes (`name`, `*.ts`, `pre*`, `*mid*`,
 * `*.[jt]s`) as plain string checks; `general`: the walk alone, which the tests hold the
 * shapes to.
 */
function segmentTest(tokens: Token[], general = false): SegmentTest {
  // The shape is computed once: an ignore file of 10,000 rules compiles each of them here.
  const shape = tokens.map((t) => (t.kind === 'star' ? '*' : t.kind === 'text' ? 't' : '?')).join('');
  const only = (kinds: string) => shape === kinds;
  if (only('*')) {
    // a star alone is a name: an empty segment (of "a/") is none
    return (s) => s.length > 0;
  }
  const walk: SegmentTest = (s) => wildcard(tokens, s.length, (t, i) => step(t, s, i), (i) => i + charLen(s, i));
  if (general) {
    return walk;
  }
  const txt = (i: number) => (tokens[i] as { text: string }).text;
  if (tokens.length === 0) {
    return (s) => s === '';
  }
  if (only('t')) {
    const t = txt(0);
    return (s) => s === t;
  }
  if (only('*t')) {
    const t = txt(1);
    return (s) => s.endsWith(t);
  }
  if (only('t*')) {
    const t = txt(0);
    return (s) => s.startsWith(t);
  }
  if (only('*t*')) {
    const t = txt(1);
    return (s) => s.includes(t);
  }
  if (tokens.every((t) => t.kind !== 'one' && t.kind !== 'set')) {
    return starsAndText(tokens as { kind: 'text' | 'star'; text?: string }[]);
  }
  if (shape[0] === '*' && !shape.includes('*', 1)) {
    return starThenFixed(tokens.slice(1), walk);
  }
  // What any match needs, checked first at native speed: the texts, in order, and a
  // character for each other token. Most names fail here, before the general walk.
  const texts = tokens.flatMap((t) => (t.kind === 'text' ? [t.text] : []));
  const least = tokens.reduce((n, t) => n + (t.kind === 'text' ? t.text.length : t.kind === 'star' ? 0 : 1), 0);
  const longest = texts.reduce((a, b) => (b.length > a.length ? b : a), '');
  const inOrder = (s: string) => {
    if (!s.includes(longest)) {
      return false;
    }
    let pos = 0;
    for (const m of texts) {
      const i = s.indexOf(m, pos);
      if (i < 0) {
        return false;
      }
      pos = i + m.length;
    }
    return true;
  };
  return (s) => s.length >= least && inOrder(s) && walk(s);
}

/**
 * A segment of stars and text (`*a*b*c`, `pre*mid*.ts`): a leading text must start the
 * name, a trailing one end it, and the texts between are found in order, each at the
 * first place it fits. For these patterns that greedy search is exact, and it costs one
 * native search per text, where the general walk costs name length times pattern length
 * (which a repository's ignore file of 10,000 such lines would spend on every path).
 */
function starsAndText(tokens: readonly { kind: 'text' | 'star'; text?: string }[]): SegmentTest {
  const head = tokens[0].kind === 'text' ? tokens[0].text! : '';
  const tail = tokens.length > 1 && tokens[tokens.length - 1].kind === 'text' ? tokens[tokens.length - 1].text! : '';
  const middle = tokens.slice(head ? 1 : 0, tail ? -1 : undefined).flatMap((t) => (t.kind === 'text' ? [t.text!] : []));
  return (s) => {
    if (!s.startsWith(head)) {
      return false;
    }
    const end = s.length - tail.length;
    if (end < head.length || !s.endsWith(tail)) {
      return false;
    }
    let pos = head.length;
    for (const m of middle) {
      const i = s.indexOf(m, pos);
      if (i < 0 || i + m.length > end) {
        return false;
      }
      pos = i + m.length;
    }
    return true;
  };
}

/** A pattern segment: any number of path segments (`**`), or a test of one. */
export type Seg = { kind: 'star' } | { kind: 'seg'; test: SegmentTest };

export const GLOBSTAR: Seg = { kind: 'star' };
const ANY_SEGMENT: Seg = { kind: 'seg', test: (s) => s.length > 0 };

/** Splits at "/" that are neither escaped nor inside a bracket expression (git reads `[a/b]` as one set). */
function splitSegments(p: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < p.length; i++) {
    const set = p[i] === '[' ? parseSet(p, i, false) : undefined;
    if (set) {
      cur += p.slice(i, set.end + 1);
      i = set.end;
    } else if (p[i] === '\\' && i + 1 < p.length) {
      cur += p.slice(i, i + 2);
      i++;
    } else if (p[i] === '/') {
      out.push(cur);
      cur = '';
    } else {
      cur += p[i];
    }
  }
  out.push(cur);
  return out;
}

/**
 * A path being matched: whole, and split into segments only when a pattern needs more
 * than its last one (`**\/*.ts`, `*.log` and the like test the name alone).
 */
export class PathSubject {
  private parts: string[] | undefined;
  private last: string | undefined;

  constructor(readonly whole: string) {}

  get segments(): string[] {
    return (this.parts ??= this.whole.split('/'));
  }

  get name(): string {
    return (this.last ??= this.whole.slice(this.whole.lastIndexOf('/') + 1));
  }
}

export type PathTest = (s: PathSubject) => boolean;

/**
 * Path segments against pattern segments. After one leading `**`, plain segments only
 * check the path's tail (the last segment alone for one), without the general walk.
 */
export function pathTest(segs: Seg[]): PathTest {
  const tail = segs.slice(1);
  if (segs[0]?.kind === 'star' && tail.every((x) => x.kind === 'seg')) {
    const tests = tail.map((x) => (x as { test: SegmentTest }).test);
    if (tests.length === 1) {
      const only = tests[0];
      return (s) => only(s.name);
    }
    return (s) => {
      const parts = s.segments;
      const off = parts.length - tests.length;
      if (off < 0) {
        return false;
      }
      for (let k = tests.length - 1; k >= 0; k--) {
        if (!tests[k](parts[off + k])) {
          return false;
        }
      }
      return true;
    };
  }
  return (s) => {
    const parts = s.segments;
    return wildcard(segs, parts.length, (x, i) => ((x as { test: SegmentTest }).test(parts[i]) ? 1 : -1), (i) => i + 1);
  };
}

/** A trailing `**` after other segments matches what is inside that folder: at least one segment more. */
export function insideFolder(segs: Seg[]): Seg[] {
  if (segs.length > 1 && segs[segs.length - 1] === GLOBSTAR) {
    return [...segs.slice(0, -1), ANY_SEGMENT, GLOBSTAR];
  }
  return segs;
}

export function compileSegments(pattern: string, nocase: boolean, strictSets: boolean, general = false): Seg[] | undefined {
  const segs: Seg[] = [];
  for (const raw of splitSegments(pattern)) {
    if (/^\*\*+$/.test(raw)) {
      if (segs[segs.length - 1] !== GLOBSTAR) {
        segs.push(GLOBSTAR);
      }
      continue;
    }
    const tokens = tokenize(raw, nocase, strictSets);
    if (!tokens) {
      return undefined;
    }
    segs.push({ kind: 'seg', test: segmentTest(tokens, general) });
  }
  return segs;
}

export interface GlobOptions {
  /**
   * Match letters regardless of case.
   * @default false
   */
  nocase?: boolean;
}

/** Plain ASCII name characters: no wildcard, set, escape or separator; one lower case for all. */
const PLAIN_NAME = /^[A-Za-z0-9._~@#%+=,;-]+$/;

/** A plain glob's parts (see {@link plainAlternative}), or undefined for any other glob. */
function plainShape(alt: string, nocase: boolean): { names: string[]; inside: boolean; lastShape: 'ends' | 'starts' | 'name'; lastText: string } | undefined {
  if (!alt.startsWith('**/')) {
    return undefined;
  }
  const segs = (nocase ? foldCase(alt) : alt).slice(3).split('/');
  const inside = segs.length > 1 && segs[segs.length - 1] === '**';
  const names = inside ? segs.slice(0, -1) : segs;
  const last = names[names.length - 1];
  const lastShape = inside ? 'name' : last.startsWith('*') ? 'ends' : last.endsWith('*') ? 'starts' : 'name';
  const lastText = lastShape === 'ends' ? last.slice(1) : lastShape === 'starts' ? last.slice(0, -1) : last;
  if (!names.slice(0, -1).every((n) => PLAIN_NAME.test(n)) || !PLAIN_NAME.test(lastText)) {
    return undefined;
  }
  return { names, inside, lastShape, lastText };
}

/**
 * A glob on the last segment alone (`**\/*.ts`, `**\/README*`, `**\/Makefile`, with brace
 * alternatives of such) as a test of the whole path, with no split and no copy: the test a
 * broad search makes of each of a million paths. Undefined for any other glob.
 */
function nameOnlyGlob(glob: string, nocase: boolean): ((path: string) => boolean) | undefined {
  const negated = glob.startsWith('!');
  const tests: ((p: string) => boolean)[] = [];
  for (const alt of expandBraces(negated ? glob.slice(1) : glob)) {
    const shape = plainShape(alt, nocase);
    if (!shape) {
      // `**/` then one segment with wildcards or sets (`**/*.[jt]s`): that segment's test of the name
      const segs = splitSegments(alt);
      const tokens = segs.length === 2 && /^\*\*+$/.test(segs[0]) && segs[1] !== '' && !/^\*\*+$/.test(segs[1]) ? tokenize(segs[1], nocase, false) : undefined;
      if (!tokens) {
        return undefined;
      }
      const name = segmentTest(tokens);
      tests.push((p) => name(p.slice(p.lastIndexOf('/') + 1)));
      continue;
    }
    if (shape.inside || shape.names.length !== 1) {
      return undefined;
    }
    const t = shape.lastText;
    // the text holds no "/": at the path's end it lies within the last segment
    tests.push(
      shape.lastShape === 'ends'
        ? (p) => p.endsWith(t)
        : shape.lastShape === 'starts'
          ? (p) => p.startsWith(t, p.lastIndexOf('/') + 1)
          : (p) => p.endsWith(t) && (p.length === t.length || p.charCodeAt(p.length - t.length - 1) === 47),
    );
  }
  const any = tests.length === 1 ? tests[0] : (p: string) => tests.some((t) => t(p));
  return nocase ? (p) => any(foldCase(p)) !== negated : (p) => any(p) !== negated;
}

/**
 * The shapes most globs of the settings have, as the tests the general compiler makes of
 * them, without its parsing (a call compiles some hundred such globs, for secrets and
 * protected files, before its first path): `**\/` then plain names (`**\/.config/hub`),
 * the last of them with a leading or trailing `*` (`**\/*.pem`, `**\/.env.*`), or a
 * trailing `/**` (`**\/.ssh/**`: something inside that folder). Undefined for any other
 * glob. A unit test holds these to the general way ({@link compileGlobGeneral}).
 */
function plainAlternative(alt: string, nocase: boolean): PathTest | undefined {
  const shape = plainShape(alt, nocase);
  if (!shape) {
    return undefined;
  }
  const { names, inside, lastShape, lastText } = shape;
  const lastTest: SegmentTest = lastShape === 'ends' ? (x) => x.endsWith(lastText) : lastShape === 'starts' ? (x) => x.startsWith(lastText) : (x) => x === lastText;
  const before = names.slice(0, -1);
  if (inside) {
    // the folder's names somewhere in the path, then at least one more (non-empty) segment
    return (s) => {
      const parts = s.segments;
      for (let k = 0; k + names.length < parts.length; k++) {
        if (parts[k + names.length] !== '' && names.every((n, i) => parts[k + i] === n)) {
          return true;
        }
      }
      return false;
    };
  }
  if (!before.length) {
    return (s) => lastTest(s.name);
  }
  return (s) => {
    const parts = s.segments;
    const off = parts.length - names.length;
    return off >= 0 && lastTest(parts[parts.length - 1]) && before.every((n, i) => parts[off + i] === n);
  };
}

/**
 * One brace alternative. The longest segment without wildcards must appear in the path
 * for it to match at all: a substring check spares most paths the segment walk.
 */
function compileAlternative(alt: string, nocase: boolean, general = false): PathTest {
  const plain = general ? undefined : plainAlternative(alt, nocase);
  if (plain) {
    return plain;
  }
  const test = pathTest(insideFolder(compileSegments(alt, nocase, false, general)!));
  const literal = splitSegments(alt)
    .filter((seg) => seg !== '' && !/[*?[\\]/.test(seg))
    .reduce((best, seg) => (seg.length > best.length ? seg : best), '');
  const need = nocase ? foldCase(literal) : literal;
  return need ? (s) => s.whole.includes(need) && test(s) : test;
}

/** A glob as a test of paths: whether it matches, before any leading "!" is applied. */
function compileBody(glob: string, nocase: boolean, general = false): { negated: boolean; test: PathTest } {
  const negated = glob.startsWith('!');
  const alts = expandBraces(negated ? glob.slice(1) : glob).map((alt) => compileAlternative(alt, nocase, general));
  return { negated, test: alts.length === 1 ? alts[0] : (s) => alts.some((t) => t(s)) };
}

/**
 * A glob as a test of "/"-separated relative paths: `*`, `?` and sets stay within a
 * segment and match dotfiles, `**` as a whole segment matches any number of segments
 * (none included), but a trailing `/**` what is inside the folder before it (at least one
 * segment, as in ripgrep and gitignore); `{a,b}` alternatives, a leading `!` negates, and
 * a pattern ending in "/" matches only a path that does (a folder written so).
 */
export function compileGlob(glob: string, opts: GlobOptions = {}): (path: string) => boolean {
  const nocase = opts.nocase ?? false;
  const direct = nameOnlyGlob(glob, nocase);
  if (direct) {
    return direct;
  }
  const { negated, test } = compileBody(glob, nocase);
  return (p) => test(new PathSubject(nocase ? foldCase(p) : p)) !== negated;
}

/** {@link compileGlob} without the shortcuts for plain shapes: the general way, which the tests hold the shortcuts to. */
export function compileGlobGeneral(glob: string, opts: GlobOptions = {}): (path: string) => boolean {
  const nocase = opts.nocase ?? false;
  const { negated, test } = compileBody(glob, nocase, true);
  return (p) => test(new PathSubject(nocase ? foldCase(p) : p)) !== negated;
}

/** Several globs as one test: true when any matches. The path is split once for all of them. */
export function compileGlobs(globs: readonly string[], opts: GlobOptions = {}): (path: string) => boolean {
  const nocase = opts.nocase ?? false;
  const bodies = globs.map((g) => compileBody(g, nocase));
  return (p) => {
    const s = new PathSubject(nocase ? foldCase(p) : p);
    return bodies.some((b) => b.test(s) !== b.negated);
  };
}
