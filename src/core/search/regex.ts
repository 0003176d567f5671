/**
 * Patterns are ripgrep's (Rust `regex` syntax). The JavaScript fallback compiles them
 * to an equivalent `RegExp` where the two dialects differ in meaning, and refuses, with
 * the construct named, what it cannot translate; it never silently searches for
 * something else. Translated: Unicode `\w \d \b \W \D \B` (Rust's are Unicode, JS's
 * ASCII), `.` (Rust's matches `\r`), `^`/`$` (line boundaries at `\n` only, like rg
 * without `--crlf`), `(?P<name>`, leading `(?i)`/`(?s)`/`(?m)` flags, `\x{…}`, `\pL`,
 * ASCII classes `[[:alpha:]]`, and escapes of punctuation JS's `u` mode rejects.
 */

export type CaseMode = 'smart' | 'sensitive' | 'insensitive';

export interface Query {
  pattern: string;
  fixedStrings: boolean;
  caseMode: CaseMode;
  multiline: boolean;
}

/** Unsupported by the fallback: the message names the construct. */
export class RegexTranslationError extends Error {}

const WORD = '\\p{L}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}';
const JS_SYNTAX = new Set('^$\\.*+?()[]{}|/'.split(''));
const POSIX: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

/**
 * ripgrep's smart case: case-insensitive unless the pattern has an uppercase letter of
 * its own (not one inside an escape such as `\W` or `\p{Lu}`, nor a group's name).
 */
export function hasUppercaseLiteral(pattern: string, fixed: boolean): boolean {
  if (fixed) {
    return pattern !== pattern.toLowerCase();
  }
  let s = pattern.replace(/\\[pPxu]\{[^}]*\}/g, '').replace(/\\[pP][A-Za-z]/g, '');
  s = s.replace(/\\./g, '').replace(/\(\?P?<[^>]*>/g, '(').replace(/\[:\^?[a-z]+:\]/g, '');
  return s !== s.toLowerCase();
}

export function isCaseInsensitive(q: Query): boolean {
  return q.caseMode === 'insensitive' || (q.caseMode === 'smart' && !hasUppercaseLiteral(q.pattern, q.fixedStrings));
}

function escapeLiteral(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/]/g, (c) => `\\${c}`);
}

/**
 * Whether ripgrep would run a `-U` search across lines. ripgrep decides from the
 * compiled regex whether it can match a line feed at all and otherwise searches line by
 * line; this reads the same from the pattern's text: a `\n`, a class that can hold one
 * (`\s`, `\W`, `\D`, `\S`, `\P{…}`, a negated `[^…]`), or `.` under `(?s)`.
 */
export function canMatchNewline(q: Query): boolean {
  if (q.fixedStrings) {
    return q.pattern.includes('\n');
  }
  const p = q.pattern;
  return /\\n|\\x0[aA]|\\x\{0*[aA]\}|\\u\{0*[aA]\}|\\s|\\W|\\D|\\S|\\P|\[\^|\n/.test(p) || (/^\(\?[a-zA-Z]*s[a-zA-Z]*\)/.test(p) && /(^|[^\\])\./.test(p));
}

export interface CompiledQuery {
  /** Matches anywhere; `g` (and `s` when asked) set. */
  regex: RegExp;
  /** Search the whole text at once (multiline mode and a pattern that can cross lines). */
  acrossLines: boolean;
  /** A fixed string: the regex cannot backtrack. */
  literal?: boolean;
}

/** Translates and compiles; throws {@link RegexTranslationError} or the engine's SyntaxError. */
export function compileQuery(q: Query): CompiledQuery {
  let flags = 'gu';
  let source: string;
  if (isCaseInsensitive(q)) {
    flags += 'i';
  }
  if (q.fixedStrings) {
    source = escapeLiteral(q.pattern);
  } else {
    let p = q.pattern;
    const lead = /^\(\?([a-zA-Z]+)\)/.exec(p);
    if (lead) {
      for (const f of lead[1]) {
        if (f === 'i') {
          if (!flags.includes('i')) {
            flags += 'i';
          }
        } else if (f === 's') {
          flags += flags.includes('s') ? '' : 's';
        } else if (f !== 'm') {
          throw new RegexTranslationError(`the inline flag (?${f}) is not supported by the JavaScript fallback`);
        }
      }
      p = p.slice(lead[0].length);
    }
    source = translate(p, flags.includes('s'));
  }
  if (!q.multiline && hasLiteralNewline(q)) {
    throw new RegexTranslationError('the literal "\\n" is not allowed in a regex unless multiline is true');
  }
  return { regex: new RegExp(source, flags), acrossLines: q.multiline && canMatchNewline(q), literal: q.fixedStrings };
}

/** A line feed the pattern spells out (ripgrep refuses it outside multiline mode). */
function hasLiteralNewline(q: Query): boolean {
  if (q.pattern.includes('\n')) {
    return true;
  }
  return !q.fixedStrings && /(^|[^\\])(\\\\)*\\(n|x0[aA]|x\{0*[aA]\})/.test(q.pattern);
}

/** A piece of the translation: its JavaScript text and the index of the last pattern character it used. */
type Piece = [text: string, last: number];

/** The pattern (after any leading flags) in JavaScript's `u`-mode syntax, one construct at a time. */
function translate(p: string, dotAll: boolean): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    let piece: Piece;
    if (p[i] === '\\') {
      piece = translateEscape(p, i, inClass);
    } else if (inClass) {
      piece = translateInClass(p, i);
      inClass = p[i] !== ']';
    } else {
      piece = translateOutside(p, i, dotAll);
      inClass = p[i] === '[';
    }
    out += piece[0];
    i = piece[1];
  }
  return out;
}

/** The escape at p[i] (a backslash), inside a class or not. */
function translateEscape(p: string, i: number, inClass: boolean): Piece {
  const n = p[i + 1];
  if (n === undefined) {
    throw new SyntaxError('incomplete escape sequence at the end of the pattern');
  }
  i++;
  switch (n) {
    case 'w':
      return [inClass ? WORD : `[${WORD}]`, i];
    case 'W':
      if (inClass) {
        throw new RegexTranslationError('\\W inside a character class is not supported by the JavaScript fallback');
      }
      return [`[^${WORD}]`, i];
    case 'd':
      return ['\\p{Nd}', i];
    case 'D':
      return ['\\P{Nd}', i];
    case 'b':
      return [inClass ? '\\x08' : `(?:(?<=[${WORD}])(?![${WORD}])|(?<![${WORD}])(?=[${WORD}]))`, i];
    case 'B':
      return [`(?:(?<=[${WORD}])(?=[${WORD}])|(?<![${WORD}])(?![${WORD}]))`, i];
    case 'A':
      return ['(?<![\\s\\S])', i];
    case 'z':
      return ['(?![\\s\\S])', i];
    case 'x': {
      if (p[i + 1] === '{') {
        const end = p.indexOf('}', i);
        return [`\\u{${p.slice(i + 2, end)}}`, end];
      }
      return [`\\x${p.slice(i + 1, i + 3)}`, i + 2];
    }
    case 'p':
    case 'P':
      if (p[i + 1] === '{') {
        const end = p.indexOf('}', i);
        return [`\\${n}{${p.slice(i + 2, end)}}`, end];
      }
      return [`\\${n}{${p[i + 1]}}`, i + 1];
    default:
      if (/[a-zA-Z0-9]/.test(n)) {
        // \n \t \r \f \v \s \S \u… \0 mean the same in both dialects
        return [`\\${n}`, i];
      }
      if (JS_SYNTAX.has(n) || (inClass && n === '-')) {
        return [`\\${n}`, i];
      }
      return [`\\u{${n.codePointAt(0)!.toString(16)}}`, i];
  }
}

/** The character at p[i] inside a class (not a backslash); a `]` closes the class. */
function translateInClass(p: string, i: number): Piece {
  const c = p[i];
  if (c === '[') {
    const posix = /^\[:(\^?)([a-z]+):\]/.exec(p.slice(i));
    if (posix && POSIX[posix[2]] !== undefined) {
      if (posix[1]) {
        throw new RegexTranslationError(`[:^${posix[2]}:] is not supported by the JavaScript fallback`);
      }
      return [POSIX[posix[2]], i + posix[0].length - 1];
    }
    throw new RegexTranslationError('nested character classes are not supported by the JavaScript fallback');
  }
  if ((c === '&' || c === '-' || c === '~') && p[i + 1] === c) {
    throw new RegexTranslationError(`the class operator ${c}${c} is not supported by the JavaScript fallback`);
  }
  return [c, i];
}

/** The character at p[i] outside a class (not a backslash); a `[` opens one. */
function translateOutside(p: string, i: number, dotAll: boolean): Piece {
  const c = p[i];
  switch (c) {
    case '[': {
      let out = c;
      if (p[i + 1] === '^') {
        out += '^';
        i++;
      }
      if (p[i + 1] === ']') {
        // a leading "]" is a literal in Rust
        out += '\\]';
        i++;
      }
      return [out, i];
    }
    case '.':
      return [dotAll ? '[\\s\\S]' : '[^\\n]', i];
    case '^':
      return ['(?<![^\\n])', i];
    case '$':
      return ['(?![^\\n])', i];
    case '(':
      if (p.startsWith('(?P<', i)) {
        return ['(?<', i + 3];
      }
      if (p[i + 1] === '?' && /^\(\?[a-zA-Z-]+[:)]/.test(p.slice(i))) {
        throw new RegexTranslationError('inline flags inside the pattern are not supported by the JavaScript fallback');
      }
      return [c, i];
    default:
      return [c, i];
  }
}
