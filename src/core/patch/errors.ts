import { oneLine } from '../contract';
import { MAX_PATCH_AMBIGUOUS_PLACES, MAX_PATCH_ERROR_LINE_CHARS, MAX_PATCH_ERROR_LINES, MAX_PATCH_FAILED_FILES_SHOWN, MAX_PATCH_FAILURES_CHARS, MAX_PATCH_FAILURES_PER_FILE } from '../limits';
import type { ChunkLine } from './types';

/** The patch text is malformed. `message` names the 1-based `line` and the valid forms. */
export class PatchSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = 'PatchSyntaxError';
  }
}

/** A hunk, as errors name it. */
export interface HunkRef {
  /** 1-based position in the patch. */
  index: number;
  kind: 'add' | 'delete' | 'update';
  path: string;
  movePath?: string;
  patchLine: number;
}

/** A chunk of an update, as errors name it. */
export interface ChunkRef {
  /** 1-based position in its hunk. */
  index: number;
  count: number;
  contexts: string[];
  patchLine: number;
  /** The ` ` and `-` lines the file had to contain, with their marks. */
  oldBody: ChunkLine[];
  /** Earlier chunks of its hunk (1-based) that fail too: this one was placed as if they were not there. */
  afterFailed?: number[];
}

/** Lines of the file near where a chunk was expected. Line numbers are 1-based. */
export interface FileRegion {
  startLine: number;
  lines: string[];
  /** First line that differs from the chunk even loosely compared, with what the chunk expected there. */
  diffLine?: number;
  expected?: string;
}

export type PatchVerifyDetail =
  | { code: 'empty' }
  | { code: 'too-many-paths'; count: number; max: number }
  /** An update or delete of a path that does not exist (`earlier`: a hunk of this patch removed it). */
  | { code: 'missing'; hunk: HunkRef; path: string; earlier?: { hunk: HunkRef; how: 'deleted' | 'moved' }; suggestions?: string[] }
  /** The path (or the move destination `path`) is a folder. */
  | { code: 'directory'; hunk: HunkRef; path: string }
  | { code: 'context-not-found'; hunk: HunkRef; path: string; chunk: ChunkRef; context: string; searchFrom: number; earlier?: number; closest?: { line: number; text: string }; textAfterHunk?: number }
  /**
   * The `@@` text is no whole line of the file, and several lines start with it after
   * which the chunk would go to different places (`candidates`: the first few; `more`: others too).
   */
  | { code: 'context-ambiguous'; hunk: HunkRef; path: string; chunk: ChunkRef; context: string; searchFrom: number; candidates: { line: number; text: string }[]; more: boolean; textAfterHunk?: number }
  /**
   * The chunk's old lines are not where the chunk may go. `elsewhere`: they are in the
   * file, but before the previous chunk's end, or (an End of File chunk) not at the end.
   */
  | {
      code: 'no-match';
      hunk: HunkRef;
      path: string;
      chunk: ChunkRef;
      searchFrom: number;
      elsewhere?: { line: number; why: 'before-previous' | 'not-at-end' };
      closest?: FileRegion;
      textAfterHunk?: number;
    }
  /** The chunk fits in several places (`places`, 1-based, at most a few; `count` in all). */
  /** `inBlocks`: the places (the first few) still left inside the blocks its `@@` lines open, when they did not settle it. */
  /** `readings`: the places are those of its kept lines read with their leading space as a marker and as part of the line. */
  | { code: 'ambiguous'; hunk: HunkRef; path: string; chunk: ChunkRef; places: number[]; count: number; inBlocks?: number[]; readings?: true; textAfterHunk?: number }
  /** A chunk of `+` lines only, under a `@@` line that is not the end of the file. */
  | { code: 'insertion-unanchored'; hunk: HunkRef; path: string; chunk: ChunkRef }
  /** A chunk of `+` lines only (it goes at the end of the file) before chunk `later`, which changes lines of the file. */
  | { code: 'insertion-not-last'; hunk: HunkRef; path: string; chunk: ChunkRef; later: number }
  /** `path` is moved by one hunk and touched by another in a way one patch cannot express safely. */
  | { code: 'move-sequence'; hunk: HunkRef; path: string; other: HunkRef }
  /**
   * The chunk was found only with its leading whitespace forgiven, and its added line `line`
   * (as written) would land at `width` columns, where no line around it stands: `region`,
   * the file around the place, as it is.
   */
  | { code: 'indent-uncertain'; hunk: HunkRef; path: string; chunk: ChunkRef; line: string; width: number; region: FileRegion; textAfterHunk?: number };

export type PatchVerifyCode = PatchVerifyDetail['code'];

/**
 * The patch does not fit the files. Nothing was applied; `failures` says what and where,
 * every one found (each file and chunk is verified), in patch order; `detail` is the first.
 */
export class PatchVerifyError extends Error {
  readonly code: PatchVerifyCode;
  readonly detail: PatchVerifyDetail;
  readonly failures: PatchVerifyDetail[];

  constructor(failures: PatchVerifyDetail | PatchVerifyDetail[]) {
    const all = Array.isArray(failures) ? failures : [failures];
    super(describeVerifyFailures(all));
    this.name = 'PatchVerifyError';
    this.failures = all;
    this.detail = all[0];
    this.code = this.detail.code;
  }
}

/** The path a failure is grouped under, when it has one. */
export function failurePath(d: PatchVerifyDetail): string | undefined {
  return 'path' in d ? d.path : undefined;
}

/**
 * Every failure in one answer, grouped per file in the order the patch first names it: a
 * few per file, a few files, within a size, then the count of the rest. One failure reads
 * as `describe` tells it. `describe` may hide what a file holds (see `describeWithoutContent`).
 */
export function describeVerifyFailures(failures: readonly PatchVerifyDetail[], describe: (d: PatchVerifyDetail) => string = describeVerifyError): string {
  if (failures.length === 1) {
    return describe(failures[0]);
  }
  const groups = new Map<string, PatchVerifyDetail[]>();
  for (const d of failures) {
    const key = failurePath(d) ?? '';
    const g = groups.get(key);
    if (g) {
      g.push(d);
    } else {
      groups.set(key, [d]);
    }
  }
  const files = groups.size;
  const only = files === 1 ? [...groups.keys()][0] : undefined;
  const out = [only !== undefined && only !== '' ? `${failures.length} problems in ${quoteLine(only)}:` : `${failures.length} problems${files > 1 ? ` in ${files} files` : ''}, each below${files > 1 ? ', grouped by file' : ''}:`];
  let size = out[0].length;
  let shown = 0;
  let filesShown = 0;
  let full = false;
  for (const [path, list] of groups) {
    if (full || filesShown >= MAX_PATCH_FAILED_FILES_SHOWN) {
      break;
    }
    const head = `In ${quoteLine(path)}: ${list.length === 1 ? '1 problem' : `${list.length} problems`}`;
    const parts: string[] = [];
    for (const d of list.slice(0, MAX_PATCH_FAILURES_PER_FILE)) {
      const text = describe(d);
      if (size + head.length + text.length + 2 > MAX_PATCH_FAILURES_CHARS && (shown > 0 || parts.length > 0)) {
        full = true;
        break;
      }
      parts.push(text);
      size += text.length + 1;
    }
    if (parts.length === 0) {
      break;
    }
    filesShown++;
    shown += parts.length;
    size += head.length + 1;
    // one file: the first line named it and counted its problems
    out.push(...(only !== undefined && only !== '' ? [] : [`${head}${parts.length < list.length ? ` (${parts.length} shown)` : ''}:`]), ...parts);
  }
  if (shown < failures.length) {
    const rest = failures.length - shown;
    const restFiles = files - filesShown;
    out.push(`And ${rest === 1 ? '1 more problem' : `${rest} more problems`} not shown${restFiles > 0 ? `, ${restFiles === 1 ? 'in 1 more file' : `in ${restFiles} more files`}` : ''}: fix those above and send the patch again to see them.`);
  }
  return out.join('\n');
}

const HEADERS = { add: 'Add File', delete: 'Delete File', update: 'Update File' } as const;

export function quoteLine(text: string): string {
  // on one line whatever it holds (a line separator or a control character is escaped), cut when long
  const one = oneLine(text.length > MAX_PATCH_ERROR_LINE_CHARS ? text.slice(0, MAX_PATCH_ERROR_LINE_CHARS) : text);
  return text.length > MAX_PATCH_ERROR_LINE_CHARS ? `${one}... (${text.length} characters)` : one;
}

function hunkName(h: HunkRef): string {
  return `\`*** ${HEADERS[h.kind]}: ${quoteLine(h.path)}\` (patch line ${h.patchLine})`;
}

function chunkName(c: ChunkRef): string {
  const at = c.contexts.length > 0 ? `, ${c.contexts.map((x) => `\`@@ ${quoteLine(x)}\``).join(' then ')}` : '';
  const skipped = c.afterFailed && c.afterFailed.length > 0 ? `; placed as if ${c.afterFailed.length === 1 ? `chunk ${c.afterFailed[0]}, which fails too, were` : `chunks ${list(c.afterFailed)}, which fail too, were`} not there, so where it goes is not certain` : '';
  return `chunk ${c.index} of ${c.count} (patch line ${c.patchLine}${at}${skipped})`;
}

function list(ns: readonly number[]): string {
  return ns.length <= 1 ? ns.join('') : `${ns.slice(0, -1).join(', ')} and ${ns[ns.length - 1]}`;
}

function after(searchFrom: number): string {
  return searchFrom > 1 ? ` after line ${searchFrom - 1}` : '';
}

function asEdited(textAfterHunk: number | undefined): string {
  return textAfterHunk === undefined ? '' : ` (line numbers are those of the file as hunk ${textAfterHunk} of this patch leaves it)`;
}

function showOld(body: readonly ChunkLine[]): string[] {
  const shown = body.slice(0, MAX_PATCH_ERROR_LINES).map((l) => `${l.op}${quoteLine(l.text)}`);
  if (body.length > MAX_PATCH_ERROR_LINES) {
    shown.push(`(${body.length - MAX_PATCH_ERROR_LINES} more lines)`);
  }
  return shown;
}

function showRegion(path: string, r: FileRegion): string[] {
  const last = r.startLine + r.lines.length - 1;
  const range = r.lines.length === 1 ? `line ${r.startLine}` : `lines ${r.startLine}-${last}`;
  // Keep the first difference in view when the region is longer than the cap.
  let from = 0;
  if (r.diffLine !== undefined && r.lines.length > MAX_PATCH_ERROR_LINES) {
    from = Math.max(0, Math.min(r.diffLine - r.startLine - 2, r.lines.length - MAX_PATCH_ERROR_LINES));
  }
  const lines = r.lines.slice(from, from + MAX_PATCH_ERROR_LINES).map((t, i) => `L${r.startLine + from + i}: ${quoteLine(t)}`);
  const diff =
    r.diffLine === undefined || r.expected === undefined
      ? ''
      : r.diffLine > last
        ? `; the file ends at line ${last}, where the patch expects one more line, \`${quoteLine(r.expected)}\``
        : `; first difference at line ${r.diffLine}, where the patch expects \`${quoteLine(r.expected)}\``;
  return [`Closest region of ${path}: ${range}${diff}:`, ...lines];
}

/** The explanation of a verification failure, in the words the model reads. */
export function describeVerifyError(detail: PatchVerifyDetail): string {
  // a path as the patch wrote it, on one line whatever it holds
  const d = 'path' in detail ? ({ ...detail, path: oneLine(detail.path) } as PatchVerifyDetail) : detail;
  switch (d.code) {
    case 'empty':
      return 'The patch has no file operations.';
    case 'too-many-paths':
      return `The patch names ${d.count} paths; one patch may name at most ${d.max}. Split it into several patches.`;
    case 'missing': {
      const why = d.earlier
        ? d.earlier.how === 'deleted'
          ? ` (${hunkName(d.earlier.hunk)} deletes it earlier in this patch)`
          : ` (${hunkName(d.earlier.hunk)} moves it to ${quoteLine(d.earlier.hunk.movePath ?? '')} earlier in this patch)`
        : '';
      const fix =
        d.hunk.kind === 'delete'
          ? 'Check the path (fs_glob), or leave this hunk out.'
          : `To create it, use \`*** Add File: ${d.path}\` with the whole content as \`+\` lines; otherwise check the path (fs_glob).`;
      const guesses = d.suggestions && d.suggestions.length > 0 ? ['Did you mean one of these?', ...d.suggestions.map((p) => `- ${quoteLine(p)}`)] : [];
      return [`${hunkName(d.hunk)}: ${d.path} does not exist${why}. ${fix}`, ...guesses].join('\n');
    }
    case 'directory':
      return d.hunk.kind === 'update' && d.hunk.movePath !== undefined && d.path === d.hunk.movePath
        ? `${hunkName(d.hunk)}: the move destination ${d.path} is a folder. Name the new file's full path in \`*** Move to:\`.`
        : `${hunkName(d.hunk)}: ${d.path} is a folder; a patch adds, updates, moves and deletes files only.`;
    case 'context-not-found': {
      const earlier = d.earlier !== undefined ? ` It is line ${d.earlier}, above line ${d.searchFrom}, where the search began (after the previous chunk): list the chunks of a file from top to bottom.` : '';
      const closest = d.earlier === undefined && d.closest ? ` The most similar line is L${d.closest.line}: \`${quoteLine(d.closest.text)}\`.` : '';
      return (
        `${hunkName(d.hunk)}, ${chunkName(d.chunk)}: the \`@@\` text \`${quoteLine(d.context)}\` matches no line of ${d.path}${after(d.searchFrom)}${asEdited(d.textAfterHunk)}.${earlier}${closest} ` +
        'A `@@` line must repeat a line of the file above the change, or the start of one (surrounding whitespace may differ).'
      );
    }
    case 'context-ambiguous': {
      const lines = d.candidates.map((c) => `L${c.line}: ${quoteLine(c.text)}`);
      return [
        `${hunkName(d.hunk)}, ${chunkName(d.chunk)}: the \`@@\` text \`${quoteLine(d.context)}\` is not a whole line of ${d.path}, and ${d.more ? 'many' : d.candidates.length} of its lines${after(d.searchFrom)} start with it, under which the chunk would go to different places${asEdited(d.textAfterHunk)}:`,
        ...lines,
        ...(d.more ? ['(and more)'] : []),
        'Write the `@@` line as the whole line of the one you mean (or enough of its start that only it begins so).',
      ].join('\n');
    }
    case 'no-match': {
      const head = `${hunkName(d.hunk)}, ${chunkName(d.chunk)}: its old lines (marked \` \` or \`-\`) are not in ${d.path}${after(d.searchFrom)}${asEdited(d.textAfterHunk)}, even ignoring whitespace around lines and typographic punctuation. The patch expects:`;
      const out = [head, ...showOld(d.chunk.oldBody)];
      if (d.elsewhere?.why === 'before-previous') {
        out.push(`These lines are at line ${d.elsewhere.line}, above line ${d.searchFrom}, where the search began (after the previous chunk and this chunk's \`@@\` lines): list the chunks of a file from top to bottom, each below its \`@@\` lines.`);
      } else if (d.elsewhere?.why === 'not-at-end') {
        out.push(`These lines are at line ${d.elsewhere.line}, but the chunk ends with \`*** End of File\`, so they must be the last lines of the file: remove that marker, or end the chunk with the file's last lines.`);
      } else if (d.closest) {
        out.push(...showRegion(d.path, d.closest));
      } else {
        out.push(`No region of ${d.path} resembles these lines.`);
      }
      return out.join('\n');
    }
    case 'ambiguous': {
      const more = d.count > d.places.length ? ` and ${d.count - d.places.length} more` : '';
      const places = more ? `${d.places.join(', ')}${more}` : list(d.places);
      if (d.inBlocks && d.inBlocks.length > 1 && d.chunk.contexts.length > 0) {
        const shown = d.inBlocks.length > MAX_PATCH_AMBIGUOUS_PLACES ? `${d.inBlocks.slice(0, MAX_PATCH_AMBIGUOUS_PLACES).join(', ')} and more` : list(d.inBlocks);
        const named = d.chunk.contexts.map((x) => `\`@@ ${quoteLine(x)}\``).join(' then ');
        return (
          `${hunkName(d.hunk)}, ${chunkName(d.chunk)}: its old lines (marked \` \` or \`-\`) fit ${d.path} more than once inside the block ${named} names (starting at lines ${shown})${asEdited(d.textAfterHunk)}, ` +
          'and the patch does not say which one it means. Add unchanged ` ` lines around the change, or a further `@@` line naming the block inside it that holds the change (`@@ class A` then `@@ def run():`), until only one place fits.'
        );
      }
      if (d.readings) {
        return (
          `${hunkName(d.hunk)}, ${chunkName(d.chunk)}: some of its kept lines have no leading space, so a kept line that starts with a space may mean that space or not, and the two readings ${d.places.length === 2 && d.places[0] !== d.places[1] ? `fit ${d.path} at different places (lines ${places})` : `fit ${d.path} at line ${d.places[0]} only with indentation forgiven, and would indent its added lines differently`}${asEdited(d.textAfterHunk)}. ` +
          'Start every kept line with a space, followed by the line as the file has it.'
        );
      }
      return (
        `${hunkName(d.hunk)}, ${chunkName(d.chunk)}: its old lines (marked \` \` or \`-\`) fit ${d.path} in ${d.count} places (starting at lines ${places})${asEdited(d.textAfterHunk)}, ` +
        'and the patch does not say which one it means. Add unchanged ` ` lines around the change, or a `@@` line repeating a line above it (its function or class), until only one place fits.'
      );
    }
    case 'insertion-unanchored': {
      const ctx = d.chunk.contexts[d.chunk.contexts.length - 1] ?? '';
      return (
        `${hunkName(d.hunk)}, ${chunkName(d.chunk)}: the chunk has only \`+\` lines, and such a chunk goes at the end of the file, but its \`@@\` line is not the last line of ${d.path}. ` +
        `To insert after a line, repeat that line as an unchanged line (\` ${quoteLine(ctx)}\`) before the \`+\` lines.`
      );
    }
    case 'insertion-not-last':
      return (
        `${hunkName(d.hunk)}, ${chunkName(d.chunk)}: the chunk has only \`+\` lines, and such a chunk goes at the end of the file, but chunk ${d.later} after it changes lines of ${d.path}, which are above the end. ` +
        'To insert above another change, repeat the line above the insertion as an unchanged line (a ` ` line) before the `+` lines; to add at the end of the file, make this chunk the last one.'
      );
    case 'indent-uncertain': {
      const r = d.region;
      return [
        `${hunkName(d.hunk)}, ${chunkName(d.chunk)}: its old lines fit ${d.path} only with their indentation forgiven, and its added line \`+${quoteLine(d.line)}\` would land at ${d.width} columns, and there it would not sit among the lines around it as the patch puts it${asEdited(d.textAfterHunk)}. ` +
          'Where it belongs is not certain (indentation carries meaning: YAML, Python, Makefiles), so it was not written. The file has there:',
        ...r.lines.slice(0, MAX_PATCH_ERROR_LINES).map((t, i) => `L${r.startLine + i}: ${quoteLine(t)}`),
        "Write the chunk's lines with the file's indentation.",
      ].join('\n');
    }
    case 'move-sequence':
      return (
        `${hunkName(d.hunk)} and ${hunkName(d.other)} both involve ${d.path}, and one of them moves it. ` +
        'In one patch a moved file may be updated before the move (under its old path) or after it (under its new path), nothing else. Split the patch into two patches.'
      );
  }
}

/**
 * The explanation of a failure that depends on what the file holds (where the lines are
 * not, or are more than once), with nothing of its content: no region, no line numbers,
 * no similar line. For a file the model may not read without asking. Undefined for
 * failures that say nothing of the content.
 */
export function describeWithoutContent(d: PatchVerifyDetail): string | undefined {
  switch (d.code) {
    case 'no-match':
    case 'context-not-found':
    case 'context-ambiguous':
    case 'ambiguous':
    case 'insertion-unanchored':
    case 'insertion-not-last':
    case 'indent-uncertain':
      return (
        `${hunkName(d.hunk)}, ${chunkName(d.chunk)}: the chunk does not fit ${d.path} in exactly one place. ` +
        `${d.path} may hold secrets or lies outside the workspace, so nothing of its content is shown here. Read it with fs_read (the user is asked first), then send the patch again.`
      );
    default:
      return undefined;
  }
}

/** Places shown in an ambiguity error: the first few of `all`. */
export function somePlaces(all: readonly number[]): number[] {
  return all.slice(0, MAX_PATCH_AMBIGUOUS_PLACES);
}
