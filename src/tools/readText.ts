import { ToolError } from '../core/errors';
import { formatBytes } from '../core/format';
import { FULL_READ_MAX_BYTES, LINE_TOTAL_MAX_BYTES, MAX_READ_BYTES, MAX_READ_LINES } from '../core/limits';
import { describeIndentationBlock, indentationBlock, type IndentationOptions } from '../core/read/indentation';
import type { PageRequest, PieceCall } from '../core/read/page';
import { renderFileEnvelope } from '../core/read/render';
import type { LineIndex } from '../core/read/lineIndex';
import { pageWithIndex, type ByteSource } from '../core/read/seek';
import { pageFromUtf8Stream } from '../core/read/streamPage';
import { ColumnPastEnd, OffsetPastEnd, pageFromLines, type Page } from '../core/read/textPage';
import { decoderLabel, encodingLabel, type Encoding } from '../core/text/encoding';
import { detectEol, splitLines } from '../core/text/lines';
import { fitToBudget } from '../services/budget';
import { readPageCap } from '../services/settings';
import { fileKey, type Target } from '../services/target';
import type { ToolContext } from '../services/types';

/** Where the text comes from: decoded whole (an editor buffer or a small file), or a stream. */
export type TextSource =
  | { kind: 'text'; text: string; encoding: string; dirty: boolean; version: string }
  | {
      kind: 'stream';
      chunks: AsyncIterable<Uint8Array>;
      head: Uint8Array;
      encoding: Encoding;
      bomBytes: number;
      fileBytes: number;
      version: string;
      /** A UTF-8 file: its bytes by position and its line index, so a deep page starts from the nearest checkpoint. */
      indexed?: { bytes: ByteSource; index: LineIndex };
    };

export interface TextRequest {
  offset: number;
  limit: number;
  /** 1-based column the first line starts at. */
  column?: number;
  indentation?: IndentationOptions;
  /** A symbol's lines (1-based, inclusive): read as a block, said in the meta as `describe`. */
  range?: { first: number; last: number; describe: string };
  /** The fs_read call for a page starting at `offset` (slice mode, the caller's other options kept). */
  nextCall(offset: number): string;
  /** The fs_read call for a line from `column` on. */
  pieceCall: PieceCall;
  /** The fs_read call for lines `offset`..`offset+limit-1` in slice mode, nothing else. */
  rangeCall(offset: number, limit: number): string;
}

/** Bytes in, UTF-8 chunks out, after the BOM; UTF-16 is re-encoded so one line engine serves all. */
async function* utf8Chunks(rest: AsyncIterable<Uint8Array>, head: Uint8Array, encoding: Encoding, bomBytes: number): AsyncGenerator<Uint8Array> {
  if (encoding === 'utf-8' || encoding === 'utf-8-bom') {
    if (head.length > bomBytes) {
      yield head.subarray(bomBytes);
    }
    yield* rest;
    return;
  }
  const decoder = new TextDecoder(decoderLabel(encoding), { ignoreBOM: true });
  yield Buffer.from(decoder.decode(head.subarray(bomBytes), { stream: true }), 'utf8');
  for await (const chunk of rest) {
    yield Buffer.from(decoder.decode(chunk, { stream: true }), 'utf8');
  }
  const tail = decoder.decode();
  if (tail) {
    yield Buffer.from(tail, 'utf8');
  }
}

function columnError(t: Target, e: ColumnPastEnd): ToolError {
  return new ToolError(
    'offset-past-end',
    e.lineLength === 0
      ? `column=${e.column} is past the end of line ${e.line} of ${t.located.display}: the line is empty. Omit column.`
      : `column=${e.column} is past the end of line ${e.line} of ${t.located.display}: the line has ${e.lineLength} characters. Use a column from 1 to ${e.lineLength}.`,
  );
}

function offsetError(t: Target, e: OffsetPastEnd): ToolError {
  const n = e.totalLines;
  return new ToolError(
    'offset-past-end',
    n === 0
      ? `offset=${e.offset} is past the end of ${t.located.display}: the file is empty (0 lines). Read it with offset=1.`
      : `offset=${e.offset} is past the end of ${t.located.display}: the file has ${n} lines. Use an offset from 1 to ${n}.`,
  );
}

interface Paged {
  page: Page;
  encoding: string;
  dirty: boolean;
  bytes: number;
  wholeText: string | undefined;
  /** Indentation mode: the call that continues the block from a line, and the block for the meta. */
  continueWith?: (next: number) => string;
  block?: string;
  blockEnd?: string;
}

async function pageText(ctx: ToolContext, t: Target, src: TextSource, req: TextRequest): Promise<Paged> {
  const cap = readPageCap(ctx.settings);
  const pageReq: PageRequest = { offset: req.offset, limit: Math.min(req.limit, cap.lines), maxBytes: cap.bytes, column: req.column, pieceCall: req.pieceCall };
  if (src.kind === 'stream') {
    if (req.indentation) {
      throw new ToolError(
        'invalid-input',
        `Indentation mode reads the whole file, and ${t.located.display} is ${formatBytes(src.fileBytes)} (over ${formatBytes(FULL_READ_MAX_BYTES)}). ` +
          `Use mode="slice" with offset and limit around line ${req.indentation.anchorLine}, or fs_grep to find the block.`,
      );
    }
    const fromStart = () => utf8Chunks(src.chunks, src.head, src.encoding, src.bomBytes);
    const page = src.indexed
      ? await pageWithIndex(src.indexed.bytes, src.indexed.index, pageReq, { bomBytes: src.bomBytes, totalMaxBytes: LINE_TOTAL_MAX_BYTES, signal: ctx.signal, fromStart, ...(ctx.ws.lineScanChunkBytes ? { chunkBytes: ctx.ws.lineScanChunkBytes } : {}) })
      : await pageFromUtf8Stream(fromStart(), pageReq, ctx.signal);
    return { page, encoding: encodingLabel(src.encoding), dirty: false, bytes: src.fileBytes, wholeText: undefined };
  }
  const bytes = Buffer.byteLength(src.text, 'utf8');
  const lines = splitLines(src.text);
  // A symbol's range or an indentation block: paged over those lines only (lines past it are not part of this answer).
  const rangePage = (first: number, last: number, block: string, blockEnd?: string): Paged => ({
    page: { ...pageFromLines(lines.slice(0, last), { offset: first, limit: Math.min(last - first + 1, cap.lines), maxBytes: cap.bytes, pieceCall: req.pieceCall }), totalLines: lines.length },
    encoding: src.encoding,
    dirty: src.dirty,
    bytes,
    wholeText: src.text,
    continueWith: (next) => req.rangeCall(next, last - next + 1),
    block,
    blockEnd,
  });
  if (req.range) {
    return rangePage(req.range.first, req.range.last, req.range.describe, 'End of symbol.');
  }
  if (req.indentation) {
    const block = indentationBlock(lines, req.indentation);
    return rangePage(block.first, block.last, describeIndentationBlock(block));
  }
  const page = pageFromLines(lines, pageReq);
  if (bytes > LINE_TOTAL_MAX_BYTES && page.nextOffset !== undefined) {
    // The same answer a streamed read of the file gives: no total.
    return { page: { ...page, totalLines: undefined }, encoding: src.encoding, dirty: src.dirty, bytes, wholeText: undefined };
  }
  return { page, encoding: src.encoding, dirty: src.dirty, bytes, wholeText: src.text };
}

/**
 * What ended a page before the end, when the model could not tell from its own call: the
 * byte cap (the file is dense, and reading on page by page costs much), or a page limit the
 * person set lower than the one the tool's description gives.
 */
function capAdvice(stop: Page['builder']['stop'], asked: number, cap: { lines: number; bytes: number }): string | undefined {
  if (stop === 'bytes') {
    const set = cap.bytes < MAX_READ_BYTES ? ' set by the agentFileTools.read.maxBytes setting' : '';
    return `The page stopped at the ${formatBytes(cap.bytes)} cap${set}. To read less: fs_grep for what you need in this file, or mode "indentation" for the block around one line.`;
  }
  if (stop === 'limit' && cap.lines < MAX_READ_LINES && asked > cap.lines) {
    return `Pages here hold at most ${cap.lines} lines (the agentFileTools.read.maxLines setting).`;
  }
  return undefined;
}

/** Pages a text source into the envelope, sized to the token budget, and records what the model saw. */
export async function readText(ctx: ToolContext, t: Target, src: TextSource, req: TextRequest): Promise<string> {
  let paged: Paged;
  try {
    paged = await pageText(ctx, t, src, req);
  } catch (e) {
    throw e instanceof OffsetPastEnd ? offsetError(t, e) : e instanceof ColumnPastEnd ? columnError(t, e) : e;
  }
  const { page } = paged;
  const lines = page.builder.lines;
  const eol = paged.wholeText !== undefined ? detectEol(paged.wholeText) : detectEol(lines.map((l) => l.text).join('\n'));
  const version = src.version;
  const cap = readPageCap(ctx.settings);
  const envelope = (k: number): string => {
    const next = k < lines.length ? lines[k].n : page.nextOffset;
    return renderFileEnvelope({
      displayPath: t.located.display,
      rendered: page.builder.rendered.slice(0, k),
      first: lines[0]?.n,
      last: lines[k - 1]?.n,
      column: lines[0]?.column,
      totalLines: page.totalLines,
      fileBytes: paged.bytes,
      encoding: paged.encoding,
      eol,
      version,
      dirty: paged.dirty,
      continueCall: next === undefined ? undefined : paged.continueWith ? paged.continueWith(next) : req.nextCall(next),
      block: paged.block,
      blockEnd: paged.blockEnd,
      advice: k === lines.length && next !== undefined ? capAdvice(page.builder.stop, req.limit, cap) : undefined,
    });
  };
  const fitted = await fitToBudget(ctx, Math.max(lines.length, 1), (k) => envelope(Math.min(k, lines.length)));
  const k = Math.min(fitted.k, lines.length);
  ctx.ledger.record(fileKey(ctx, t.real), {
    version,
    first: lines[0]?.n,
    last: lines[k - 1]?.n,
  });
  return fitted.text;
}
