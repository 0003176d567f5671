import * as nodePath from 'node:path';
import { callText } from '../contract';
import { formatBytes } from '../format';
import { MAX_INSTRUCTION_FILE_BYTES, MAX_INSTRUCTION_REQUESTS, MAX_INSTRUCTIONS_TOTAL_BYTES } from '../limits';

/**
 * Instruction files that apply to a file the model reads: `AGENTS.md` and `CLAUDE.md`
 * in the file's folder and each parent up to, not including, the workspace root (the
 * root's own are already in the chat's context). They go after the read in a
 * `<system-reminder>` block, once per chat request, so a model working deep in a
 * repository learns that folder's rules when it first looks there.
 *
 * Order: outermost folder first, the file's own folder last, `AGENTS.md` before
 * `CLAUDE.md` within a folder: the nearest, most specific rules are read last.
 */

/** Names looked for in each folder, in the order they are given. */
export const INSTRUCTION_FILE_NAMES: readonly string[] = ['AGENTS.md', 'CLAUDE.md'];

/** The part of `node:path` used, so Windows paths can be tested on any machine. */
export type PathApi = Pick<typeof nodePath, 'dirname' | 'join' | 'relative' | 'isAbsolute' | 'sep'>;

/**
 * Paths where instruction files for `filePath` may be, outermost first. Empty when the
 * file is in the root itself or outside `rootPath`. The file itself is never one.
 */
export function instructionCandidates(filePath: string, rootPath: string, path: PathApi = nodePath): string[] {
  const dirs: string[] = [];
  let dir = path.dirname(filePath);
  for (;;) {
    const rel = path.relative(rootPath, dir);
    if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) {
      break;
    }
    dirs.push(dir);
    const parent = path.dirname(dir);
    if (parent === dir) {
      break;
    }
    dir = parent;
  }
  return dirs
    .reverse()
    .flatMap((d) => INSTRUCTION_FILE_NAMES.map((name) => path.join(d, name)))
    .filter((p) => p !== filePath);
}

/** The candidates that exist, in the same order. */
export async function findInstructionFiles(filePath: string, rootPath: string, exists: (path: string) => Promise<boolean>, path: PathApi = nodePath): Promise<string[]> {
  const candidates = instructionCandidates(filePath, rootPath, path);
  const found = await Promise.all(candidates.map((c) => exists(c).catch(() => false)));
  return candidates.filter((_, i) => found[i]);
}

export interface InstructionFile {
  path: string;
  /** What is shown: the whole text, or its first lines when cut. */
  content: string;
  /** UTF-8 bytes of the whole file. */
  bytes: number;
  /** Set when the file was cut: the 1-based line a read of the rest starts at. */
  nextLine?: number;
  /** Why the file could not be read, instead of content. */
  error?: string;
  /** Why the file was not read at all (the path policy refused it): said in one line. */
  skipped?: string;
  /** True when the total cap left no room for this file at all. */
  omitted?: boolean;
}

/**
 * What a reader gives for one instruction file: its whole text; the start of a larger
 * file (at most the cap, never the whole file read and then cut) with the file's size;
 * or why it was skipped.
 */
export type InstructionText = string | { text: string; bytes: number; complete: boolean } | { skipped: string };

/**
 * The start of `text` within `maxBytes` of UTF-8, ending at a line break when one is
 * in the second half, so that the cut falls between lines. `next` is the line that
 * a continued read starts at (the cut line itself when the cut fell inside it).
 */
function cutText(text: string, maxBytes: number): { content: string; next: number } {
  const buf = Buffer.from(text, 'utf8');
  let end = maxBytes;
  // Step back to a character boundary: continuation bytes are 10xxxxxx.
  while (end > 0 && (buf[end] & 0xc0) === 0x80) {
    end--;
  }
  let content = buf.subarray(0, end).toString('utf8');
  const nl = content.lastIndexOf('\n');
  if (nl >= content.length / 2) {
    content = content.slice(0, nl + 1);
  }
  const breaks = content.split('\n').length - 1;
  return { content: content.replace(/\n$/, ''), next: breaks + 1 };
}

/**
 * Reads the files, each cut to `maxBytesEach`, all of them to `maxBytesTotal`; when
 * the total runs out, the outermost files give way first, since the nearest rules are
 * the most specific. A file that cannot be read is kept with its error.
 */
export async function loadInstructionFiles(
  paths: readonly string[],
  read: (path: string) => Promise<InstructionText>,
  maxBytesEach: number = MAX_INSTRUCTION_FILE_BYTES,
  maxBytesTotal: number = MAX_INSTRUCTIONS_TOTAL_BYTES,
): Promise<InstructionFile[]> {
  const texts = await Promise.all(
    paths.map((p) =>
      read(p).then(
        (t): { text: string; bytes: number; complete: boolean } | { skipped: string } => (typeof t === 'string' ? { text: t, bytes: Buffer.byteLength(t, 'utf8'), complete: true } : t),
        (e: unknown) => ({ error: e instanceof Error ? e.message : String(e) }),
      ),
    ),
  );
  const files: InstructionFile[] = new Array(paths.length);
  let left = maxBytesTotal;
  for (let i = paths.length - 1; i >= 0; i--) {
    const t = texts[i];
    if ('error' in t) {
      files[i] = { path: paths[i], content: '', bytes: 0, error: t.error };
      continue;
    }
    if ('skipped' in t) {
      files[i] = { path: paths[i], content: '', bytes: 0, skipped: t.skipped };
      continue;
    }
    const bytes = t.bytes;
    const text = t.text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
    const room = Math.min(maxBytesEach, left);
    if (t.complete && Buffer.byteLength(text, 'utf8') <= room) {
      files[i] = { path: paths[i], content: text.replace(/\n$/, ''), bytes };
      left -= bytes;
    } else if (room > 0) {
      const { content, next } = cutText(text, room);
      files[i] = { path: paths[i], content, bytes, nextLine: next };
      left -= Buffer.byteLength(content, 'utf8');
    } else {
      files[i] = { path: paths[i], content: '', bytes, omitted: true };
    }
  }
  return files;
}

function attr(value: string): string {
  return value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface ReminderOptions {
  /** How the read file is named. */
  forPath: string;
  /**
   * How an instruction file's path is shown.
   * @default the path relative to `rootPath` with "/" separators
   */
  display?: (path: string) => string;
  /** How a call names an instruction file (`display` unescaped). @default `display` */
  callPath?: (path: string) => string;
  /** The workspace root, for the default `display`. */
  rootPath?: string;
  /** @default node:path */
  path?: PathApi;
}

/**
 * The `<system-reminder>` block, or undefined when there are no files:
 *
 * ```
 * <system-reminder>
 * Instructions for src/app/main.ts from AGENTS.md and CLAUDE.md files in its folders, outermost first; where they disagree, the nearer folder's file wins.
 * <instructions path="src/AGENTS.md">
 * Use tabs.
 * </instructions>
 * </system-reminder>
 * ```
 */
export function renderInstructionReminder(files: readonly InstructionFile[], opts: ReminderOptions): string | undefined {
  if (files.length === 0) {
    return undefined;
  }
  const path = opts.path ?? nodePath;
  const root = opts.rootPath;
  const display = opts.display ?? ((p: string) => (root !== undefined ? path.relative(root, p).split(path.sep).join('/') : p));
  const out = [
    '<system-reminder>',
    `Instructions for ${opts.forPath} from AGENTS.md and CLAUDE.md files in its folders, outermost first; where they disagree, the nearer folder's file wins.`,
  ];
  for (const f of files) {
    const shown = display(f.path);
    const named = opts.callPath?.(f.path) ?? shown;
    if (f.skipped !== undefined) {
      out.push(`(Skipped ${shown}: ${f.skipped}.)`);
      continue;
    }
    out.push(`<instructions path="${attr(shown)}">`);
    if (f.error !== undefined) {
      out.push(`(Could not be read: ${f.error})`);
    } else if (f.omitted) {
      out.push(`(Not included: it is ${formatBytes(f.bytes)}, and the nearer instructions above fill the space allowed. Read it with: ${callText('fs_read', { path: named })})`);
    } else {
      out.push(f.content);
      if (f.nextLine !== undefined) {
        out.push(`(Cut: the file is ${formatBytes(f.bytes)}, and only its start is shown. Read the rest with: ${callText('fs_read', { path: named, offset: f.nextLine })})`);
      }
    }
    out.push('</instructions>');
  }
  out.push('</system-reminder>');
  return out.join('\n');
}

/**
 * Which instruction files each chat request has already been given, so that a
 * request reading ten files of one folder gets that folder's rules once. Bounded:
 * the least recently used requests are forgotten first.
 */
export class InstructionMemory {
  private readonly given = new Map<string, Set<string>>();

  constructor(private readonly maxRequests: number = MAX_INSTRUCTION_REQUESTS) {}

  /** The paths not yet given in `requestKey`, in order; they count as given from now on. */
  take(requestKey: string, paths: readonly string[]): string[] {
    let seen = this.given.get(requestKey);
    if (seen) {
      // Refresh: a request still reading is not the one to forget.
      this.given.delete(requestKey);
    } else {
      seen = new Set();
    }
    this.given.set(requestKey, seen);
    while (this.given.size > this.maxRequests) {
      const oldest = this.given.keys().next().value as string;
      this.given.delete(oldest);
    }
    const fresh = paths.filter((p) => !seen.has(p));
    for (const p of fresh) {
      seen.add(p);
    }
    return fresh;
  }

  /** Requests remembered now. */
  get size(): number {
    return this.given.size;
  }
}

export interface InstructionReminderRequest {
  /** Absolute path of the file read. */
  filePath: string;
  /** Absolute path of the workspace folder that holds it. */
  rootPath: string;
  /** How the read file is named in the block. */
  forPath: string;
  exists: (path: string) => Promise<boolean>;
  read: (path: string) => Promise<InstructionText>;
  /** Skips files this request was already given, when both are set. */
  memory?: InstructionMemory;
  requestKey?: string;
  display?: (path: string) => string;
  path?: PathApi;
}

/** Finds, filters by what the request already had, reads and renders: the block to append, if any. */
export async function instructionReminder(r: InstructionReminderRequest): Promise<string | undefined> {
  let paths = await findInstructionFiles(r.filePath, r.rootPath, r.exists, r.path);
  if (r.memory && r.requestKey !== undefined) {
    paths = r.memory.take(r.requestKey, paths);
  }
  if (paths.length === 0) {
    return undefined;
  }
  const files = await loadInstructionFiles(paths, r.read);
  return renderInstructionReminder(files, { forPath: r.forPath, display: r.display, rootPath: r.rootPath, path: r.path });
}
