/**
 * The characters of a glob: how long one is in a string (a surrogate pair is one), and
 * bracket expressions (`[a-c]`, `[!x]`, `[[:digit:]]`) as tests of one character (see the
 * grammar in matcher.ts).
 */

const POSIX: Record<string, (c: string) => boolean> = {
  alnum: (c) => /^[0-9A-Za-z]$/.test(c),
  alpha: (c) => /^[A-Za-z]$/.test(c),
  blank: (c) => c === ' ' || c === '\t',
  cntrl: (c) => c.length === 1 && (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f),
  digit: (c) => /^[0-9]$/.test(c),
  graph: (c) => /^[!-~]$/.test(c),
  lower: (c) => /^[a-z]$/.test(c),
  print: (c) => /^[ -~]$/.test(c),
  punct: (c) => /^[!-/:-@[-`{-~]$/.test(c),
  space: (c) => /^[ \t\n\r\v\f]$/.test(c),
  upper: (c) => /^[A-Z]$/.test(c),
  xdigit: (c) => /^[0-9A-Fa-f]$/.test(c),
};

/** Length in UTF-16 units of the character at `i`: 2 for a surrogate pair, 1 for anything else (a lone surrogate too). */
export function charLen(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff || i + 1 >= s.length) {
    return 1;
  }
  const d = s.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
}

export function charAt(s: string, i: number): string {
  return s.slice(i, i + charLen(s, i));
}

/**
 * A bracket expression starting at `p[start] === "["`: its test and where it ends, or
 * undefined when it is never closed.
 */
export function parseSet(p: string, start: number, nocase: boolean): { test: (c: string) => boolean; end: number } | undefined {
  let i = start + 1;
  let negated = false;
  if (p[i] === '!' || p[i] === '^') {
    negated = true;
    i++;
  }
  const singles = new Set<string>();
  const ranges: [number, number][] = [];
  const classes: ((c: string) => boolean)[] = [];
  let first = true;
  for (;;) {
    if (i >= p.length) {
      return undefined;
    }
    if (p[i] === ']' && !first) {
      break;
    }
    first = false;
    if (p[i] === '[' && p[i + 1] === ':') {
      const close = p.indexOf(':]', i + 2);
      const name = close > 0 ? p.slice(i + 2, close) : '';
      if (close > 0 && POSIX[name]) {
        classes.push(POSIX[name]);
        i = close + 2;
        continue;
      }
    }
    let lo: string;
    if (p[i] === '\\' && i + 1 < p.length) {
      lo = charAt(p, i + 1);
      i += 1 + lo.length;
    } else {
      lo = charAt(p, i);
      i += lo.length;
    }
    if (p[i] === '-' && i + 1 < p.length && p[i + 1] !== ']') {
      let hi: string;
      if (p[i + 1] === '\\' && i + 2 < p.length) {
        hi = charAt(p, i + 2);
        i += 2 + hi.length;
      } else {
        hi = charAt(p, i + 1);
        i += 1 + hi.length;
      }
      ranges.push([lo.codePointAt(0)!, hi.codePointAt(0)!]);
      continue;
    }
    singles.add(lo);
  }
  const member = (c: string): boolean => {
    if (singles.has(c) || classes.some((f) => f(c))) {
      return true;
    }
    const cp = c.codePointAt(0)!;
    return ranges.some(([a, b]) => cp >= a && cp <= b);
  };
  const inSet = nocase ? (c: string) => member(c) || member(c.toLowerCase()) || member(c.toUpperCase()) : member;
  return { test: (c) => c !== '/' && inSet(c) !== negated, end: i };
}
