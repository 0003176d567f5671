import { MAX_BRACE_EXPANSIONS } from '../limits';

/**
 * Expands `{a,b}` alternatives (nested too) into plain globs. ripgrep reads braces
 * natively but the `ignore` package does not, so both engines are handed the same
 * expanded list and agree by construction. `\{` stays literal; an unclosed brace stays
 * as written.
 */
export function expandBraces(glob: string): string[] {
  const open = findOpenBrace(glob);
  if (open < 0) {
    return [glob];
  }
  let depth = 0;
  const commas: number[] = [];
  let close = -1;
  for (let i = open; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '{') {
      depth++;
    } else if (c === '}') {
      depth--;
      if (depth === 0) {
        close = i;
        break;
      }
    } else if (c === ',' && depth === 1) {
      commas.push(i);
    }
  }
  if (close < 0 || commas.length === 0) {
    // `{x}` or an unclosed brace is literal in globset; keep the rest expandable.
    if (close < 0) {
      return [glob];
    }
    const rest = expandBraces(glob.slice(close + 1));
    return rest.map((r) => glob.slice(0, close + 1) + r);
  }
  const head = glob.slice(0, open);
  const tail = glob.slice(close + 1);
  const cuts = [open, ...commas, close];
  const out: string[] = [];
  for (let k = 0; k + 1 < cuts.length; k++) {
    for (const alt of expandBraces(head + glob.slice(cuts[k] + 1, cuts[k + 1]) + tail)) {
      out.push(alt);
      if (out.length >= MAX_BRACE_EXPANSIONS) {
        return out;
      }
    }
  }
  return [...new Set(out)];
}

function findOpenBrace(glob: string): number {
  for (let i = 0; i < glob.length; i++) {
    if (glob[i] === '\\') {
      i++;
    } else if (glob[i] === '{') {
      return i;
    }
  }
  return -1;
}

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
 * Globs made only of literal characters, `*`, `**`, `?` and `/` mean the same to
 * the matcher of glob/matcher.ts and ripgrep's globset alike. Only those are handed to
 * ripgrep as a pre-filter; anything richer is matched in JavaScript alone.
 */
export function isPortableGlob(glob: string): boolean {
  return !/[[\]\\!@+()|{},#]/.test(glob) && !/^\s|\s$/.test(glob);
}
