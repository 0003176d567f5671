import { toLf } from './lines';
import { isBlank, unescapeOnce } from './normalize';

/** old_string and new_string as one level sees them, with what was done to get there. */
export interface Variant {
  old: string;
  new: string;
  notes: string[];
}

/** old_string's and new_string's whole lines, without the blank lines around old_string (and as many around new_string). */
export interface Core {
  old: string[];
  new: string[];
  /** Blank lines dropped around old_string. */
  trimmed: number;
}

export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') {
    lines.pop();
  }
  return lines;
}

export function coreOf(oldText: string, newText: string): Core | undefined {
  const o = splitLines(oldText);
  let lead = 0;
  while (lead < o.length && isBlank(o[lead])) {
    lead++;
  }
  if (lead === o.length) {
    return undefined;
  }
  let trail = 0;
  while (isBlank(o[o.length - 1 - trail])) {
    trail++;
  }
  const n = splitLines(newText);
  let nLead = 0;
  while (nLead < n.length && nLead < lead && isBlank(n[nLead])) {
    nLead++;
  }
  let nTrail = 0;
  while (nTrail < n.length - nLead && nTrail < trail && isBlank(n[n.length - 1 - nTrail])) {
    nTrail++;
  }
  return { old: o.slice(lead, o.length - trail), new: n.slice(nLead, n.length - nTrail), trimmed: lead + trail };
}


/** old_string and new_string unescaped once (all escapes, then quotes only), when that changes old_string. */
export function unescaped(work: Variant): Variant[] {
  const out: Variant[] = [];
  for (const quotesOnly of [false, true]) {
    const old = toLf(unescapeOnce(work.old, quotesOnly));
    if (old !== work.old && !out.some((v) => v.old === old)) {
      const both = escapedLike(work.old, work.new, quotesOnly);
      const what = quotesOnly ? 'unescaped \\" and \\\' (old_string was escaped twice)' : 'unescaped \\n, \\t and quotes (old_string was escaped twice)';
      const note = both ? `${what}; new_string was unescaped the same way` : `${what}; new_string was not escaped twice and was taken as written`;
      out.push({ old, new: both ? toLf(unescapeOnce(work.new, quotesOnly)) : work.new, notes: [...work.notes, note] });
    }
  }
  return out;
}

/**
 * Whether new_string was escaped twice as old_string was: not when it has a real line break
 * where old_string has only `\n`, nor a bare quote of a kind old_string always escaped. Its
 * own escapes (a `\n` inside a string literal) then mean what they say and are kept.
 */
function escapedLike(oldText: string, newText: string, quotesOnly: boolean): boolean {
  if (!quotesOnly && !oldText.includes('\n') && newText.includes('\n')) {
    return false;
  }
  for (const q of ['"', "'", '`', '$']) {
    const bare = new RegExp(`(^|[^\\\\])\\${q}`);
    if (oldText.includes(`\\${q}`) && !bare.test(oldText) && bare.test(newText)) {
      return false;
    }
  }
  return true;
}
