/**
 * The typographic characters fs_edit and fs_apply_patch both read as their ASCII forms:
 * one table for the two tools, so a quote, dash or space forgiven by one is forgiven by the
 * other. None is a letter, a digit or an underscore. Backticks and guillemets are not here:
 * they mean something of their own in code and prose.
 */
export const TYPOGRAPHY: Readonly<Record<string, string>> = {
  '\u2018': "'", // ‘
  '\u2019': "'", // ’
  '\u201A': "'", // ‚
  '\u201B': "'", // ‛
  '\u2032': "'", // ′ prime
  '\u201C': '"', // “
  '\u201D': '"', // ”
  '\u201E': '"', // „
  '\u201F': '"', // ‟
  '\u2033': '"', // ″ double prime
  '\u2010': '-', // hyphen
  '\u2011': '-', // non-breaking hyphen
  '\u2012': '-', // figure dash
  '\u2013': '-', // en dash
  '\u2014': '-', // em dash
  '\u2015': '-', // horizontal bar
  '\u2212': '-', // minus sign
  '\u00A0': ' ', // no-break space
  '\u2000': ' ', // en quad
  '\u2001': ' ', // em quad
  '\u2002': ' ', // en space
  '\u2003': ' ', // em space
  '\u2004': ' ', // three-per-em space
  '\u2005': ' ', // four-per-em space
  '\u2006': ' ', // six-per-em space
  '\u2007': ' ', // figure space
  '\u2008': ' ', // punctuation space
  '\u2009': ' ', // thin space
  '\u200A': ' ', // hair space
  '\u202F': ' ', // narrow no-break space
  '\u205F': ' ', // medium mathematical space
  '\u3000': ' ', // ideographic space
  '\u2026': '...', // … (three characters: compared by whole lines only)
  '\u200B': '', // zero-width space (invisible: dropped, compared by whole lines only)
  '\uFEFF': '', // zero-width no-break space
};

const ANY_RE = new RegExp(`[${Object.keys(TYPOGRAPHY).join('')}]`, 'g');
const ANY_TEST = new RegExp(`[${Object.keys(TYPOGRAPHY).join('')}]`);
const ONE_TO_ONE = Object.keys(TYPOGRAPHY).filter((c) => TYPOGRAPHY[c].length === 1);
const ONE_RE = new RegExp(`[${ONE_TO_ONE.join('')}]`, 'g');
const ONE_TEST = new RegExp(`[${ONE_TO_ONE.join('')}]`);

/** `s` with every character of {@link TYPOGRAPHY} as its ASCII form (the length may change: `…` is three characters). */
export function asciiTypography(s: string): string {
  return ANY_TEST.test(s) ? s.replace(ANY_RE, (c) => TYPOGRAPHY[c]) : s;
}

/** `s` with the characters of {@link TYPOGRAPHY} that have a one-character ASCII form as it; same length, same offsets. */
export function asciiTypographySameLength(s: string): string {
  return ONE_TEST.test(s) ? s.replace(ONE_RE, (c) => TYPOGRAPHY[c]) : s;
}
