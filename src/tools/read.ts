import type * as z from 'zod';
import type { readSchema } from './schemas';
import { schemas } from './lazySchemas';
import { readQuick } from './quick';
import { throwIfCancelled } from '../core/cancel';
import { ToolError } from '../core/errors';
import { formatBytes } from '../core/format';
import { completeUtf8, readHead, readIntoOf, type OpenedFile } from '../core/file';
import { FULL_READ_MAX_BYTES, MAX_DIR_ENTRIES, MAX_INSTRUCTION_FILE_BYTES, MAX_NOTEBOOK_BYTES, MAX_PDF_BYTES, MAX_PDF_PAGES_PER_READ, MAX_READ_LINES, SNIFF_BYTES, STREAM_CHUNK_BYTES } from '../core/limits';
import { decideRead } from '../core/policy';
import { bytesVersion, textVersion } from '../core/hash';
import { readDirectoryBounded, renderDirectory } from '../core/read/directory';
import { parseNotebook, renderNotebook, type NotebookCell } from '../core/read/notebook';
import { cellsVersion } from '../core/notebook/cells';
import { extractPdfPages, pdfInTask, renderPdfEnvelope } from '../core/read/pdf';
import { fitToBudget } from '../services/budget';
import { suggestPaths } from '../services/suggest';
import { findInstructionFiles, loadInstructionFiles, renderInstructionReminder, type InstructionFile, type InstructionText } from '../core/read/instructions';
import { callPathOf, locate } from '../core/paths';
import { describeImage, imageInfo, imageTooLarge } from '../core/read/image';
import { extensionOf, isBinaryExtension, sniffBinary } from '../core/text/binary';
import { decodeText, detectBom, encodingLabel, type Encoding } from '../core/text/encoding';
import { detectFileType } from '../core/text/sniff';
import { boundedJson } from '../services/input';
import { AliasError, wholeNumber, type AliasTable } from '../services/aliases';
import { callText } from '../core/contract';
import type { ToolResult } from '../services/result';
import { authorize, globsOf, preparationFor, readDecision, sensitiveGlobs } from '../services/access';
import { checkUnchanged, fileKey, openDocumentFor, resolveTarget, type Target } from '../services/target';
import { readText, type TextRequest, type TextSource } from './readText';
import { readOutline, readSymbol, type WholeText } from './readOutline';
import { documentVersion, loadFileText, openedFileVersion } from '../services/fileText';
import { lineIndexes } from '../services/lineIndexes';
import type { ToolContext, QuickCheck, ToolSpec } from '../services/types';
import { readPageCap, type Settings } from '../services/settings';

export type ReadInput = z.output<typeof readSchema>;

/** `end_line` (inclusive, 1-based) as a line count from the offset. */
function linesThrough(end: unknown, input: Readonly<Record<string, unknown>>): unknown {
  const last = wholeNumber(end);
  const first = input.offset === undefined ? 1 : wholeNumber(input.offset);
  if (last === undefined || first === undefined) {
    throw new AliasError(`expected a whole number, the last line to read (got ${JSON.stringify(end)})`);
  }
  if (last < first) {
    throw new AliasError(`line ${last} is before the first line asked for, ${first}`);
  }
  return last - first + 1;
}

/** `view_range: [first, last]` (inclusive, 1-based; last -1: to the end) as offset and limit. */
function viewRange(v: unknown): Record<string, unknown> {
  const pair = Array.isArray(v) && v.length === 2 ? v.map(wholeNumber) : undefined;
  if (!pair || pair[0] === undefined || pair[1] === undefined || pair[0] < 1 || (pair[1] !== -1 && pair[1] < pair[0])) {
    throw new AliasError(`expected [first, last] line numbers, 1-based, last -1 for the end of the file (got ${boundedJson(v, 60)})`);
  }
  return pair[1] === -1 ? { offset: pair[0] } : { offset: pair[0], limit: pair[1] - pair[0] + 1 };
}

/**
 * Claude Code, Codex, Gemini CLI: file_path; OpenCode, Copilot: filePath; Copilot: startLine/endLine;
 * Cursor: target_file, start_line_one_indexed, should_read_entire_file; Anthropic's text editor: view_range.
 */
export const readAliases: AliasTable = {
  aliases: [
    { names: ['file_path', 'absolute_path', 'target_file'], field: 'path' },
    { names: ['start_line', 'start_line_one_indexed'], field: 'offset' },
    { names: ['end_line', 'end_line_one_indexed_inclusive'], field: 'limit', value: linesThrough },
    { names: ['view_range'], field: 'offset', expand: viewRange },
  ],
  ignored: ['should_read_entire_file'],
};

async function notFound(ctx: ToolContext, t: Target): Promise<ToolError> {
  const suggestions = await suggestPaths(ctx, t);
  const lines = [`File not found: ${t.located.display}`];
  if (suggestions.length) {
    lines.push('Did you mean one of these?', ...suggestions.map((s) => `- ${s}`));
  } else {
    lines.push('Use fs_glob with the file name, or fs_list on the folder, to find it.');
  }
  return new ToolError('not-found', lines.join('\n'));
}

async function binaryError(t: Target, size: number, head: Uint8Array, reason: string): Promise<ToolError> {
  const type = await detectFileType(head).catch(() => undefined);
  const what = type ? `a ${type.ext.toUpperCase()} file (${type.mime})` : 'a binary file';
  return new ToolError(
    'binary',
    `Cannot read ${t.located.display} as text: it is ${what} (${reason}; ${formatBytes(size)}). ` +
      'Its bytes would only be noise to a model. Look for a text source instead (fs_grep for its name, or fs_list its folder), or ask the user what it holds.',
  );
}

/** The first bytes of an opened file and the rest as a stream, without loading a large file whole. */
async function contentOf(file: OpenedFile): Promise<{ head: Uint8Array; whole: Uint8Array | undefined; rest: AsyncIterable<Uint8Array> }> {
  if (file.size <= FULL_READ_MAX_BYTES) {
    const whole = await file.read(0, file.size);
    return { head: whole, whole, rest: (async function* () {})() };
  }
  const head = await file.read(0, STREAM_CHUNK_BYTES);
  return { head, whole: undefined, rest: file.stream(head.length) };
}

/**
 * Opens the target's real path and checks that the file opened is that path: the
 * policy decided on it, so a file swapped for a link (or a folder on its path swapped
 * for one) after the decision is refused rather than read. Undefined when nothing is
 * there.
 */
export async function openTarget(ctx: ToolContext, t: Target): Promise<OpenedFile | undefined> {
  const file = await ctx.ws.openFile(t.real);
  if (file && file.realPath !== t.real) {
    await file.close();
    throw new ToolError('changed', `${t.located.display} changed while it was opened (it was replaced, or a folder on its path became a link), so nothing was read. Call fs_read again to read it as it is now.`);
  }
  return file;
}

/** Indentation and outline modes, symbols and column read source text; folders, PDFs and notebooks page by their own units. */
function refuseIndentation(input: ReadInput, t: Target, what: string, units: string): void {
  if (input.mode === 'indentation' || input.mode === 'outline' || input.indentation || input.symbol !== undefined) {
    const asked = input.symbol !== undefined ? 'symbol' : `${input.mode === 'outline' ? 'outline' : 'indentation'} mode`;
    throw new ToolError('invalid-input', `${t.located.display} is ${what}; ${asked} reads source files. Read it without ${input.symbol !== undefined ? 'symbol' : 'mode'}: offset and limit count ${units}.`);
  }
  if (input.column !== undefined) {
    throw new ToolError('invalid-input', `${t.located.display} is ${what}; column reads a line of a text file in pieces. Read it without column: offset and limit count ${units}.`);
  }
}

/**
 * The fs_read call that shows the page starting at `offset`, the caller's limit kept as it
 * was applied: a limit over `cap` read `cap` items, and the call says what it will do.
 */
function nextCall(input: ReadInput, cap: number): (offset: number) => string {
  return (offset) => callText('fs_read', { path: input.path, offset, ...(input.limit !== undefined ? { limit: Math.min(input.limit, cap) } : {}) });
}

/**
 * A page of entries or cells, shrunk to the token budget: `render(limit)` renders up to
 * `limit` items (undefined: as many as the caps allow) and says which it showed.
 */
async function fitItems(ctx: ToolContext, limit: number | undefined, render: (limit: number | undefined) => { text: string; first?: number; last?: number }): Promise<string> {
  const page = render(limit);
  const shown = page.first === undefined ? 0 : page.last! - page.first + 1;
  return (await fitToBudget(ctx, Math.max(shown, 1), (k) => render(Math.min(k, limit ?? k)).text)).text;
}

async function readDirectory(ctx: ToolContext, t: Target, input: ReadInput): Promise<ToolResult> {
  refuseIndentation(input, t, 'a folder', 'entries (fs_list gives a tree)');
  const read = await readDirectoryBounded(ctx.ws.iterateDirectory(t.real), MAX_DIR_ENTRIES);
  await checkUnchanged(ctx, t.real, t.located.display);
  const base = { displayPath: t.located.display, entries: read.entries, complete: read.complete, offset: input.offset ?? 1, nextCall: nextCall(input, MAX_READ_LINES) };
  const text = await fitItems(ctx, input.limit, (limit) => renderDirectory({ ...base, limit }));
  return { isError: false, parts: [{ kind: 'text', text }] };
}

function isPdf(head: Uint8Array): boolean {
  return head.length >= 5 && Buffer.from(head.subarray(0, 5)).toString('latin1') === '%PDF-';
}

/** A PDF's version: the identity of its bytes (its pages are not text one could edit). */
async function versionOfPdf(file: OpenedFile, data: Uint8Array): Promise<string> {
  return file.size > FULL_READ_MAX_BYTES ? openedFileVersion(file, data) : bytesVersion(data);
}

async function readPdf(ctx: ToolContext, t: Target, input: ReadInput, file: OpenedFile, bytes: Uint8Array | undefined): Promise<ToolResult> {
  refuseIndentation(input, t, 'a PDF', 'pages');
  const size = file.size;
  if (size > MAX_PDF_BYTES) {
    throw new ToolError('binary', `${t.located.display} is a ${formatBytes(size)} PDF, over the ${formatBytes(MAX_PDF_BYTES)} that fs_read extracts text from. Ask the user for the pages that matter, or for a text export.`);
  }
  const data = bytes ?? (await file.read(0, size));
  const version = await versionOfPdf(file, data);
  const extract = await extractPdfPages(data, { firstPage: input.offset ?? 1, maxPages: Math.min(input.limit ?? MAX_PDF_PAGES_PER_READ, MAX_PDF_PAGES_PER_READ), displayPath: t.located.display }, ctx.signal, pdfInTask(ctx.ws.processes, ctx.signal));
  const render = (k: number) => {
    const pages = extract.pages.slice(0, k);
    const cut = k < extract.pages.length;
    const part = cut ? { pageCount: extract.pageCount, pages, nextPage: extract.pages[k].n, stop: 'limit' as const } : extract;
    return { text: renderPdfEnvelope({ displayPath: t.located.display, fileBytes: size, extract: part, version, nextCall: nextCall(input, MAX_PDF_PAGES_PER_READ) }), pages };
  };
  const fitted = await fitToBudget(ctx, Math.max(extract.pages.length, 1), (k) => render(k).text);
  const shown = render(fitted.k);
  ctx.ledger.record(fileKey(ctx, t.real), { version, first: shown.pages[0]?.n, last: shown.pages[shown.pages.length - 1]?.n });
  return { isError: false, parts: [{ kind: 'text', text: fitted.text }] };
}

async function readNotebook(ctx: ToolContext, t: Target, input: ReadInput, size: number | undefined): Promise<ToolResult> {
  refuseIndentation(input, t, 'a notebook', 'cells');
  let cells: NotebookCell[];
  let language: string | undefined;
  let nbformat: string | undefined;
  let version: string;
  let dirty = false;
  const open = ctx.ws.openNotebook(t.abs) ?? (t.real !== t.abs ? ctx.ws.openNotebook(t.real) : undefined);
  if (open) {
    cells = open.cells;
    dirty = open.isDirty;
    // the version every tool gives this notebook (see loadFileText): a whole-file change's staleness compares it
    version = (dirty ? undefined : (await loadFileText(ctx, t).catch(() => undefined))?.version) ?? cellsVersion(open.cells);
  } else {
    if (size !== undefined && size > MAX_NOTEBOOK_BYTES) {
      throw new ToolError('binary', `${t.located.display} is a ${formatBytes(size)} notebook, over the ${formatBytes(MAX_NOTEBOOK_BYTES)} fs_read parses (its outputs are probably large). Use fs_grep on it to find the cells you need.`);
    }
    const doc = openDocumentFor(ctx, t);
    dirty = doc?.isDirty ?? false;
    const json = doc ? doc.text : decodeText(await readWholeFile(ctx, t)).text;
    const parsed = parseNotebook(json, t.located.display);
    cells = parsed.cells;
    language = parsed.language;
    nbformat = parsed.nbformat;
    version = textVersion(json);
  }
  const base = { displayPath: t.located.display, offset: input.offset ?? 1, version, dirty, nextCall: nextCall(input, Number.MAX_SAFE_INTEGER) };
  const nb = { cells, language, nbformat };
  const text = await fitItems(ctx, input.limit, (limit) => renderNotebook(nb, { ...base, limit }));
  ctx.ledger.record(fileKey(ctx, t.real), { version });
  return { isError: false, parts: [{ kind: 'text', text }] };
}

/** A text read's request; `settings` lowers the page (readText applies it), and the continuation's limit says what it will read. */
function textRequest(input: ReadInput, settings: Settings): TextRequest {
  const offset = input.offset ?? 1;
  const req: TextRequest = {
    offset,
    limit: Math.min(input.limit ?? MAX_READ_LINES, MAX_READ_LINES),
    column: input.column,
    nextCall: nextCall(input, readPageCap(settings).lines),
    pieceCall: (line, column) => callText('fs_read', { path: input.path, offset: line, limit: 1, column }),
    rangeCall: (from, limit) => callText('fs_read', { path: input.path, offset: from, limit }),
  };
  if (input.mode === 'indentation' || input.indentation) {
    const i = input.indentation ?? {};
    req.indentation = {
      anchorLine: i.anchor_line ?? offset,
      maxLevels: i.max_levels,
      includeSiblings: i.include_siblings,
      includeHeader: i.include_header,
      maxLines: i.max_lines,
    };
  }
  return req;
}

/** Outline mode or a symbol: what needs the file's whole text rather than a page of it. */
function wantsStructure(input: ReadInput): boolean {
  return input.mode === 'outline' || input.symbol !== undefined;
}

/** The outline, or a symbol, of a file read whole. */
function readStructure(ctx: ToolContext, t: Target, src: WholeText, input: ReadInput): Promise<string> {
  return input.symbol !== undefined && input.mode !== 'outline' ? readSymbol(ctx, t, src, input.symbol, textRequest(input, ctx.settings), input.path) : readOutline(ctx, t, src, input);
}

/** The bytes of a regular file (a notebook), through the checked handle. */
async function readWholeFile(ctx: ToolContext, t: Target): Promise<Uint8Array> {
  const file = await openTarget(ctx, t);
  if (!file) {
    throw await notFound(ctx, t);
  }
  try {
    if (file.type !== 'file') {
      throw notAFile(t);
    }
    return await file.read(0, file.size);
  } finally {
    await file.close();
  }
}

function notAFile(t: Target): ToolError {
  return new ToolError('not-a-file', `${t.located.display} is not a regular file (a device, socket or pipe) and cannot be read.`);
}

async function readFile(ctx: ToolContext, t: Target, input: ReadInput, file: OpenedFile): Promise<ToolResult> {
  const size = file.size;
  const { head, whole, rest } = await contentOf(file);
  const image = imageInfo(head.subarray(0, 64 * 1024));
  if (image) {
    if (size > ctx.settings.maxImageBytes) {
      throw imageTooLarge(t.located.display, image, size, ctx.settings.maxImageBytes, 'agentFileTools.maxImageBytes');
    }
    const bytes = whole ?? (await file.read(0, size));
    return {
      isError: false,
      parts: [
        { kind: 'text', text: describeImage(t.located.display, image, size) },
        { kind: 'data', mime: image.mime, data: bytes },
      ],
    };
  }
  if (isPdf(head)) {
    return readPdf(ctx, t, input, file, whole);
  }
  const sniff = sniffBinary(head.subarray(0, SNIFF_BYTES));
  if (sniff.binary || isBinaryExtension(t.real)) {
    throw await binaryError(t, size, head.subarray(0, 64 * 1024), sniff.binary ? (sniff.reason ?? 'binary content') : `its .${extensionOf(t.real)} extension marks it as binary`);
  }
  if (wantsStructure(input)) {
    if (!whole) {
      throw new ToolError('too-large', `${t.located.display} is ${formatBytes(size)}, over the ${formatBytes(FULL_READ_MAX_BYTES)} read whole for an outline or a symbol. Use fs_grep to find the lines you need, then read them with offset and limit.`);
    }
    const { text, encoding } = decodeText(whole);
    const src = { text, encoding: encodingLabel(encoding), dirty: false, version: textVersion(text) };
    return { isError: false, parts: [{ kind: 'text', text: await readStructure(ctx, t, src, input) }] };
  }
  const req = textRequest(input, ctx.settings);
  let src: TextSource;
  if (whole) {
    const { text, encoding } = decodeText(whole);
    src = { kind: 'text', text, encoding: encodingLabel(encoding), dirty: false, version: textVersion(text) };
  } else {
    const { encoding, bomBytes } = detectBom(head);
    const version = await openedFileVersion(file, head);
    // UTF-8 bytes are the stream's own, so positions in the file are positions of lines; UTF-16 is streamed from the start
    const utf8 = encoding === 'utf-8' || encoding === 'utf-8-bom';
    const indexed = utf8 ? { bytes: { size, readInto: readIntoOf(file), stream: (start: number) => file.stream(start) }, index: lineIndexes.get(t.real, version) } : undefined;
    src = { kind: 'stream', chunks: rest, head, encoding, bomBytes, fileBytes: size, version, indexed };
  }
  return { isError: false, parts: [{ kind: 'text', text: await readText(ctx, t, src, req) }] };
}

/**
 * The AGENTS.md / CLAUDE.md files that apply to a file read inside a workspace folder
 * (never the file itself): whatever is there under those names, links included, for
 * {@link readInstruction} to judge.
 */
async function instructionPaths(ctx: ToolContext, t: Target): Promise<string[]> {
  const root = t.located.root;
  if (!ctx.settings.instructionFiles || !root) {
    return [];
  }
  return findInstructionFiles(t.real, root.path, async (p) => {
    const st = p !== t.real ? await ctx.ws.stat(p) : undefined;
    return st !== undefined && st.type !== 'symlink';
  });
}

/**
 * One instruction file, as the path policy allows: it is resolved and decided on like
 * any read, and one that resolves outside the workspace, into `.git` or to a file that
 * may hold secrets is skipped, never asked about (nobody asked to read it). Only a
 * regular file is read, through a handle checked to be the file decided on, and only its
 * first MAX_INSTRUCTION_FILE_BYTES.
 */
async function readInstruction(ctx: ToolContext, path: string): Promise<InstructionText> {
  const t = await resolveTarget(ctx, path);
  const d = decideRead({ located: t.located, real: t.real, given: locate(path, ctx.ws.roots()), openInEditor: false, allowOutside: globsOf([], false), sensitive: sensitiveGlobs(ctx.settings), toolName: 'fs_read', verb: 'read' });
  if (d.kind === 'deny') {
    return { skipped: 'it leads into a .git folder' };
  }
  if (d.kind === 'confirm') {
    return { skipped: d.reasons.includes('outside') ? 'it resolves outside the workspace' : 'it may hold secrets (agentFileTools.sensitiveFiles)' };
  }
  const doc = openDocumentFor(ctx, t);
  if (doc) {
    const bytes = Buffer.byteLength(doc.text, 'utf8');
    return bytes <= MAX_INSTRUCTION_FILE_BYTES ? doc.text : { text: doc.text.slice(0, MAX_INSTRUCTION_FILE_BYTES), bytes, complete: false };
  }
  const file = await ctx.ws.openFile(t.real);
  if (!file) {
    return { skipped: 'it is gone' };
  }
  try {
    if (file.type !== 'file') {
      return { skipped: 'it is not a regular file' };
    }
    if (file.realPath !== t.real) {
      return { skipped: 'it changed while it was opened' };
    }
    const head = completeUtf8(await readHead(file, MAX_INSTRUCTION_FILE_BYTES));
    return { text: decodeText(head).text, bytes: file.size, complete: file.size <= MAX_INSTRUCTION_FILE_BYTES };
  } finally {
    await file.close();
  }
}

function renderInstructions(ctx: ToolContext, t: Target, files: readonly InstructionFile[]): string | undefined {
  return renderInstructionReminder(files, { forPath: t.located.display, display: (p) => locate(p, ctx.ws.roots()).display, callPath: (p) => callPathOf(locate(p, ctx.ws.roots()), p, ctx.ws.roots()) });
}

/**
 * Gives the instruction files of the file's folders with a successful read, once per
 * chat request: they count as given only when the read succeeded. Room for them is
 * kept in the token budget.
 */
async function withInstructions(ctx: ToolContext, t: Target, read: (ctx: ToolContext) => Promise<ToolResult>): Promise<ToolResult> {
  const paths = await instructionPaths(ctx, t).catch(() => []);
  if (paths.length === 0) {
    return read(ctx);
  }
  // Each file is read once, capped; what is shown is fitted again to the files this request had not seen yet.
  const texts = new Map(await Promise.all(paths.map(async (p) => [p, await readInstruction(ctx, p).catch((e: unknown) => ({ skipped: `it could not be read (${e instanceof Error ? e.message : String(e)})` }))] as const)));
  const load = (ps: readonly string[]) => loadInstructionFiles(ps, async (p) => texts.get(p)!);
  let inner = ctx;
  if (ctx.budget) {
    const all = renderInstructions(ctx, t, await load(paths));
    const used = all ? await ctx.budget.countTokens(all) : 0;
    inner = { ...ctx, budget: { ...ctx.budget, tokenBudget: Math.max(ctx.budget.tokenBudget - used, 1) } };
  }
  const result = await read(inner);
  if (result.isError) {
    return result;
  }
  const fresh = ctx.instructions && ctx.requestKey !== undefined ? ctx.instructions.take(ctx.requestKey, paths) : paths;
  const reminder = renderInstructions(ctx, t, await load(fresh));
  if (reminder) {
    // before the page, so that the page's last line stays its closing line (`End of file.` or the continuation)
    result.parts.unshift({ kind: 'text', text: reminder });
  }
  return result;
}

export const readTool: ToolSpec<typeof readSchema> = {
  name: 'fs_read',
  mutates: false,
  get schema() {
    return schemas().readSchema;
  },
  quick: readQuick as QuickCheck<ReadInput>,
  aliases: readAliases,
  example: '{"path": "src/app.ts", "offset": 1, "limit": 200}',

  async prepare(input, ctx) {
    const t = await resolveTarget(ctx, input.path);
    return preparationFor(readDecision(ctx, t, 'fs_read', 'read'), `Reading ${t.located.display}`);
  },

  async invoke(input: ReadInput, ctx: ToolContext): Promise<ToolResult> {
    const t = await resolveTarget(ctx, input.path);
    await authorize(ctx, t, 'fs_read', 'read');
    throwIfCancelled(ctx.signal);
    if (extensionOf(t.real) === 'ipynb') {
      const st = await ctx.ws.stat(t.real);
      if (st?.type === 'file' || ctx.ws.openNotebook(t.abs) || ctx.ws.openNotebook(t.real)) {
        return withInstructions(ctx, t, (c) => readNotebook(c, t, input, st?.size));
      }
    }
    const doc = openDocumentFor(ctx, t);
    if (doc) {
      const src: TextSource = { kind: 'text', text: doc.text, encoding: encodingLabel(doc.encoding as Encoding), dirty: doc.isDirty, version: await documentVersion(ctx, t, doc) };
      return withInstructions(ctx, t, async (c) => ({ isError: false, parts: [{ kind: 'text', text: wantsStructure(input) ? await readStructure(c, t, src, input) : await readText(c, t, src, textRequest(input, c.settings)) }] }));
    }
    const file = await openTarget(ctx, t);
    if (!file) {
      throw await notFound(ctx, t);
    }
    try {
      if (file.type === 'directory') {
        return await readDirectory(ctx, t, input);
      }
      if (file.type !== 'file') {
        throw notAFile(t);
      }
      return await withInstructions(ctx, t, (c) => readFile(c, t, input, file));
    } finally {
      await file.close();
    }
  },
};
