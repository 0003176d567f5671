import { compileSegments, GLOBSTAR, insideFolder, pathTest, type PathSubject } from './matcher';
import { nameHint, type NameHint } from './nameHint';

/** One line of a gitignore file, compiled. */
export interface GitignoreRule {
  /** `!pattern`: a match keeps the path rather than ignoring it. */
  negated: boolean;
  /** `pattern/`: only folders match. */
  dirOnly: boolean;
  /**
   * For a rule on the last segment alone (`name`, `*.log`, `build*`, `**\/name`), what that
   * segment must be, end with or start with, in ASCII lower case: a test that can tell most
   * names apart without the rule (see {@link mayMatchName}). Undefined for other rules.
   */
  hint?: NameHint;
  /** Tests a path relative to the rules' folder ("/"-separated, no trailing "/"). */
  test(path: PathSubject): boolean;
}

/**
 * A gitignore line (git's `wildmatch` with the path-name rule), or undefined for a blank
 * line, a comment, or a pattern that can match nothing: trailing blanks go unless
 * escaped, `!` negates, a trailing "/" names folders only, a pattern with a "/" before its
 * end is anchored at the rules' folder and otherwise matches the last segment at any
 * depth; `**` as a whole segment matches any number of folders, and a trailing `/**`
 * everything inside (not the folder itself); an unclosed "[" matches nothing. With
 * `nocase` (git's `core.ignorecase`, where the volume folds case) letters match in either
 * case, and the paths it tests must be folded with `foldCase` (see core/names.ts).
 */
export function compileGitignoreRule(line: string, nocase = false): GitignoreRule | undefined {
  let p = line.replace(/\r$/, '');
  // Unescaped trailing blanks are dropped; "\ " keeps one.
  while (p.endsWith(' ')) {
    let k = p.length - 2;
    let slashes = 0;
    while (k >= 0 && p[k] === '\\') {
      slashes++;
      k--;
    }
    if (slashes % 2 === 1) {
      break;
    }
    p = p.slice(0, -1);
  }
  if (p === '' || p.startsWith('#')) {
    return undefined;
  }
  let negated = false;
  if (p.startsWith('!')) {
    negated = true;
    p = p.slice(1);
  }
  // A final lone backslash escapes nothing: git drops the pattern.
  const trailingSlashes = /(\\*)$/.exec(p)![1].length;
  if (trailingSlashes % 2 === 1) {
    return undefined;
  }
  let dirOnly = false;
  if (p.endsWith('/')) {
    dirOnly = true;
    p = p.slice(0, -1);
  }
  if (p === '') {
    return undefined;
  }
  const anchored = /\/./.test(p) || p.startsWith('/');
  if (p.startsWith('/')) {
    p = p.slice(1);
  }
  const segs = compileSegments(anchored ? p : `**/${p}`, nocase, true);
  if (!segs) {
    return undefined;
  }
  if (segs.length === 0 || (segs.length === 1 && segs[0] === GLOBSTAR)) {
    return { negated, dirOnly, test: () => true };
  }
  return { negated, dirOnly, test: pathTest(insideFolder(segs)), hint: nameHint(anchored ? p : `**/${p}`) };
}
