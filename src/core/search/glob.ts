import { compileGlob } from '../glob/matcher';
import * as nodePath from 'node:path';
import { EXACT_NAMES, isAscii, type NameComparison, type PathApi } from '../names';
import { expandBraces } from '../glob/braces';
import { escapeGlobLiteral, isPortableGlob } from '../ignore/globs';

/**
 * A glob's backslashes as the platform reads them: a separator where it escapes nothing.
 * On Windows no name holds `*` or `?`, so a backslash before one separates (`Src\*.ts`,
 * `C:\Users\me\*`); it still escapes the characters a name there can hold (`\[id\].tsx`).
 */
export function globSeparators(glob: string, api: PathApi = nodePath): string {
  return glob.replace(api.sep === '\\' ? /\\(?![[\]{}()!+@])/g : /\\(?![*?[\]{}()!+@])/g, '/');
}

/**
 * A glob as the model writes it, relative to the searched folder (paths read as `api`
 * reads them): "\" read as "/" where it escapes nothing, a
 * leading "./" or "/" dropped, and a pattern without "/" (`*.ts`, `README.md`) made to
 * match at any depth, as `**\/` in front would.
 */
export function normalizeGlob(pattern: string, api: PathApi = nodePath): string {
  let p = globSeparators(pattern.trim(), api);
  p = p.replace(/^(\.\/)+/, '').replace(/^\/+/, '');
  if (!p.includes('/')) {
    p = `**/${p}`;
  }
  return p;
}

/**
 * Whether a glob with accented letters must be matched on the names' composed form: where
 * the volume folds normalisation, `café.txt` typed composed names the file macOS wrote
 * decomposed. ripgrep matches bytes, so such a glob is matched here alone.
 */
function byNormalForm(normalized: string, names: NameComparison): boolean {
  return !isAscii(normalized) && names.foldsNormalization;
}

/**
 * The final word on whether a path (relative to the searched folder) matches, dotfiles
 * included (see glob/matcher.ts), as the volume compares names: where it folds case
 * `**\/app.TS` matches `Src/App.ts`, as a Windows or macOS user expects, and where it
 * folds normalisation either form of an accented name matches.
 */
export function globMatcher(normalized: string, names: NameComparison = EXACT_NAMES): (rel: string) => boolean {
  if (byNormalForm(normalized, names)) {
    const test = compileGlob(normalized.normalize('NFC'), { nocase: names.foldsCase });
    return (rel) => test(isAscii(rel) ? rel : rel.normalize('NFC'));
  }
  return compileGlob(normalized, { nocase: names.foldsCase });
}

/**
 * A portable glob as ripgrep can be given it, keeping at least what {@link globMatcher}
 * matches. ripgrep's globs match bytes: its `?` is one byte, where a name's character may
 * be two to four (`??.ts` misses `xé.ts`, `???.ts` takes it), and it folds the case of ASCII
 * letters only. So a run of wildcards holding a `?`, and where the volume folds case a
 * letter past ASCII, becomes one `*`, which takes whatever they take within a name.
 */
function ripgrepForm(glob: string, foldsCase: boolean): string {
  return glob.replace(foldsCase ? /[?*\u0080-\uffff]*[?\u0080-\uffff][?*\u0080-\uffff]*/g : /[?*]*\?[?*]*/g, '*');
}

/**
 * The same glob as ripgrep `--glob` whitelists anchored at the root, keeping every path
 * {@link globMatcher} matches (and, where {@link ripgrepReadsExactly} says no, more: the
 * matcher has the last word); undefined where that cannot be said (the search then lists
 * everything and the matcher alone filters). A whitelist lets ripgrep skip the ignore-file check of
 * files it keeps, which is what makes it fast; the files it so brings back from ignore
 * rules are checked again afterwards (see {@link PathChecker}).
 */
export function ripgrepKeeps(normalized: string, baseRel: string, names: NameComparison = EXACT_NAMES): string[] | undefined {
  const alts = expandBraces(normalized);
  // (case is ripgrep's to fold too: the scope's policy passes --glob-case-insensitive)
  if (byNormalForm(normalized, names) || !alts.every(isPortableGlob)) {
    return undefined;
  }
  const prefix = baseRel ? `${escapeGlobLiteral(baseRel)}/` : '';
  return alts.map((a) => `${prefix}${ripgrepForm(a, names.foldsCase)}`);
}

/** Whether ripgrep, given {@link ripgrepKeeps}, keeps exactly the paths the matcher matches: then a path it prints need not be matched again. */
export function ripgrepReadsExactly(normalized: string, names: NameComparison = EXACT_NAMES): boolean {
  const alts = expandBraces(normalized);
  return !byNormalForm(normalized, names) && alts.every((a) => isPortableGlob(a) && ripgrepForm(a, names.foldsCase) === a);
}
