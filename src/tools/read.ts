import * as nodePath from 'node:path';
import { z } from 'zod';
import { throwIfCancelled } from '../core/cancel';
import { ToolError } from '../core/errors';
import { formatBytes, formatCount } from '../core/format';
import { textVersion } from '../core/hash';
import { FULL_READ_MAX_BYTES, MAX_READ_LINES, SNIFF_BYTES } from '../core/limits';
import type { PageRequest } from '../core/read/page';
import { renderFileEnvelope } from '../core/read/render';
import { pageFromUtf8Stream } from '../core/read/streamPage';
import { OffsetPastEnd, pageFromText, type Page } from '../core/read/textPage';
import { isBinaryExtension, sniffBinary, extensionOf } from '../core/text/binary';
import { decodeText, decoderLabel, detectBom, encodingLabel, type Encoding } from '../core/text/encoding';
import { detectEol } from '../core/text/lines';
import { rankSimilar } from '../core/suggest';
import { locate } from '../core/paths';
import { intField } from './input';
import { textResult, type ToolResult } from './result';
import { openDocumentFor, preparationFor, readDecision, resolveTarget, type Target } from './target';
import type { ToolContext, ToolSpec } from './types';

export const readSchema = z.strictObject({
  path: z.string({ error: 'expected a file path (string)' }).min(1, { error: 'must not be empty' }),
  offset: intField(1).optional(),
  limit: intField(1).optional(),
});

export type ReadInput = z.output<typeof readSchema>;

/** Bytes in, chunks out, after the BOM; UTF-16 is re-encoded to UTF-8 so one line engine serves all. */
async function* utf8Chunks(source: AsyncIterable<Uint8Array>, first: Uint8Array, encoding: Encoding, bomBytes: number): AsyncGenerator<Uint8Array> {
  if (encoding === 'utf-8' || encoding === 'utf-8-bom') {
    if (first.length > bomBytes) {
      yield first.subarray(bomBytes);
    }
    yield* source;
    return;
  }
  const decoder = new TextDecoder(decoderLabel(encoding), { ignoreBOM: true });
  yield Buffer.from(decoder.decode(first.subarray(bomBytes), { stream: true }), 'utf8');
  for await (const chunk of source) {
    yield Buffer.from(decoder.decode(chunk, { stream: true }), 'utf8');
  }
  const tail = decoder.decode();
  if (tail) {
    yield Buffer.from(tail, 'utf8');
  }
}

function offsetError(t: Target, e: OffsetPastEnd): ToolError {
  const n = e.totalLines;
  return new ToolError(
    'offset-past-end',
    n === 0
      ? `offset=${e.offset} is past the end of ${t.located.display}: the file is empty (0 lines). Read it with offset=1.`
      : `offset=${e.offset} is past the end of ${t.located.display}: the file has ${formatCount(n)} lines. Use an offset from 1 to ${n}.`,
  );
}

async function notFound(ctx: ToolContext, t: Target): Promise<ToolError> {
  const dir = nodePath.dirname(t.real);
  const want = nodePath.basename(t.real);
  let suggestions: string[] = [];
  try {
    const entries = await ctx.ws.readDirectory(dir);
    suggestions = rankSimilar(
      want,
      entries.map((e) => e.name),
    ).map((name) => locate(nodePath.join(dir, name), ctx.ws.roots()).display);
  } catch {
    // the folder is missing too: nothing to suggest from it
  }
  const lines = [`File not found: ${t.located.display}`];
  if (suggestions.length) {
    lines.push('Did you mean one of these?', ...suggestions.map((s) => `- ${s}`));
  } else {
    lines.push('Use fs_glob with the file name, or fs_list on the folder, to find it.');
  }
  return new ToolError('not-found', lines.join('\n'));
}

function binaryError(t: Target, size: number, reason: string): ToolError {
  return new ToolError(
    'binary',
    `Cannot read ${t.located.display} as text: it is a binary file (${reason}; ${formatBytes(size)}). ` +
      'Reading it would only give the model noise. Look for a text source instead (fs_grep for its name, or fs_list its folder), or ask the user what it holds.',
  );
}

interface Decoded {
  page: Page;
  encoding: string;
  eol: string;
  version: string;
  scope: 'file' | 'page';
  dirty: boolean;
  bytes: number;
}

function fromText(text: string, req: PageRequest, encoding: string, dirty: boolean): Decoded {
  const bytes = Buffer.byteLength(text, 'utf8');
  const page = pageFromText(text, req);
  if (bytes > FULL_READ_MAX_BYTES && page.nextOffset !== undefined) {
    // The same answer a streamed read of the file gives: no total, a version of the page.
    return { page: { ...page, totalLines: undefined }, encoding, eol: detectEol(page.builder.lines.map((l) => l.text).join('\n')), version: textVersion(page.builder.rendered.join('\n')), scope: 'page', dirty, bytes };
  }
  return { page, encoding, eol: detectEol(text), version: textVersion(text), scope: 'file', dirty, bytes };
}

async function readFileText(ctx: ToolContext, t: Target, size: number, req: PageRequest): Promise<Decoded> {
  if (size <= FULL_READ_MAX_BYTES) {
    const bytes = await ctx.ws.readFile(t.real);
    const verdict = sniffBinary(bytes.subarray(0, SNIFF_BYTES));
    if (verdict.binary) {
      throw binaryError(t, size, verdict.reason ?? 'binary content');
    }
    const { text, encoding } = decodeText(bytes);
    return fromText(text, req, encodingLabel(encoding), false);
  }
  // Large file: stream. The first chunk tells the encoding and whether it is text.
  const iterator = ctx.ws.readStream(t.real)[Symbol.asyncIterator]();
  const first = await iterator.next();
  const head: Uint8Array = first.done ? new Uint8Array(0) : first.value;
  const rest: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: () => iterator };
  const verdict = sniffBinary(head.subarray(0, SNIFF_BYTES));
  if (verdict.binary) {
    await iterator.return?.();
    throw binaryError(t, size, verdict.reason ?? 'binary content');
  }
  const { encoding, bomBytes } = detectBom(head);
  const page = await pageFromUtf8Stream(utf8Chunks(rest, head, encoding, bomBytes), req, ctx.signal);
  const shown = page.builder.lines.map((l) => l.text).join('\n');
  return { page, encoding: encodingLabel(encoding), eol: detectEol(shown), version: textVersion(page.builder.rendered.join('\n')), scope: 'page', dirty: false, bytes: size };
}

export const readTool: ToolSpec<typeof readSchema> = {
  name: 'fs_read',
  mutates: false,
  schema: readSchema,
  example: '{"path": "src/app.ts", "offset": 1, "limit": 200}',

  async prepare(input, ctx) {
    const t = await resolveTarget(ctx, input.path);
    return preparationFor(readDecision(ctx, t, 'fs_read', 'read'), `Reading ${t.located.display}`);
  },

  async invoke(input: ReadInput, ctx: ToolContext): Promise<ToolResult> {
    const t = await resolveTarget(ctx, input.path);
    const req: PageRequest = { offset: input.offset ?? 1, limit: Math.min(input.limit ?? MAX_READ_LINES, MAX_READ_LINES) };
    throwIfCancelled(ctx.signal);
    const doc = openDocumentFor(ctx, t);
    let decoded: Decoded;
    try {
      if (doc) {
        decoded = fromText(doc.text, req, encodingLabel(doc.encoding as Encoding), doc.isDirty);
      } else {
        const st = await ctx.ws.stat(t.real);
        if (!st || st.type === 'symlink') {
          throw await notFound(ctx, t);
        }
        if (st.type === 'directory') {
          throw new ToolError('not-a-file', `${t.located.display} is a directory. Use fs_list to see what it holds.`);
        }
        if (st.type !== 'file') {
          throw new ToolError('not-a-file', `${t.located.display} is not a regular file (a device, socket or pipe) and cannot be read.`);
        }
        if (isBinaryExtension(t.real)) {
          throw binaryError(t, st.size, `.${extensionOf(t.real)} file`);
        }
        decoded = await readFileText(ctx, t, st.size, req);
      }
    } catch (e) {
      if (e instanceof OffsetPastEnd) {
        throw offsetError(t, e);
      }
      throw e;
    }
    const { page } = decoded;
    const lines = page.builder.lines;
    ctx.ledger.record(t.real, {
      version: decoded.version,
      scope: decoded.scope,
      first: lines[0]?.n,
      last: lines[lines.length - 1]?.n,
    });
    return textResult(
      renderFileEnvelope({
        displayPath: t.located.display,
        rendered: page.builder.rendered,
        first: lines[0]?.n,
        last: lines[lines.length - 1]?.n,
        totalLines: page.totalLines,
        fileBytes: decoded.bytes,
        encoding: decoded.encoding,
        eol: decoded.eol,
        version: decoded.version,
        dirty: decoded.dirty,
        nextOffset: page.nextOffset,
        stop: page.stop,
        limit: req.limit,
      }),
    );
  },
};
