import { oneLine, printable } from './contract';
import type { PathApi } from './names';

/**
 * The names Windows does not keep as written, as pure functions of a name or a path and
 * the path functions of the platform (`path.win32` or `path.posix`), so that every rule
 * is tested for every platform on any machine. Windows reads these names as something
 * else than a file of that name: a device (`CON`), a stream of another file (`a.txt:x`),
 * the name without its last dots and spaces (`b.txt.` is `b.txt`), or refuses them. A
 * tool that wrote `CON` there would answer "created" for content that went to the
 * console; one that wrote `a.txt:x` would hide text in a stream no listing shows.
 *
 * Where the workspace is on Windows every tool refuses them, read or change. Elsewhere a
 * file so named can exist and be read, but no tool creates one: a repository is shared
 * with Windows users, and git refuses to check such a name out there.
 */

/** Which rule a name breaks, as the refusal names it. */
export type NameRule = 'reserved-name' | 'stream' | 'trailing-dot-or-space' | 'character' | 'device-path' | 'drive-relative' | 'short-name';

export interface NameProblem {
  rule: NameRule;
  /** The part of the path that breaks it (a name, or the path's start). */
  part: string;
  /** Why, in words that follow the part: "is a reserved device name on Windows ...". */
  why: string;
}

/** `CON`, `PRN`, `AUX`, `NUL`, `COM1`-`COM9`, `LPT1`-`LPT9` (and the superscript digits Windows reads as them), `CONIN$`, `CONOUT$`, in any case. */
const RESERVED = /^(con|prn|aux|nul|com[1-9\u00b9\u00b2\u00b3]|lpt[1-9\u00b9\u00b2\u00b3]|conin\$|conout\$)$/i;

/** Characters no Windows name may hold: `<>:"|?*` and the control characters. */
// eslint-disable-next-line no-control-regex -- the control characters are what it finds
const FORBIDDEN = /[<>"|?*\x00-\x1f]/;

/** A short name as Windows makes one for a long name: up to six characters, `~`, a number, and up to three of extension. */
const SHORT_NAME = /^[^\s.~\\/]{1,6}~[0-9]{1,6}(\.[^\s.\\/]{1,3})?$/;

const RESERVED_WORDS = 'CON, PRN, AUX, NUL, COM1-COM9, LPT1-LPT9, CONIN$ and CONOUT$';

/** The problem of one name (a path segment, no separator in it) on Windows, if it has one. */
export function windowsNameProblem(name: string): NameProblem | undefined {
  if (name === '' || name === '.' || name === '..') {
    return undefined;
  }
  // Windows drops trailing dots and spaces before it looks at the rest: `CON .txt`, `nul.` are the device too
  const stem = name.replace(/[. ]+$/, '').split('.')[0].replace(/ +$/, '');
  if (RESERVED.test(stem)) {
    const shown = stem === name ? 'is' : `names ${stem}, which is`;
    return { rule: 'reserved-name', part: name, why: `${shown} a reserved device name on Windows (${RESERVED_WORDS}, with or without an extension, in any case): there it names a device, not a file` };
  }
  const colon = name.indexOf(':');
  if (colon >= 0) {
    const of = name.slice(0, colon);
    return { rule: 'stream', part: name, why: `names an alternate data stream${of ? ` of ${oneLine(of)}` : ''} on Windows (a name holds no ":"): its content would be hidden from every listing` };
  }
  if (/[. ]$/.test(name)) {
    return { rule: 'trailing-dot-or-space', part: name, why: 'ends with a dot or a space, which Windows drops: the file written there would have another name' };
  }
  const bad = FORBIDDEN.exec(name);
  if (bad) {
    const c = bad[0];
    const shown = c.charCodeAt(0) < 0x20 ? `the control character U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : `"${c}"`;
    return { rule: 'character', part: name, why: `holds ${shown}, which no Windows name may hold (<>:"|?* and control characters)` };
  }
  return undefined;
}

/**
 * The problem of a path as the model gave it, before it is resolved, where the platform
 * reads paths as `api` does: on Windows a device path (`\\?\`, `\\.\`, `\??\`) and a
 * path relative to a drive's current folder (`C:foo`) or rooted on the current drive
 * (`\foo`, `/c/foo` as Git Bash writes `C:\foo`) are refused, not guessed at; elsewhere
 * they are ordinary names, and nothing is refused here.
 */
export function inputPathProblem(input: string, api: PathApi): NameProblem | undefined {
  if (api.sep !== '\\') {
    return undefined;
  }
  const device = /^[\\/]{2}[?.][\\/]|^[\\/]\?\?[\\/]/.exec(input);
  if (device) {
    return { rule: 'device-path', part: device[0], why: 'starts a device path, which reaches devices and volumes by their names rather than a file of the workspace' };
  }
  const drive = /^([a-zA-Z]):(?![\\/])/.exec(input);
  if (drive) {
    return {
      rule: 'drive-relative',
      part: `${drive[1]}:`,
      why: `is relative to the current folder of drive ${drive[1].toUpperCase()}:, which is not the workspace's: give the path relative to the workspace, or whole (${drive[1].toUpperCase()}:/...)`,
    };
  }
  const rooted = /^[\\/](?![\\/])/.test(input);
  if (rooted) {
    const git = /^[\\/]([a-zA-Z])(?=[\\/]|$)/.exec(input);
    const hint = git ? ` (a Git Bash path: ${git[1].toUpperCase()}:/${input.slice(3).replace(/\\/g, '/')} written whole, if that is what it means)` : '';
    return {
      rule: 'drive-relative',
      part: input.slice(0, 1),
      why: `roots the path on the current drive, whichever it is: give the path relative to the workspace, or whole with its drive${hint}`,
    };
  }
  return undefined;
}

/**
 * The first problem among the names of a path relative to a folder ("/" or the
 * platform's separators), on Windows; undefined when every name is one Windows keeps.
 */
export function relativePathProblem(rel: string, api: PathApi): NameProblem | undefined {
  const seps = api.sep === '\\' ? /[\\/]/ : /\//;
  for (const seg of rel.split(seps)) {
    const p = windowsNameProblem(seg);
    if (p) {
      return p;
    }
  }
  return undefined;
}

/** Whether a name has the shape of a Windows short name (`PROGRA~1`, `APPTS~1.TS`). */
export function looksLikeShortName(name: string): boolean {
  return SHORT_NAME.test(name);
}

/**
 * Whether `given`, a name as the model wrote it, is a Windows short name (8.3, as
 * `PROGRA~1`) of another entry, whose name on disk is `onDisk`: Windows finds the entry
 * by either, and a rule decided on one name would not have been decided on the file's.
 */
export function isShortNameOf(given: string, onDisk: string, sameName: (a: string, b: string) => boolean): boolean {
  return SHORT_NAME.test(given) && !sameName(given, onDisk);
}

/**
 * The words of a refusal: "src/CON is refused: CON is a reserved device name on Windows
 * ...". `onWindows`: the workspace is there, where no tool reads or writes such a path;
 * elsewhere only a new file so named is refused.
 */
export function nameProblemMessage(display: string, p: NameProblem, onWindows: boolean): string {
  const tail = onWindows
    ? 'No tool reads or writes such a path there.'
    : 'No tool creates a file so named: a repository is shared with Windows users, where it could not be checked out.';
  const fix = p.rule === 'device-path' || p.rule === 'drive-relative' || p.rule === 'short-name' ? '' : ' Use another name.';
  // the name is one the model sent or a tree holds: escaped as every printed name is (see printable)
  return `${display} is refused: ${printable(p.part)} ${p.why}. ${tail}${fix}`;
}
