/**
 * The patch format of fs_apply_patch (the apply_patch format of Codex), read leniently.
 *
 * Grammar (NL is `\n` or `\r\n`; `text` is the rest of the line, verbatim):
 *
 *   patch      := "*** Begin Patch" NL hunk+ "*** End Patch" NL?
 *   hunk       := add | delete | update
 *   add        := "*** Add File: " path NL ("+" text NL)*
 *   delete     := "*** Delete File: " path NL
 *   update     := "*** Update File: " path NL ("*** Move to: " path NL)? chunk+
 *   chunk      := ("@@" NL | "@@ " context NL)* line+ ("*** End of File" NL)?
 *   line       := " " text NL        a line kept as it is (`text` must be in the file)
 *               | "-" text NL        a line removed (`text` must be in the file)
 *               | "+" text NL        a line added
 *               | NL                 an empty kept line
 *               | "\ " text NL       "\ No newline at end of file": the line above ends the file without a line break
 *               | bare NL            a kept line written without its leading space (see below)
 *
 * Only the first chunk of an update may leave out its `@@` line. A chunk's ` ` and `-`
 * lines are its old lines: they must appear in the file, in order, contiguous. Each
 * `@@ context` names one whole line of the file above the old lines (a function or class
 * header); several `@@` lines in a row are found one after the other (`@@ class A` then
 * `@@ def run():`). `*** End of File` says the old lines end the file.
 *
 * Lenient forms, each with a single meaning:
 * - whitespace around the whole text and around markers and headers, blank lines between
 *   hunks and after a hunk header; header words in any case, any spacing at `:`;
 * - a heredoc wrapper: a first line `<<EOF`, `<<'EOF'` or `<<"EOF"` (any word for EOF,
 *   optionally after `cat` or `apply_patch`, or `cat <<'EOF' | apply_patch`) and a last line `EOF`; a Markdown code fence;
 * - `@@ -12,7 +12,8 @@ text` (unified-diff numbers are ignored, `text` is the context) and
 *   `@@ text @@`;
 * - blank lines among an added file's `+` lines, when more `+` lines follow (empty lines);
 * - a whitespace-only line in a chunk is an empty kept line;
 * - a kept line without its leading space (`bare`): a chunk line that starts with none of
 *   ` `, `-`, `+`, `@@`, `***` or `\ ` is a kept line, its whole text the line's. A line
 *   starting with `-` or `+` always keeps that meaning, and one starting with `***` that is
 *   not a marker stays an error (a header or a line: two readings). In a chunk with a bare
 *   line, a line starting with a space may be a kept line with its marker or one whose own
 *   text starts with a space; place.ts tries both readings (chunks.ts `readingsOf`);
 * - a section header with no lines under it (an `*** Update File:` with no chunk and no
 *   move, a last `@@` line with nothing under it) is empty: left out and listed in
 *   `ParsedPatch.empty`, never an error, unless the whole patch is nothing else;
 * - blank lines at the end of a chunk of added lines (before the next `@@`, header or
 *   `*** End Patch`) separate it from what follows: an empty line alone places nothing.
 * Inside a chunk a line starting with a space is always a kept line, even when it looks
 * like an indented marker or `@@` line: a file may contain such text. A blank line
 * between two chunks is an empty kept line of the first (as in Codex); a chunk whose old
 * lines end with empty lines is also tried without them, since such a line is often a
 * separator. Anything else is an error naming
 * its line and the valid forms. Paths are kept as written (trimmed); the caller resolves
 * and polices them.
 *
 * What a patch means (plan.ts):
 * - Every hunk is verified in memory before anything is written; any failure rejects the
 *   whole patch. The plan holds one change per file: the net effect of its hunks.
 * - Hunks apply in order, each to the result of the hunks before it (as Codex applies
 *   them): a file may be updated twice, added then updated, deleted then added (an add
 *   that overwrites), updated then deleted; an update or delete of a path an earlier hunk
 *   deleted or moved away fails. A moved file may be updated before its move (old path) and
 *   after it (new path); any other second use of a move's source or destination is refused.
 * - Add over an existing file and Move onto an existing file overwrite it, as in Codex;
 *   the plan marks both (`overwrites`, `moveOverwrites`). A folder is never a target.
 * - Matching: see seek.ts for the four passes. A chunk is sought after the previous chunk
 *   of its file (and after its `@@` lines); chunks that fit in more than one way are
 *   refused as ambiguous, never applied at the first fit: the patch is placed
 *   as early as possible and as late as possible, and every chunk must land on the same
 *   line both ways. When they differ, a `@@` line that opens a block (its next line is
 *   indented deeper: a function, a class) is read as holding its chunk inside that block,
 *   up to the next header like it (scope.ts), and the patch applies when that leaves every
 *   chunk one place: `@@ def a():` picks a's lines over the same lines in b below it.
 *   A chunk with only `+` lines is appended at the end of the file (before
 *   a final empty line), as in Codex, so only chunks without old lines may follow it; under
 *   a `@@` line it is accepted only when that line is the file's last, where both readings
 *   agree.
 * - Text: kept lines keep the file's text and terminator byte for byte (a fuzzy match does
 *   not rewrite them); added lines take, in order, the terminators of the lines they
 *   replace, then the file's dominant ending. An updated file ends as it ended: with a line
 *   ending when it had one, without when it had none, whichever chunk changed its last
 *   line, unless a `\ No newline at end of file` line of the chunk that ends the file says
 *   otherwise (an empty result stays empty). Codex ends every updated file with a line
 *   ending (its scenario 014 is named for it, though its input already ends with one); here
 *   the file's own ending wins, as in fs_edit: a change the patch does not show would land
 *   unseen in the diff and in the file. Added files use `\n`.
 * - Indentation: a chunk found with its leading whitespace forgiven writes its added lines
 *   at the file's indentation (indent.ts), or is refused with the region shown.
 */
import { MAX_PATCH_CHARS } from '../limits';
import { PatchSyntaxError, quoteLine } from './errors';
import type { Chunk, ChunkLine, EmptySection, Hunk, ParsedPatch } from './types';

const BEGIN_RE = /^\*\*\*\s*begin\s+patch$/i;
const END_RE = /^\*\*\*\s*end\s+patch$/i;
const ADD_RE = /^\*\*\*\s*add\s+file\s*:(.*)$/i;
const DELETE_RE = /^\*\*\*\s*delete\s+file\s*:(.*)$/i;
const UPDATE_RE = /^\*\*\*\s*update\s+file\s*:(.*)$/i;
const MOVE_RE = /^\*\*\*\s*move\s+to\s*:(.*)$/i;
const EOF_RE = /^\*\*\*\s*end\s+of\s+file$/i;
const HEREDOC_RE = /^(?:(?:cat|apply_patch|applypatch)\s*)?<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1(?:\s*\|\s*(?:apply_patch|applypatch))?$/;
const FENCE_OPEN_RE = /^(```|~~~)[\w+-]*$/;
const UNIFIED_RANGE_RE = /^-\d+(?:,\d+)?\s+\+\d+(?:,\d+)?\s*@@\s?(.*)$/;

const HEADER_FORMS = '`*** Add File: <path>`, `*** Delete File: <path>` or `*** Update File: <path>`';
const LINE_FORMS = "` ` (a line kept as it is), `-` (a line removed) or `+` (a line added)";

function fail(line: number, message: string): never {
  throw new PatchSyntaxError(line, `Line ${line}: ${message}`);
}

function show(line: string): string {
  return `\`${quoteLine(line.trim())}\``;
}

/** Splits on `\n`, dropping one `\r` before it; line i is 1-based line i + 1 of the text. */
function splitPatchLines(text: string): string[] {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].endsWith('\r')) {
      lines[i] = lines[i].slice(0, -1);
    }
  }
  if (lines.length > 0 && lines[0].startsWith('\uFEFF')) {
    lines[0] = lines[0].slice(1);
  }
  return lines;
}

/** Index of the first and last non-blank line in [from, to], or undefined. */
function trimRange(lines: readonly string[], from: number, to: number): [number, number] | undefined {
  while (from <= to && lines[from].trim() === '') {
    from++;
  }
  while (to >= from && lines[to].trim() === '') {
    to--;
  }
  return from <= to ? [from, to] : undefined;
}

/** Strips heredoc and code-fence wrappers, returning the range of the patch proper. */
function unwrap(lines: readonly string[], first: number, last: number): [number, number] {
  for (let round = 0; round < 3; round++) {
    const open = lines[first].trim();
    if (BEGIN_RE.test(open)) {
      break;
    }
    const heredoc = HEREDOC_RE.exec(open);
    const fence = FENCE_OPEN_RE.exec(open);
    const close = heredoc ? heredoc[2] : fence ? fence[1] : undefined;
    if (close === undefined) {
      break;
    }
    if (first === last || lines[last].trim() !== close) {
      fail(last + 1, `the text opens with ${show(open)} on line ${first + 1} but its last line is ${show(lines[last])}, not \`${close}\`. Send the patch from \`*** Begin Patch\` to \`*** End Patch\`, with no wrapper or a complete one.`);
    }
    const inner = trimRange(lines, first + 1, last - 1);
    if (!inner) {
      fail(first + 2, `nothing between ${show(open)} and \`${close}\`: the patch starts with \`*** Begin Patch\`.`);
    }
    [first, last] = inner;
  }
  return [first, last];
}

/**
 * Reads a patch. Throws `PatchSyntaxError` naming the first malformed line (1-based, in
 * `text` as given, wrapper lines included) and what would be valid there.
 */
export function parsePatch(text: string): ParsedPatch {
  if (text.length > MAX_PATCH_CHARS) {
    throw new PatchSyntaxError(1, `Line 1: the patch is ${text.length} characters; a patch may have at most ${MAX_PATCH_CHARS}. Split it into several patches.`);
  }
  const lines = splitPatchLines(text);
  const whole = trimRange(lines, 0, lines.length - 1);
  if (!whole) {
    fail(1, 'the patch is empty. It starts with `*** Begin Patch`, then file operations, and ends with `*** End Patch`.');
  }
  const [first, last] = unwrap(lines, whole[0], whole[1]);
  if (!BEGIN_RE.test(lines[first].trim())) {
    fail(first + 1, `the patch must start with \`*** Begin Patch\`, not ${show(lines[first])}.`);
  }
  if (first === last || !END_RE.test(lines[last].trim())) {
    fail(last + 1, `the patch must end with \`*** End Patch\`; its last line is ${show(lines[last])}. Was the patch cut off?`);
  }
  const reader = new PatchReader(lines, first + 1, last);
  const hunks = reader.read();
  if (hunks.length === 0 && reader.empty.length > 0) {
    // nothing but empty sections: the first one is what is missing
    const e = reader.empty[0];
    if (e.kind === 'update') {
      fail(e.patchLine, `\`*** Update File: ${quoteLine(e.path)}\` has no changes. Follow it with a chunk: a \`@@\` line, then lines starting with ${LINE_FORMS}, or with \`*** Move to: <path>\` to rename it.`);
    }
    fail(e.patchLine, `the chunk of ${quoteLine(e.path)} has no lines. After its \`@@\` line, give lines starting with ${LINE_FORMS}.`);
  }
  if (hunks.length === 0) {
    fail(last + 1, `the patch has no file operations between \`*** Begin Patch\` (line ${first + 1}) and \`*** End Patch\`. Each starts with ${HEADER_FORMS}.`);
  }
  return reader.empty.length > 0 ? { hunks, empty: reader.empty } : { hunks };
}

function pathOf(m: RegExpExecArray, header: string, line: number): string {
  const path = m[1].trim();
  if (path === '') {
    fail(line, `\`*** ${header}:\` names no path. Write \`*** ${header}: <path>\`.`);
  }
  // resolved, `a.txt/` or `dir/.` would name another file than the one meant
  const last = path.split(/[\\/]/).pop();
  if (last === '' || last === '.' || last === '..') {
    fail(line, `\`*** ${header}: ${path}\` ends as a folder's path does; a patch names files. Write the file's path without it.`);
  }
  return path;
}

class PatchReader {
  private i: number;
  /** Sections with no lines under them, in order. */
  readonly empty: EmptySection[] = [];

  constructor(
    private readonly lines: readonly string[],
    from: number,
    /** Index of the `*** End Patch` line. */
    private readonly end: number,
  ) {
    this.i = from;
  }

  read(): Hunk[] {
    const hunks: Hunk[] = [];
    while (this.i < this.end) {
      const raw = this.lines[this.i];
      const t = raw.trim();
      const lineNo = this.i + 1;
      if (t === '') {
        this.i++;
        continue;
      }
      let m: RegExpExecArray | null;
      if ((m = ADD_RE.exec(t))) {
        hunks.push(this.readAdd(pathOf(m, 'Add File', lineNo), lineNo));
      } else if ((m = DELETE_RE.exec(t))) {
        this.i++;
        hunks.push({ kind: 'delete', path: pathOf(m, 'Delete File', lineNo), patchLine: lineNo });
      } else if ((m = UPDATE_RE.exec(t))) {
        const h = this.readUpdate(pathOf(m, 'Update File', lineNo), lineNo);
        if (h) {
          hunks.push(h);
        }
      } else {
        this.misplaced(t, hunks[hunks.length - 1]);
      }
    }
    return hunks;
  }

  /** Explains a line that is not where it could be. */
  private misplaced(t: string, previous: Hunk | undefined): never {
    const lineNo = this.i + 1;
    if (BEGIN_RE.test(t)) {
      fail(lineNo, 'a second `*** Begin Patch`. Send one patch: one `*** Begin Patch`, the file operations, one `*** End Patch`.');
    }
    if (END_RE.test(t)) {
      fail(lineNo, `\`*** End Patch\` is followed by more text (up to line ${this.end + 1}). Send one patch: one \`*** Begin Patch\`, the file operations, one \`*** End Patch\`.`);
    }
    if (MOVE_RE.test(t)) {
      fail(lineNo, '`*** Move to: <path>` must come right after the `*** Update File: <path>` line of the file it moves.');
    }
    if (EOF_RE.test(t)) {
      fail(lineNo, '`*** End of File` may only end a chunk of an `*** Update File:` hunk, after its lines.');
    }
    if (t.startsWith('***')) {
      fail(lineNo, `${show(t)} is not a valid hunk header. Valid hunk headers: ${HEADER_FORMS}.`);
    }
    if (previous?.kind === 'add') {
      fail(lineNo, `${show(t)} is not a line of the file added at line ${previous.patchLine}: every line of an added file starts with \`+\` (\`+\` alone for an empty line), and the next hunk starts with ${HEADER_FORMS}.`);
    }
    if (previous?.kind === 'delete') {
      fail(lineNo, `${show(t)} follows \`*** Delete File:\` (line ${previous.patchLine}), which takes no lines. The next line must be a hunk header: ${HEADER_FORMS}.`);
    }
    if (previous?.kind === 'update') {
      fail(lineNo, `${show(t)} in a chunk of ${quoteLine(previous.path)}: every line of a chunk starts with ${LINE_FORMS}, and the next hunk starts with ${HEADER_FORMS}.`);
    }
    fail(lineNo, `expected a hunk header, found ${show(t)}. Valid hunk headers: ${HEADER_FORMS}.`);
  }

  private readAdd(path: string, patchLine: number): Hunk {
    const content: string[] = [];
    this.i++;
    while (this.i < this.end) {
      const line = this.lines[this.i];
      if (line.startsWith('+')) {
        content.push(line.slice(1));
        this.i++;
        continue;
      }
      if (line.trim() !== '') {
        break;
      }
      // Blank lines: empty lines of the file when more `+` lines follow, else separators.
      let j = this.i;
      while (j < this.end && this.lines[j].trim() === '') {
        j++;
      }
      if (j >= this.end || !this.lines[j].startsWith('+')) {
        break;
      }
      for (; this.i < j; this.i++) {
        content.push('');
      }
    }
    return { kind: 'add', path, contents: content.map((l) => `${l}\n`).join(''), patchLine };
  }

  private skipBlank(): void {
    while (this.i < this.end && this.lines[this.i].trim() === '') {
      this.i++;
    }
  }

  /** An update, or undefined (recorded in `empty`) when it has no lines under it. */
  private readUpdate(path: string, patchLine: number): Hunk | undefined {
    this.i++;
    this.skipBlank();
    let movePath: string | undefined;
    const move = this.i < this.end ? MOVE_RE.exec(this.lines[this.i].trim()) : null;
    if (move) {
      movePath = pathOf(move, 'Move to', this.i + 1);
      this.i++;
    }
    const chunks: Chunk[] = [];
    for (;;) {
      this.skipBlank();
      if (this.i >= this.end) {
        break;
      }
      const raw = this.lines[this.i];
      const t = raw.trim();
      if (raw.startsWith('*') || (t.startsWith('***') && isMarker(t))) {
        if (EOF_RE.test(t)) {
          fail(this.i + 1, '`*** End of File` must follow the lines of a chunk.');
        }
        if (MOVE_RE.test(t)) {
          fail(this.i + 1, '`*** Move to: <path>` must come right after the `*** Update File: <path>` line.');
        }
        break;
      }
      const chunk = this.readChunk(chunks.length === 0, path);
      if (chunk) {
        chunks.push(chunk);
      }
    }
    // A move with no chunk is a pure rename: the file's bytes go to the new path unchanged.
    if (chunks.length === 0 && movePath === undefined) {
      // an empty `@@` section already said so
      if (!this.empty.some((e) => e.kind === 'chunk' && e.path === path && e.patchLine > patchLine)) {
        this.empty.push({ path, patchLine, kind: 'update' });
      }
      return undefined;
    }
    if (chunks.length === 0 && movePath === path) {
      fail(patchLine, `\`*** Update File: ${quoteLine(path)}\` has no changes: it moves the file to where it is. Follow it with a chunk: a \`@@\` line, then lines starting with ${LINE_FORMS}.`);
    }
    return movePath === undefined ? { kind: 'update', path, chunks, patchLine } : { kind: 'update', path, movePath, chunks, patchLine };
  }

  /** A chunk, or undefined (recorded in `empty`) for a last `@@` line with nothing under it. */
  private readChunk(first: boolean, path: string): Chunk | undefined {
    const patchLine = this.i + 1;
    const contexts: string[] = [];
    // `@@` lines start the line: ` @@ text` is a kept line.
    let sawAt = false;
    while (this.i < this.end && this.lines[this.i].startsWith('@@')) {
      sawAt = true;
      const ctx = contextOf(this.lines[this.i].slice(2));
      if (ctx !== undefined) {
        contexts.push(ctx);
      }
      this.i++;
    }
    if (!sawAt && !first) {
      fail(patchLine, `${show(this.lines[this.i])} starts a new chunk of ${quoteLine(path)} without a \`@@\` line; only the first chunk of a file may leave it out. Start the chunk with \`@@\` or \`@@ <a line above the change>\`.`);
    }
    const body: ChunkLine[] = [];
    let isEndOfFile = false;
    /** Indices in `body` of the lines a `\ No newline at end of file` line followed. */
    const unterminated = new Set<number>();
    /** Indices in `body` of blank lines (not ` ` lines: those say they are kept lines). */
    const blank = new Set<number>();
    while (this.i < this.end) {
      const line = this.lines[this.i];
      const c = line.charAt(0);
      if (c === ' ' || c === '-' || c === '+') {
        body.push({ op: c, text: line.slice(1) });
      } else if (line.trim() === '') {
        blank.add(body.length);
        body.push({ op: ' ', text: '' });
      } else if (line.startsWith('@@')) {
        break;
      } else if (line.startsWith('***')) {
        if (EOF_RE.test(line.trim())) {
          isEndOfFile = true;
          this.i++;
        } else if (!isMarker(line.trim())) {
          // a header written wrong, or a line of the file: two readings
          fail(this.i + 1, `${show(line)} in a chunk of ${quoteLine(path)} starts as a marker does but is none (${HEADER_FORMS}, \`*** End of File\`). A line of the file starts with ${LINE_FORMS}.`);
        }
        break;
      } else if (line === '\\' || line.startsWith('\\ ')) {
        // "\ No newline at end of file", from unified diffs: of the line above.
        if (body.length > 0) {
          unterminated.add(body.length - 1);
        }
      } else {
        body.push({ op: ' ', text: line, bare: true });
      }
      this.i++;
    }
    // Blank lines after added lines only: separators (before the next `@@`, header or the end), not lines of the file.
    let keep = body.length;
    while (keep > 0 && blank.has(keep - 1)) {
      keep--;
    }
    if (keep < body.length && body.slice(0, keep).every((l) => l.op === '+')) {
      body.length = keep;
    }
    const separators = body.length - keep;
    if (body.length === 0) {
      const next = this.i < this.end ? this.lines[this.i].trim() : '';
      if (!isEndOfFile && sawAt && (this.i >= this.end || isMarker(next))) {
        // a section header with nothing under it: empty, not an error
        this.empty.push({ path, patchLine, kind: 'chunk' });
        return undefined;
      }
      const where = this.i < this.end ? ` (line ${this.i + 1} is ${show(this.lines[this.i])})` : '';
      fail(patchLine, `the chunk of ${quoteLine(path)} has no lines${where}. After its \`@@\` line, give lines starting with ${LINE_FORMS}.`);
    }
    const oldLines = body.filter((l) => l.op !== '+').map((l) => l.text);
    const newLines = body.filter((l) => l.op !== '-').map((l) => l.text);
    const chunk: Chunk = { contexts, oldLines, newLines, body, isEndOfFile, patchLine };
    if (contexts.length > 0) {
      chunk.context = contexts[contexts.length - 1];
    }
    if (separators > 0 && !isEndOfFile) {
      chunk.separators = separators;
    }
    const ends = endMarks(body, unterminated);
    if (ends) {
      chunk.noNewline = ends;
    }
    return chunk;
  }
}

/**
 * What `\ No newline at end of file` lines say of a chunk: a mark after its last old line
 * (` ` or `-`) says the file's last line has no line break, one after its last new line
 * (` ` or `+`) says the result's has none. Marks anywhere else say nothing.
 */
function endMarks(body: readonly ChunkLine[], marked: ReadonlySet<number>): Chunk['noNewline'] {
  if (marked.size === 0) {
    return undefined;
  }
  let lastOld = -1;
  let lastNew = -1;
  body.forEach((l, i) => {
    if (l.op !== '+') {
      lastOld = i;
    }
    if (l.op !== '-') {
      lastNew = i;
    }
  });
  const old = marked.has(lastOld);
  const next = marked.has(lastNew);
  return old || next ? { old, new: next } : undefined;
}

/** A trimmed line that is one of the format's `***` markers. */
function isMarker(t: string): boolean {
  return ADD_RE.test(t) || DELETE_RE.test(t) || UPDATE_RE.test(t) || MOVE_RE.test(t) || EOF_RE.test(t) || BEGIN_RE.test(t) || END_RE.test(t);
}

/** The context of a `@@` line (the text after `@@`), or undefined for a bare `@@`. */
function contextOf(rest: string): string | undefined {
  const unified = UNIFIED_RANGE_RE.exec(rest.trim());
  let ctx = unified ? unified[1] : rest.startsWith(' ') ? rest.slice(1) : rest;
  if (!unified && /\s@@\s*$/.test(ctx)) {
    ctx = ctx.replace(/\s*@@\s*$/, '');
  }
  return ctx.trim() === '' ? undefined : ctx;
}
