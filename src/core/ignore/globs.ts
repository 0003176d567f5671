import { expandBraces } from '../glob/braces';


/**
 * A VS Code `files.exclude` / `search.exclude` glob as a gitignore-style line anchored at
 * the workspace folder, the form ripgrep's `--glob` and the `ignore` package both read.
 * VS Code matches such a glob against the whole relative path, so a glob that does not
 * start with `**` is anchored (as VS Code itself does when it hands them to ripgrep). A
 * trailing `/**` becomes the folder itself, so the folder is pruned rather than walked
 * and emptied file by file.
 */
export function editorGlobToLines(glob: string): string[] {
  const out: string[] = [];
  for (let g of expandBraces(glob.trim())) {
    g = g.replace(/\\/g, '/');
    if (!g || g.startsWith('!') || g.startsWith('#')) {
      continue;
    }
    while (g.endsWith('/**') && g.length > 3) {
      g = g.slice(0, -3);
    }
    if (g.endsWith('/') && g.length > 1) {
      g = g.slice(0, -1);
    }
    if (g === '**') {
      out.push('*');
      continue;
    }
    out.push(g.startsWith('**') || g.startsWith('/') ? g : `/${g}`);
  }
  return out;
}

/**
 * Lines of an ignore file (or globs the user gave) written for folder `dirRel` (relative
 * to the root, "" for the root), rewritten so that they mean the same when matched from
 * the root. In gitignore a pattern with a slash other than a trailing one is anchored to
 * its file's folder; a pattern without one matches at any depth below that folder, which
 * is every path the walk under it sees, so it stays as it is.
 */
export function rebaseLines(lines: readonly string[], dirRel: string): string[] {
  const out: string[] = [];
  for (const raw of lines) {
    let line = raw.replace(/\r$/, '');
    if (!line.trim() || line.startsWith('#')) {
      continue;
    }
    let neg = '';
    if (line.startsWith('!')) {
      neg = '!';
      line = line.slice(1);
    }
    if (!dirRel) {
      out.push(neg + line);
      continue;
    }
    const body = line.replace(/\/+\s*$/, '');
    if (!body.includes('/')) {
      out.push(neg + line);
      continue;
    }
    out.push(`${neg}${escapeGlobLiteral(dirRel)}/${line.replace(/^\/+/, '')}`);
  }
  return out;
}

/** A literal path made safe to put in front of a glob. */
export function escapeGlobLiteral(s: string): string {
  return s.replace(/[\\*?[\]{}!#]/g, (c) => `\\${c}`);
}

/**
 * Globs made only of literal characters, `*`, `**`, `?` and `/`: ripgrep's globset reads
 * them as the matcher of glob/matcher.ts does, but for `?` on names past ASCII and case
 * folding past ASCII (see ripgrepKeeps, which hands ripgrep a looser form there). Only those
 * are handed to ripgrep as a pre-filter; anything richer is matched in JavaScript alone.
 */
export function isPortableGlob(glob: string): boolean {
  return !/[[\]\\!@+()|{},#]/.test(glob) && !/^\s|\s$/.test(glob);
}
