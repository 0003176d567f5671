import { ToolError } from '../errors';
import { readPageCall } from './render';
import { continueLine, END_OF_FILE, oneLine, quotedLine, span } from '../contract';
import { formatBytes, plural } from '../format';
import { MAX_NOTEBOOK_JSON_CONTAINERS, MAX_NOTEBOOK_JSON_DEPTH, MAX_NOTEBOOK_OUTPUT_LINE_CHARS, MAX_NOTEBOOK_OUTPUT_LINES, MAX_READ_BYTES } from '../limits';
import { cutLine, splitLines } from '../text/lines';
import { renderLine } from './page';

/**
 * Jupyter notebooks as the model should see them: cells in order with their index,
 * kind and language, source lines numbered per cell, outputs summarised; never the
 * raw JSON, whose escaping, base64 images and metadata would drown the code.
 *
 * Two ways in, one shape: {@link parseNotebook} reads `.ipynb` text (nbformat 4), and
 * the editor's notebook document maps its cells to {@link NotebookCell} itself.
 *
 * The part of nbformat 4 read here:
 *
 *   notebook := { nbformat: 4, metadata?: { language_info?: { name }, kernelspec?: { language } },
 *                 cells: cell* }
 *   cell     := { cell_type: "code" | "markdown" | "raw", source: multiline,
 *                 metadata?: { vscode?: { languageId } },
 *                 execution_count?: int | null, outputs?: output* }        (outputs: code only)
 *   output   := { output_type: "stream", name: "stdout" | "stderr", text: multiline }
 *             | { output_type: "execute_result" | "display_data", data: { mime: multiline | json } }
 *             | { output_type: "error", ename, evalue, traceback: string* }
 *   multiline := string | string*                                          (joined as is)
 *
 * Binary data (images) is base64 in `data`; only its decoded size is kept.
 */

export type CellKind = 'code' | 'markdown' | 'raw';

/** One representation of an output. Text mimes carry `text`; binary ones their size. */
export interface NotebookOutputItem {
  mime: string;
  text?: string;
  /** Size in bytes of binary data (an image), when there is no text. */
  bytes?: number;
}

export interface NotebookCell {
  kind: CellKind;
  language: string;
  source: string;
  /** Output items in order; for several items of one output, see {@link pickOutputItems}. */
  outputs?: NotebookOutputItem[];
  executionCount?: number;
}

export interface ParsedNotebook {
  cells: NotebookCell[];
  /** The kernel's language, when the notebook says. */
  language?: string;
  /** "4.5" */
  nbformat?: string;
}

/** The mimes VS Code gives streams and errors; `.ipynb` outputs are mapped to them. */
export const STDOUT_MIME = 'application/vnd.code.notebook.stdout';
export const STDERR_MIME = 'application/vnd.code.notebook.stderr';
export const ERROR_MIME = 'application/vnd.code.notebook.error';

/**
 * Refuses, before JSON.parse builds it, a notebook whose JSON nests deeper than
 * MAX_NOTEBOOK_JSON_DEPTH or holds more than MAX_NOTEBOOK_JSON_CONTAINERS arrays and
 * objects: a file within the size cap built of brackets would take gigabytes of memory
 * and seconds of the calling thread to parse. One pass, strings skipped whole.
 */
function checkJsonShape(json: string, where: string): void {
  let depth = 0;
  let containers = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === 0x22) {
      // a string: to its closing quote, escapes skipped
      for (i = json.indexOf('"', i + 1); i > 0; i = json.indexOf('"', i + 1)) {
        let slashes = 0;
        while (json.charCodeAt(i - 1 - slashes) === 0x5c) {
          slashes++;
        }
        if (slashes % 2 === 0) {
          break;
        }
      }
      if (i < 0) {
        return; // unterminated: JSON.parse says so
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_NOTEBOOK_JSON_DEPTH || ++containers > MAX_NOTEBOOK_JSON_CONTAINERS) {
        throw new ToolError(
          'too-large',
          `${where} is a notebook whose JSON ${depth > MAX_NOTEBOOK_JSON_DEPTH ? `nests more than ${MAX_NOTEBOOK_JSON_DEPTH} levels deep` : `holds more than ${MAX_NOTEBOOK_JSON_CONTAINERS} arrays and objects`}, more than fs_read parses (an output holds a huge structure). Use fs_grep on it to find the cells you need.`,
        );
      }
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
}

function invalid(where: string, why: string): ToolError {
  return new ToolError(
    'io',
    `Cannot read ${where} as a notebook: ${why}. fs_read shows notebooks cell by cell and cannot page this file; ` +
      'search it with fs_grep instead (a pattern on the code you look for), or ask the user to repair it.',
  );
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function multiline(v: unknown): string {
  if (typeof v === 'string') {
    return v;
  }
  if (Array.isArray(v)) {
    return v.filter((s): s is string => typeof s === 'string').join('');
  }
  return '';
}

/** Bytes that a base64 string decodes to. */
function base64Bytes(b64: string): number {
  const s = b64.replace(/\s+/g, '');
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((s.length * 3) / 4) - pad);
}

function isImageMime(mime: string): boolean {
  return mime.startsWith('image/') && mime !== 'image/svg+xml';
}

function isJsonMime(mime: string): boolean {
  return mime === 'application/json' || mime.endsWith('+json');
}

/** Text shown as text: plain, markdown, LaTeX, JSON, streams, errors. */
function isReadableMime(mime: string): boolean {
  return mime === 'text/plain' || mime === 'text/markdown' || mime === 'text/latex' || mime === 'application/json' || mime === STDOUT_MIME || mime === STDERR_MIME || mime === ERROR_MIME;
}

/**
 * The representations of one output worth showing: when a plain-text form is there,
 * HTML, JavaScript and widget forms of the same output add nothing for the model.
 * Images are always kept.
 */
export function pickOutputItems(items: readonly NotebookOutputItem[]): NotebookOutputItem[] {
  if (!items.some((i) => i.mime === 'text/plain')) {
    return [...items];
  }
  return items.filter((i) => isReadableMime(i.mime) || isImageMime(i.mime));
}

function parseOutput(o: unknown): NotebookOutputItem[] {
  if (!isRecord(o)) {
    return [];
  }
  switch (o.output_type) {
    case 'stream':
      return [{ mime: o.name === 'stderr' ? STDERR_MIME : STDOUT_MIME, text: multiline(o.text) }];
    case 'error': {
      const stack = Array.isArray(o.traceback) ? o.traceback.filter((s): s is string => typeof s === 'string').join('\n') : '';
      return [{ mime: ERROR_MIME, text: JSON.stringify({ name: String(o.ename ?? 'Error'), message: String(o.evalue ?? ''), stack }) }];
    }
    case 'execute_result':
    case 'display_data': {
      if (!isRecord(o.data)) {
        return [];
      }
      const items: NotebookOutputItem[] = Object.entries(o.data).map(([mime, value]) => {
        if (isImageMime(mime)) {
          return { mime, bytes: base64Bytes(multiline(value)) };
        }
        if (isJsonMime(mime) && typeof value !== 'string' && !Array.isArray(value)) {
          return { mime, text: JSON.stringify(value) };
        }
        return { mime, text: multiline(value) };
      });
      return pickOutputItems(items);
    }
    default:
      return [];
  }
}

/**
 * Reads `.ipynb` text. Throws a ToolError that points to fs_grep when the text is
 * not JSON or not an nbformat 4 notebook.
 */
export function parseNotebook(json: string, displayPath = 'the notebook'): ParsedNotebook {
  checkJsonShape(json, displayPath);
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch (e) {
    throw invalid(displayPath, `it is not valid JSON (${(e as Error).message})`);
  }
  if (!isRecord(doc)) {
    throw invalid(displayPath, 'it is not a JSON object');
  }
  if (typeof doc.nbformat === 'number' && doc.nbformat < 4) {
    throw invalid(displayPath, `it is in nbformat ${doc.nbformat}, and only nbformat 4 notebooks are read`);
  }
  if (!Array.isArray(doc.cells)) {
    throw invalid(displayPath, 'it has no "cells" list');
  }
  const meta = isRecord(doc.metadata) ? doc.metadata : {};
  const languageInfo = isRecord(meta.language_info) ? meta.language_info : {};
  const kernelspec = isRecord(meta.kernelspec) ? meta.kernelspec : {};
  const language =
    typeof languageInfo.name === 'string' ? languageInfo.name : typeof kernelspec.language === 'string' ? kernelspec.language : undefined;
  const cells = doc.cells.map((c, i): NotebookCell => {
    if (!isRecord(c)) {
      throw invalid(displayPath, `cell ${i + 1} is not a JSON object`);
    }
    const kind: CellKind = c.cell_type === 'markdown' ? 'markdown' : c.cell_type === 'raw' ? 'raw' : 'code';
    const cellMeta = isRecord(c.metadata) ? c.metadata : {};
    const vscodeMeta = isRecord(cellMeta.vscode) ? cellMeta.vscode : {};
    const cellLanguage =
      kind === 'markdown' ? 'markdown' : kind === 'raw' ? 'raw' : typeof vscodeMeta.languageId === 'string' ? vscodeMeta.languageId : (language ?? 'unknown');
    const cell: NotebookCell = { kind, language: cellLanguage, source: multiline(c.source) };
    if (kind === 'code') {
      cell.outputs = Array.isArray(c.outputs) ? c.outputs.flatMap(parseOutput) : [];
      if (typeof c.execution_count === 'number') {
        cell.executionCount = c.execution_count;
      }
    }
    return cell;
  });
  const nbformat = typeof doc.nbformat === 'number' ? `${doc.nbformat}${typeof doc.nbformat_minor === 'number' ? `.${doc.nbformat_minor}` : ''}` : undefined;
  return { cells, language, nbformat };
}

// Rendering.

// eslint-disable-next-line no-control-regex -- terminal colour codes start with ESC
const ANSI_ESCAPE = /\u001b\[[0-9;?]*[A-Za-z]/g;

/**
 * Output text as a terminal would show it (colour codes gone, a progress bar's `\r`
 * rewrites collapsed to their last state), cut to the first and last few lines, each
 * line quoted (`> `): an output that prints `</content>` or `End of file.` reads as the
 * output it is, never as the envelope's own line.
 */
function outputLines(text: string): string[] {
  const lines = splitLines(text.replace(ANSI_ESCAPE, '')).map((l) => {
    const shown = l.slice(l.lastIndexOf('\r') + 1);
    const cut = shown.length > MAX_NOTEBOOK_OUTPUT_LINE_CHARS ? `${shown.slice(0, MAX_NOTEBOOK_OUTPUT_LINE_CHARS)}… [${shown.length} characters]` : shown;
    return quotedLine(cut);
  });
  if (lines.length <= MAX_NOTEBOOK_OUTPUT_LINES) {
    return lines;
  }
  const head = Math.ceil(MAX_NOTEBOOK_OUTPUT_LINES / 2);
  const tail = MAX_NOTEBOOK_OUTPUT_LINES - head;
  return [...lines.slice(0, head), `… ${plural(lines.length - head - tail, 'line')} not shown (${lines.length} in all)`, ...lines.slice(lines.length - tail)];
}

function renderOutput(item: NotebookOutputItem): string[] {
  const { mime } = item;
  if (item.text === undefined || isImageMime(mime)) {
    const size = item.bytes !== undefined ? `, ${formatBytes(item.bytes)}` : '';
    return [`[${oneLine(mime)} output${size}]`];
  }
  if (mime === ERROR_MIME) {
    let err: { name?: unknown; message?: unknown; stack?: unknown } = {};
    try {
      err = JSON.parse(item.text) as typeof err;
    } catch {
      err = { name: 'Error', message: item.text };
    }
    const head = outputLines(`${String(err.name ?? 'Error')}: ${String(err.message ?? '')}`);
    const stack = typeof err.stack === 'string' && err.stack.trim() !== '' ? outputLines(err.stack) : [];
    return ['[error]', ...head, ...stack];
  }
  if (mime === STDOUT_MIME || mime === STDERR_MIME) {
    return [mime === STDOUT_MIME ? '[stdout]' : '[stderr]', ...outputLines(item.text)];
  }
  if (isReadableMime(mime)) {
    return [`[${mime}]`, ...outputLines(item.text)];
  }
  return [`[${oneLine(mime)} output, ${plural(item.text.length, 'character')}]`];
}

function attr(name: string, value: string): string {
  return `${name}="${oneLine(value).replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`)}"`;
}

/** A cell as the lines of its `<cell>` element. */
function renderCell(cell: NotebookCell, index: number): string[] {
  const attrs = [attr('index', String(index)), attr('kind', cell.kind), attr('language', cell.language)];
  if (cell.executionCount !== undefined) {
    attrs.push(attr('execution_count', String(cell.executionCount)));
  }
  const out = [`<cell ${attrs.join(' ')}>`];
  const source = splitLines(cell.source);
  if (source.length === 0) {
    out.push('(empty cell)');
  }
  source.forEach((line, i) => out.push(renderLine(cutLine(i + 1, line))));
  if (cell.outputs && cell.outputs.length > 0) {
    out.push('<outputs>', ...cell.outputs.flatMap(renderOutput), '</outputs>');
  }
  out.push('</cell>');
  return out;
}

export interface NotebookRenderOptions {
  /** Workspace-relative path with "/" (absolute outside the workspace). */
  displayPath: string;
  /**
   * 1-based first cell.
   * @default 1
   */
  offset?: number;
  /**
   * Cells wanted.
   * @default all that fit the byte cap
   */
  limit?: number;
  /**
   * UTF-8 bytes of rendered cells allowed; never more than {@link MAX_READ_BYTES}.
   * @default MAX_READ_BYTES
   */
  maxBytes?: number;
  /** Content hash of what was read, when the caller keeps one. */
  version?: string;
  /** The text is an editor's, with unsaved changes. */
  dirty?: boolean;
  /** The fs_read call that shows the cells from `offset` on. @default the path shown, at that offset */
  nextCall?(offset: number): string;
}

export interface NotebookPage {
  /** The whole envelope. */
  text: string;
  totalCells: number;
  /** 1-based cells shown, unset when none. */
  first?: number;
  last?: number;
  /** Set when cells remain: the offset that continues. */
  nextOffset?: number;
  /** Why the page stopped before the end. */
  stop?: 'limit' | 'bytes';
}

/**
 * The fs_read envelope of a notebook, paged over cells:
 *
 * ```
 * <path>analysis.ipynb</path>
 * <type>notebook</type>
 * <meta>cells 1-2 of 2, python, nbformat 4.5</meta>
 * <content>
 * <cell index="1" kind="markdown" language="markdown">
 * L1: # Load
 * </cell>
 * <cell index="2" kind="code" language="python" execution_count="3">
 * L1: print(len(df))
 * <outputs>
 * [stdout]
 * > 42
 * [image/png output, 12.1 KiB]
 * </outputs>
 * </cell>
 * </content>
 * End of file.
 * ```
 *
 * Throws an `offset-past-end` ToolError for an offset past the last cell.
 */
export function renderNotebook(nb: ParsedNotebook | readonly NotebookCell[], opts: NotebookRenderOptions): NotebookPage {
  const parsed: ParsedNotebook = Array.isArray(nb) ? { cells: [...nb] } : (nb as ParsedNotebook);
  const cells = parsed.cells;
  const total = cells.length;
  const offset = opts.offset ?? 1;
  const limit = opts.limit ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isInteger(offset) || offset < 1 || !Number.isInteger(limit) || limit < 1) {
    throw new ToolError('invalid-input', `offset and limit count cells in a notebook and must be whole numbers, 1 or more; got offset=${offset}, limit=${opts.limit}.`);
  }
  if (offset > Math.max(total, 1)) {
    throw new ToolError(
      'offset-past-end',
      `offset=${offset} is past the end of ${opts.displayPath}: it has ${plural(total, 'cell')}. Use an offset from 1 to ${Math.max(total, 1)}.`,
    );
  }
  const maxBytes = Math.min(opts.maxBytes ?? MAX_READ_BYTES, MAX_READ_BYTES);
  const body: string[] = [];
  let bytes = 0;
  let next = offset;
  let stop: NotebookPage['stop'];
  for (; next <= total; next++) {
    if (next - offset >= limit) {
      stop = 'limit';
      break;
    }
    let lines = renderCell(cells[next - 1], next);
    const size = lines.reduce((s, l) => s + Buffer.byteLength(l, 'utf8') + 1, 0);
    if (bytes + size > maxBytes) {
      if (body.length > 0) {
        stop = 'bytes';
        break;
      }
      // The first cell alone is over the cap: show what fits of it and say so.
      lines = cutCell(lines, maxBytes);
    }
    body.push(...lines);
    bytes += size;
  }
  const shown = next - offset;
  const first = shown > 0 ? offset : undefined;
  const last = shown > 0 ? next - 1 : undefined;
  const more = next <= total;

  const meta = [first === undefined ? 'no cells' : `${first === last ? 'cell' : 'cells'} ${span(first, last!)} of ${total}`];
  if (parsed.language) {
    meta.push(oneLine(parsed.language));
  }
  if (parsed.nbformat) {
    meta.push(`nbformat ${parsed.nbformat}`);
  }
  if (opts.version) {
    meta.push(`version ${opts.version}`);
  }
  if (opts.dirty) {
    meta.push('unsaved changes in editor');
  }
  const out = [`<path>${opts.displayPath}</path>`, '<type>notebook</type>', `<meta>${meta.join(', ')}</meta>`, '<content>', ...body, '</content>'];
  out.push(more ? continueLine((opts.nextCall ?? readPageCall(opts.displayPath))(next)) : END_OF_FILE);
  return { text: out.join('\n'), totalCells: total, first, last, nextOffset: more ? next : undefined, stop: more ? stop : undefined };
}

/** Keeps the start of a cell's lines within `maxBytes`, then a marker and the closing tag. */
function cutCell(lines: string[], maxBytes: number): string[] {
  const kept: string[] = [];
  let bytes = 0;
  // Room for the marker and `</cell>`.
  const room = maxBytes - 400;
  for (const l of lines.slice(0, -1)) {
    const size = Buffer.byteLength(l, 'utf8') + 1;
    if (kept.length > 1 && bytes + size > room) {
      break;
    }
    kept.push(l);
    bytes += size;
  }
  const dropped = lines.length - 1 - kept.length;
  if (kept.lastIndexOf('<outputs>') > kept.lastIndexOf('</outputs>')) {
    kept.push('</outputs>');
  }
  kept.push(`… [cell cut: ${plural(dropped, 'more line')} of this cell and its outputs not shown, over the 50 KiB output cap; search them with fs_grep]`, '</cell>');
  return kept;
}
