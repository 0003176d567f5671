import * as nodePath from 'node:path';
import { z } from 'zod';
import { throwIfCancelled } from '../core/cancel';
import { ToolError } from '../core/errors';
import { formatBytes } from '../core/format';
import { FULL_READ_MAX_BYTES, MAX_READ_LINES, SNIFF_BYTES } from '../core/limits';
import { locate } from '../core/paths';
import { describeImage, imageInfo, imageTooLarge } from '../core/read/image';
import { rankSimilar } from '../core/suggest';
import { extensionOf, isBinaryExtension, sniffBinary } from '../core/text/binary';
import { decodeText, detectBom, encodingLabel, type Encoding } from '../core/text/encoding';
import { detectFileType } from '../core/text/sniff';
import { boolField, intField } from './input';
import type { ToolResult } from './result';
import { openDocumentFor, preparationFor, readDecision, resolveTarget, type Target } from './target';
import { readText, type TextRequest, type TextSource } from './readText';
import type { ToolContext, ToolSpec } from './types';

const indentationSchema = z.strictObject({
  anchor_line: intField(1).optional(),
  max_levels: intField(0).optional(),
  include_siblings: boolField().optional(),
  include_header: boolField().optional(),
  max_lines: intField(1).optional(),
});

export const readSchema = z
  .strictObject({
    path: z.string({ error: 'expected a file path (string)' }).min(1, { error: 'must not be empty' }),
    offset: intField(1).optional(),
    limit: intField(1).optional(),
    mode: z.enum(['slice', 'indentation'], { error: 'expected "slice" or "indentation"' }).optional(),
    indentation: indentationSchema.optional(),
  })
  .refine((v) => !(v.mode === 'slice' && v.indentation), {
    error: 'indentation options apply only with mode "indentation"',
    path: ['indentation'],
  });

export type ReadInput = z.output<typeof readSchema>;

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

async function binaryError(t: Target, size: number, head: Uint8Array, reason: string): Promise<ToolError> {
  const type = await detectFileType(head).catch(() => undefined);
  const what = type ? `a ${type.ext.toUpperCase()} file (${type.mime})` : 'a binary file';
  return new ToolError(
    'binary',
    `Cannot read ${t.located.display} as text: it is ${what} (${reason}; ${formatBytes(size)}). ` +
      'Its bytes would only be noise to a model. Look for a text source instead (fs_grep for its name, or fs_list its folder), or ask the user what it holds.',
  );
}

/** The first bytes of a file and a way to go on reading it, without loading a large file whole. */
async function openFile(ctx: ToolContext, path: string, size: number): Promise<{ head: Uint8Array; whole: Uint8Array | undefined; rest: AsyncIterable<Uint8Array>; close(): Promise<void> }> {
  if (size <= FULL_READ_MAX_BYTES) {
    const whole = await ctx.ws.readFile(path);
    return { head: whole, whole, rest: (async function* () {})(), close: async () => {} };
  }
  const iterator = ctx.ws.readStream(path)[Symbol.asyncIterator]();
  const first = await iterator.next();
  return {
    head: first.done ? new Uint8Array(0) : first.value,
    whole: undefined,
    rest: { [Symbol.asyncIterator]: () => iterator },
    close: async () => {
      await iterator.return?.();
    },
  };
}

function textRequest(input: ReadInput): TextRequest {
  const offset = input.offset ?? 1;
  const req: TextRequest = { offset, limit: Math.min(input.limit ?? MAX_READ_LINES, MAX_READ_LINES) };
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

async function readFile(ctx: ToolContext, t: Target, input: ReadInput, size: number): Promise<ToolResult> {
  const file = await openFile(ctx, t.real, size);
  let handedOver = false;
  try {
    const head = file.head;
    const image = imageInfo(head.subarray(0, 64 * 1024));
    if (image) {
      if (size > ctx.settings.maxImageBytes) {
        throw imageTooLarge(t.located.display, image, size, ctx.settings.maxImageBytes, 'agentFileTools.maxImageBytes');
      }
      const bytes = file.whole ?? (await ctx.ws.readFile(t.real));
      return {
        isError: false,
        parts: [
          { kind: 'text', text: `${describeImage(t.located.display, image, size)}\nThe image is attached.` },
          { kind: 'data', mime: image.mime, data: bytes },
        ],
      };
    }
    const sniff = sniffBinary(head.subarray(0, SNIFF_BYTES));
    if (sniff.binary || isBinaryExtension(t.real)) {
      throw await binaryError(t, size, head.subarray(0, 64 * 1024), sniff.binary ? (sniff.reason ?? 'binary content') : `its .${extensionOf(t.real)} extension marks it as binary`);
    }
    const req = textRequest(input);
    let src: TextSource;
    if (file.whole) {
      const { text, encoding } = decodeText(file.whole);
      src = { kind: 'text', text, encoding: encodingLabel(encoding), dirty: false };
    } else {
      const { encoding, bomBytes } = detectBom(head);
      src = { kind: 'stream', chunks: file.rest, head, encoding, bomBytes, fileBytes: size };
      handedOver = true;
    }
    return { isError: false, parts: [{ kind: 'text', text: await readText(ctx, t, src, req) }] };
  } finally {
    if (!handedOver) {
      await file.close();
    }
  }
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
    throwIfCancelled(ctx.signal);
    const doc = openDocumentFor(ctx, t);
    if (doc) {
      const src: TextSource = { kind: 'text', text: doc.text, encoding: encodingLabel(doc.encoding as Encoding), dirty: doc.isDirty };
      return { isError: false, parts: [{ kind: 'text', text: await readText(ctx, t, src, textRequest(input)) }] };
    }
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
    return readFile(ctx, t, input, st.size);
  },
};
