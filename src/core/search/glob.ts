import { compileGlob } from '../glob/matcher';
import { expandBraces } from '../glob/braces';
import { escapeGlobLiteral, isPortableGlob } from '../ignore/globs';

/**
 * A glob as the model writes it, relative to the searched folder: "\" read as "/", a
 * leading "./" or "/" dropped, and a pattern without "/" (`*.ts`, `README.md`) made to
 * match at any depth, as `**\/` in front would.
 */
export function normalizeGlob(pattern: string): string {
  let p = pattern.trim().replace(/\\(?![*?[\]{}()!+@])/g, '/');
  p = p.replace(/^(\.\/)+/, '').replace(/^\/+/, '');
  if (!p.includes('/')) {
    p = `**/${p}`;
  }
  return p;
}

/** The final word on whether a path (relative to the searched folder) matches, dotfiles included (see glob/matcher.ts). */
export function globMatcher(normalized: string): (rel: string) => boolean {
  return compileGlob(normalized);
}

/**
 * The same glob as ripgrep `--glob` whitelists anchored at the root, when ripgrep reads
 * it exactly as {@link globMatcher} does; undefined otherwise (the search then lists
 * everything and the matcher alone filters). A whitelist lets ripgrep skip the ignore-file check of
 * files it keeps, which is what makes it fast; the files it so brings back from ignore
 * rules are checked again afterwards (see {@link PathChecker}).
 */
export function ripgrepKeeps(normalized: string, baseRel: string): string[] | undefined {
  const alts = expandBraces(normalized);
  if (!alts.every(isPortableGlob)) {
    return undefined;
  }
  const prefix = baseRel ? `${escapeGlobLiteral(baseRel)}/` : '';
  return alts.map((a) => `${prefix}${a}`);
}
