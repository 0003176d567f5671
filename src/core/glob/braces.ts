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
