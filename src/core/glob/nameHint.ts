/**
 * What a rule on a name alone needs of that name, as a cheap test: most names of a tree
 * meet none of a repository's name rules (`*.log`, `build`, `.env*`), and a walk of a
 * million files can skip testing them one rule at a time.
 */

/** What a rule needs of a path's last segment: to be `text`, to end with it, or to start with it. */
export interface NameHint {
  kind: 'exact' | 'suffix' | 'prefix';
  /** Printable ASCII, lower case. */
  text: string;
}

/**
 * The {@link NameHint} of a pattern that tests only the last segment (`**\/` then one
 * segment): a literal, `*literal` or `literal*`, the literal in printable ASCII without
 * escapes; undefined otherwise.
 */
export function nameHint(pattern: string): NameHint | undefined {
  let p = pattern;
  while (p.startsWith('**/')) {
    p = p.slice(3);
  }
  if (p === pattern || !/^[\x20-\x7e]+$/.test(p) || p.includes('/')) {
    return undefined;
  }
  const special = /[*?[\]\\]/;
  if (!special.test(p)) {
    return { kind: 'exact', text: p.toLowerCase() };
  }
  const rest = p.slice(1);
  if (p.startsWith('*') && rest && !special.test(rest)) {
    return { kind: 'suffix', text: rest.toLowerCase() };
  }
  const head = p.slice(0, -1);
  if (p.endsWith('*') && head && !special.test(head)) {
    return { kind: 'prefix', text: head.toLowerCase() };
  }
  return undefined;
}

/**
 * Whether a segment in ASCII (see {@link isAscii}) could meet a hint, compared without
 * regard to case, so the answer "no" holds whether names are matched by case or not. A
 * name with other characters is not asked: folding case or composition can change them.
 */
export function mayMatchName(name: string, hint: NameHint): boolean {
  const t = hint.text;
  if (name.length < t.length || (hint.kind === 'exact' && name.length !== t.length)) {
    return false;
  }
  const from = hint.kind === 'suffix' ? name.length - t.length : 0;
  for (let k = 0; k < t.length; k++) {
    let c = name.charCodeAt(from + k);
    if (c >= 65 && c <= 90) {
      c |= 32;
    }
    if (c !== t.charCodeAt(k)) {
      return false;
    }
  }
  return true;
}

/** Whether a text is all ASCII. */
export function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) >= 128) {
      return false;
    }
  }
  return true;
}
