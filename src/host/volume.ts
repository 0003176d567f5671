import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { EXACT_NAMES, isWithinAs, nameKey, type NameComparison, type PathApi } from '../core/names';

/**
 * The seam for how a volume compares names, on the host's side: each folder's volume is
 * asked once (does another case of a name find the same entry? does the other Unicode
 * normalisation?), never the platform, and the answer (a {@link NameComparison}) is what
 * the pure code compares, keys and matches with. This module also gives a path's
 * spelling on disk: on a volume that folds, `src/app.ts` finds `Src/App.ts`, and that is
 * the name every tool prints and keys on.
 */

/** The path functions of this host: `path.win32` on Windows, `path.posix` elsewhere. Rules about names are given these, never the platform's name. */
export const HOST_PATH: PathApi = nodePath;

/** Whether paths on this host are read as Windows reads them (drive letters, either separator, its name rules). */
export const WINDOWS_PATHS = HOST_PATH.sep === '\\';

/** Names a probe looks at in a folder, at most: the first one with letters answers. */
const PROBE_ENTRIES = 256;

/** Folders whose listing is kept for spelling paths on disk (see {@link Volumes.spelled}). */
const LISTINGS_KEPT = 256;

type Stat = { dev: number; ino: number };

function lstat(p: string): Stat | undefined {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
}

/** Whether two stats are one entry; unknown (an inode number of 0, as some volumes give) counts as not. */
function sameEntry(a: Stat | undefined, b: Stat | undefined): boolean {
  return a !== undefined && b !== undefined && a.ino !== 0 && a.dev === b.dev && a.ino === b.ino;
}

/** Every letter in the other case: `App.ts` gives `aPP.TS`. */
function swapCase(name: string): string {
  let out = '';
  for (const ch of name) {
    const lower = ch.toLowerCase();
    out += lower !== ch ? ch : ch.toUpperCase();
  }
  return out;
}

/** The other normalisation of a name that has two: NFD of an NFC name, else NFC. */
function otherForm(name: string): string {
  const nfc = name.normalize('NFC');
  return nfc === name ? name.normalize('NFD') : nfc;
}

function firstEntries(dir: string): string[] {
  const out: string[] = [];
  let d: fs.Dir | undefined;
  try {
    d = fs.opendirSync(dir, { bufferSize: 64 });
    for (let e = d.readSync(); e && out.length < PROBE_ENTRIES; e = d.readSync()) {
      out.push(e.name);
    }
  } catch {
    // a folder that cannot be read gives no evidence
  } finally {
    try {
      d?.closeSync();
    } catch {
      // closed already
    }
  }
  return out;
}

/**
 * Asks the folder's own names: for the first whose variant (`vary`) differs, whether the
 * variant finds the same entry. A folder listing both spellings compares them apart (a
 * hard link under the other name would pass the inode check, and a folding volume never
 * lists two). Undefined when no name has a variant.
 */
function askNames(dir: string, names: readonly string[], vary: (n: string) => string): boolean | undefined {
  const listed = new Set(names);
  for (const name of names) {
    const v = vary(name);
    if (v === name) {
      continue;
    }
    if (listed.has(v)) {
      return false;
    }
    const a = lstat(nodePath.join(dir, name));
    if (!a) {
      continue;
    }
    return sameEntry(a, lstat(nodePath.join(dir, v)));
  }
  return undefined;
}

let probeCount = 0;

/**
 * Asks with a name of our own when the folder has none to ask with (an empty folder; a
 * project whose names are all plain ASCII, for normalisation): a hidden empty file made
 * and removed at once. A folder that cannot be written in answers no (names compared as
 * written, the safe default of a strict volume).
 */
function askWithProbeFile(dir: string, vary: (n: string) => string): boolean {
  const name = `.aft-probe-${process.pid.toString(36)}-${(++probeCount).toString(36)}-Case\u00e9`;
  const file = nodePath.join(dir, name);
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600);
  } catch {
    return false;
  }
  try {
    fs.closeSync(fd);
    return sameEntry(lstat(file), lstat(nodePath.join(dir, vary(name))));
  } finally {
    try {
      fs.unlinkSync(file);
    } catch {
      // removed by someone else
    }
  }
}

/**
 * How the volume of the folder `dir` compares names, each question asked the first time
 * its answer is read: whether case folds is read for almost every name, whether
 * normalisation folds only for names with accents, so a project of plain ASCII names is
 * never asked about it.
 */
export function probeNames(dir: string): NameComparison {
  let names: string[] | undefined;
  const own = () => (names ??= firstEntries(dir));
  let foldsCase: boolean | undefined;
  let foldsNormalization: boolean | undefined;
  return {
    get foldsCase() {
      return (foldsCase ??= askNames(dir, own(), swapCase) ?? askWithProbeFile(dir, swapCase));
    },
    get foldsNormalization() {
      return (foldsNormalization ??= askNames(dir, own(), otherForm) ?? askWithProbeFile(dir, otherForm));
    },
  };
}

/** A workspace folder as the volumes see it: its real path and its comparison. */
type Folder = { path: string; names?: NameComparison };

/** A folder's names as its listing gave them, by key, kept while the folder's modification time stays. */
interface Listing {
  mtimeMs: number;
  /** The comparison `byKey` was made with. */
  cmp: NameComparison;
  names: Set<string>;
  byKey: Map<string, string[]>;
}

/**
 * The volumes of one workspace: each folder's comparison (probed once), the comparison
 * for any path (the deepest workspace folder holding it, else the volume of the nearest
 * folder that exists, probed once per device), and paths spelled as they are on disk.
 */
export class Volumes {
  private readonly byFolder = new Map<string, NameComparison>();
  private readonly byDevice = new Map<number, NameComparison>();
  private readonly listings = new Map<string, Listing>();

  constructor(private readonly api: PathApi = HOST_PATH) {}

  /** The deepest of `roots` that holds `p`, as each compares names. */
  private holding(p: string, roots: readonly Folder[]): Folder | undefined {
    let best: Folder | undefined;
    for (const r of roots) {
      if (isWithinAs(r.names ?? EXACT_NAMES, r.path, p, this.api) && (!best || r.path.length > best.path.length)) {
        best = r;
      }
    }
    return best;
  }

  /** The comparison of the volume of a folder that exists (a workspace folder), probed the first time it is asked for. */
  folder(dir: string): NameComparison {
    let c = this.byFolder.get(dir);
    if (!c) {
      c = probeNames(dir);
      this.byFolder.set(dir, c);
    }
    return c;
  }

  /**
   * The comparison for any absolute path: of the deepest of `roots` that holds it, else
   * of the volume of its nearest existing folder (one per device, probed once).
   */
  of(p: string, roots: readonly Folder[]): NameComparison {
    const best = this.holding(p, roots);
    if (best) {
      return best.names ?? EXACT_NAMES;
    }
    for (let dir = p; ; dir = this.api.dirname(dir)) {
      let st: fs.Stats | undefined;
      try {
        st = fs.statSync(dir);
      } catch {
        st = undefined;
      }
      if (st?.isDirectory()) {
        let c = this.byDevice.get(st.dev);
        if (!c) {
          c = probeNames(dir);
          this.byDevice.set(st.dev, c);
        }
        return c;
      }
      if (this.api.dirname(dir) === dir) {
        return EXACT_NAMES;
      }
    }
  }

  /**
   * `real` with each name below its workspace folder spelled as it is on disk (see
   * {@link spelled}); a path outside every folder as it is (a path the platform resolved
   * itself, which on Windows already gives each name as on disk).
   */
  spellOnDisk(real: string, roots: readonly Folder[]): string {
    const best = this.holding(real, roots);
    return best ? this.spelled(real, best.path, best.names ?? EXACT_NAMES) : real;
  }

  /**
   * `real` (an absolute path, links resolved) with each name below `from` spelled as it
   * is on disk, where the volume folds names: `Src/App.ts` for `src/APP.TS`. Names that
   * do not exist are kept as given. On a volume that folds nothing, `real` itself.
   */
  spelled(real: string, from: string, names: NameComparison): string {
    if (!names.foldsCase && !names.foldsNormalization) {
      return real;
    }
    const rel = this.api.relative(from, real);
    if (rel === '' || rel.startsWith('..') || this.api.isAbsolute(rel)) {
      return real;
    }
    const parts = rel.split(this.api.sep);
    let cur = from;
    for (let i = 0; i < parts.length; i++) {
      const listing = this.listing(cur, names);
      const part = parts[i];
      if (!listing) {
        return this.api.join(cur, ...parts.slice(i));
      }
      if (listing.names.has(part)) {
        cur = this.api.join(cur, part);
        continue;
      }
      const candidates = listing.byKey.get(nameKey(names, part));
      if (!candidates) {
        return this.api.join(cur, ...parts.slice(i));
      }
      let pick = candidates[0];
      if (candidates.length > 1) {
        const mine = lstat(this.api.join(cur, part));
        pick = candidates.find((c) => sameEntry(mine, lstat(this.api.join(cur, c)))) ?? part;
      }
      cur = this.api.join(cur, pick);
    }
    return cur;
  }

  /** A folder's listing, read again when its modification time moved; undefined when it is not a folder that can be read. */
  private listing(dir: string, names: NameComparison): Listing | undefined {
    let mtimeMs: number;
    try {
      const st = fs.statSync(dir);
      if (!st.isDirectory()) {
        return undefined;
      }
      mtimeMs = st.mtimeMs;
    } catch {
      return undefined;
    }
    const kept = this.listings.get(dir);
    if (kept && kept.mtimeMs === mtimeMs && kept.cmp === names) {
      this.listings.delete(dir);
      this.listings.set(dir, kept);
      return kept;
    }
    let all: string[];
    try {
      all = fs.readdirSync(dir);
    } catch {
      return undefined;
    }
    const byKey = new Map<string, string[]>();
    for (const n of all) {
      const k = nameKey(names, n);
      const had = byKey.get(k);
      if (had) {
        had.push(n);
      } else {
        byKey.set(k, [n]);
      }
    }
    const listing = { mtimeMs, cmp: names, names: new Set(all), byKey };
    this.listings.set(dir, listing);
    if (this.listings.size > LISTINGS_KEPT) {
      this.listings.delete(this.listings.keys().next().value as string);
    }
    return listing;
  }
}
