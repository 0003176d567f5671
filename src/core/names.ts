import * as nodePath from 'node:path';

/**
 * How a volume compares two spellings of a name: the one answer to "are these two
 * spellings one file?". It is a property of the volume a folder is on, never of the
 * platform: APFS folds case by default but can be made case-sensitive, NTFS folds case
 * but not Unicode normalisation (and a folder of it can be made case-sensitive), ext4
 * folds neither, and a Linux machine can mount a volume that folds both. The host probes
 * each workspace folder's volume once (see host/volume.ts) and hands this value to the
 * pure code, which compares, keys and matches names through it.
 *
 * A host may answer a question only when it is first asked (a probe of normalisation
 * needs a name with accents): the properties are read only where the answer matters.
 */
export interface NameComparison {
  /** Letters that differ only in case name one entry (`App.ts` is `app.ts`). */
  readonly foldsCase: boolean;
  /** The composed and decomposed forms of a name (NFC `café`, NFD `café`) name one entry. */
  readonly foldsNormalization: boolean;
}

/** A volume that compares names byte for byte (ext4, a case-sensitive APFS without its normalisation: no such thing, but the safe default of a virtual folder). */
export const EXACT_NAMES: NameComparison = Object.freeze({ foldsCase: false, foldsNormalization: false });

/** A volume as macOS formats it by default (APFS, HFS+): case and normalisation folded, each name kept as written. */
export const FOLDING_NAMES: NameComparison = Object.freeze({ foldsCase: true, foldsNormalization: true });

/** A volume as Windows formats it (NTFS): case folded, normalisation not. */
export const CASE_FOLDING_NAMES: NameComparison = Object.freeze({ foldsCase: true, foldsNormalization: false });

const NON_ASCII = /[\u0080-\uffff]/;

/** Whether a string is plain ASCII: no normalisation can change it. */
export function isAscii(s: string): boolean {
  return !NON_ASCII.test(s);
}

/**
 * Folds the case of a name as a volume that ignores case compares it. Each character
 * is folded alone (a volume's table maps one character to one), so the key never
 * changes length: `ß` stays `ß`, as NTFS and APFS keep it apart from `ss`.
 */
export function foldCase(s: string): string {
  if (isAscii(s)) {
    return s.toLowerCase();
  }
  let out = '';
  for (const ch of s) {
    const lower = ch.toLowerCase();
    out += [...lower].length === 1 ? lower : ch;
  }
  return out;
}

/**
 * The key two spellings of one entry share on a volume that compares names as `cmp`
 * says: the key of every Map, Set and lock that stands for a file. Plain ASCII without
 * letters to fold costs one test; the properties of `cmp` are read only when they matter.
 */
export function nameKey(cmp: NameComparison, s: string): string {
  let k = s;
  if (!isAscii(k) && cmp.foldsNormalization) {
    k = k.normalize('NFC');
  }
  return cmp.foldsCase ? foldCase(k) : k;
}

/** Whether two spellings name one entry on a volume that compares names as `cmp` says. */
export function sameName(cmp: NameComparison, a: string, b: string): boolean {
  return a === b || nameKey(cmp, a) === nameKey(cmp, b);
}

/** Whether two names differ only as `cmp` folds them: two spellings of one entry. */
export function otherSpelling(cmp: NameComparison, a: string, b: string): boolean {
  return a !== b && nameKey(cmp, a) === nameKey(cmp, b);
}

/** The path functions of a platform: `path.win32` or `path.posix`. */
export type PathApi = typeof nodePath.posix;

/**
 * Is `child` the same as or below `parent`, as the volume compares names? Both absolute
 * and normalised, in the form `api` reads.
 */
export function isWithinAs(cmp: NameComparison, parent: string, child: string, api: PathApi = nodePath): boolean {
  const rel = api.relative(nameKey(cmp, parent), nameKey(cmp, child));
  // `..x` is a name inside `parent`; only `..` itself, or `..` followed by a separator, leaves it
  const up = rel === '..' || rel.startsWith(`..${api.sep}`) || (api.sep === '\\' && rel.startsWith('../'));
  return rel === '' || (!up && !api.isAbsolute(rel));
}

/**
 * The key of a URI's path (`/c:/Users/x/App.ts`, `/home/x/app.ts`) for finding the open
 * document of a file whatever its spelling: a drive letter in either case (VS Code writes
 * it lower, the platform upper), the rest as the volume compares names.
 */
export function uriPathKey(cmp: NameComparison, path: string): string {
  const drive = /^\/([A-Za-z]):/.exec(path);
  const rest = drive ? `/${foldCase(drive[1])}:${path.slice(3)}` : path;
  return nameKey(cmp, rest);
}
