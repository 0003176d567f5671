import { ToolError } from '../core/errors';
import { cellsVersion } from '../core/notebook/cells';
import { readWholeUpTo, type OpenedFile } from '../core/file';
import { formatBytes } from '../core/format';
import { sampledVersion, textVersion, VERSION_SAMPLE_BYTES } from '../core/hash';
import { FULL_READ_MAX_BYTES, MAX_EDIT_FILE_BYTES, SNIFF_BYTES, STREAM_CHUNK_BYTES } from '../core/limits';
import { extensionOf, isBinaryExtension, sniffBinary } from '../core/text/binary';
import { decodeTextExact, encodingLabel, UndecodableError, type Encoding } from '../core/text/encoding';
import { detectEol, type EolKind } from '../core/text/lines';
import type { FileStat, OpenDocument } from '../host/workspace';
import { openDocumentFor, type Target } from './target';
import type { ToolContext } from './types';

/**
 * The current text of a file, as every tool sees it: the editor's buffer when the file is
 * open (unsaved changes and all), else the file decoded from its bytes. An edit works on
 * exactly the text the model was shown, and `encodeFileText` writes it back byte for byte.
 */
export interface FileText {
  text: string;
  /** How the file's bytes encode the text (an editor may report one of its own ids). */
  encoding: Encoding | string;
  eol: EolKind;
  /** The identity of the whole content (see core/hash.ts). */
  version: string;
  /** Set when an editor holds the file: its buffer is the text. */
  editor?: { dirty: boolean };
  /**
   * The file on disk when the text was taken from it (read, or held by a clean document):
   * a clean document follows the disk only a moment later, so a later look compares these.
   */
  disk?: { size: number; mtimeMs: number };
}

/** Reads `bytes` from the end of a file, through the workspace's stream. */
async function readTail(ctx: ToolContext, path: string, size: number, bytes: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let got = 0;
  for await (const c of ctx.ws.readStream(path, Math.max(0, size - bytes))) {
    chunks.push(c);
    got += c.byteLength;
  }
  return Buffer.concat(chunks).subarray(Math.max(0, got - bytes));
}

/** The version of a file on disk too large to hash whole: its size, time and both ends. */
export async function diskVersion(ctx: ToolContext, path: string, st: FileStat, head: Uint8Array): Promise<string> {
  return sampledVersion(st.size, st.mtimeMs, head.subarray(0, VERSION_SAMPLE_BYTES), await readTail(ctx, path, st.size, VERSION_SAMPLE_BYTES));
}

/** {@link diskVersion} of a file read through its handle (the file decided on, whatever its path does). */
export async function openedFileVersion(file: OpenedFile, head: Uint8Array): Promise<string> {
  const n = Math.min(file.size, VERSION_SAMPLE_BYTES);
  return sampledVersion(file.size, file.mtimeMs, head.subarray(0, VERSION_SAMPLE_BYTES), await file.read(file.size - n, n));
}

/** The version of text decoded from a file of `fileBytes` bytes (see core/hash.ts). */
export async function versionOfFile(ctx: ToolContext, path: string, st: FileStat, head: Uint8Array, text: () => string): Promise<string> {
  return st.size > FULL_READ_MAX_BYTES ? diskVersion(ctx, path, st, head) : textVersion(text());
}

/** An editor buffer's version: its text's, or, when it is unchanged from a large file, the file's. */
export async function documentVersion(ctx: ToolContext, t: Target, doc: OpenDocument, st?: FileStat): Promise<string> {
  st ??= doc.isDirty ? undefined : await ctx.ws.stat(t.real);
  return st && st.type === 'file' && st.size > FULL_READ_MAX_BYTES ? diskVersion(ctx, t.real, st, await readHead(ctx, t.real)) : textVersion(doc.text);
}

/**
 * Loads the text a change will be made to. Undefined when nothing is there. Refuses,
 * with a message the model can act on, what cannot be edited as text: folders, devices,
 * binary files, files over MAX_EDIT_FILE_BYTES, and bytes that do not decode exactly
 * (writing them back would change bytes the model never saw).
 *
 * The file is opened once, at the real path the policy decided on, without following a
 * final link and never waiting on a FIFO; what was opened must be that path (a file
 * swapped for a link, or a folder on its path, since the decision is refused), must be
 * a regular file, and is read through the descriptor, at most MAX_EDIT_FILE_BYTES
 * whatever its size says. Nothing else's bytes can reach a preview, a closest region or
 * a patch match.
 */
export async function loadFileText(ctx: ToolContext, t: Target): Promise<FileText | undefined> {
  // A notebook an editor holds with unsaved changes has its cells' version, as fs_read
  // gives it (its file is not what the person sees, and no whole-file change goes there);
  // a clean one has its text's, which covers the outputs and metadata a change rewrites.
  const nb = ctx.ws.openNotebook(t.abs) ?? (t.real !== t.abs ? ctx.ws.openNotebook(t.real) : undefined);
  const asCells = nb?.isDirty ? cellsVersion(nb.cells) : undefined;
  const doc = openDocumentFor(ctx, t);
  if (doc) {
    const st = doc.isDirty ? undefined : await ctx.ws.stat(t.real);
    const disk = st?.type === 'file' ? { disk: { size: st.size, mtimeMs: st.mtimeMs } } : {};
    return { text: doc.text, encoding: doc.encoding, eol: detectEol(doc.text), version: asCells ?? (await documentVersion(ctx, t, doc, st)), editor: { dirty: doc.isDirty }, ...disk };
  }
  let file: OpenedFile | undefined;
  try {
    file = await ctx.ws.openFile(t.real, { noFollow: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') {
      throw changedWhileOpened(t);
    }
    throw e;
  }
  if (!file) {
    return undefined;
  }
  try {
    const loaded = await decodeOpened(t, file);
    return asCells ? { ...loaded, version: asCells } : loaded;
  } finally {
    await file.close().catch(() => undefined);
  }
}

function changedWhileOpened(t: Target): ToolError {
  return new ToolError('changed', `${t.located.display} changed while it was opened (it was replaced by a link, or a folder on its path became one), so nothing was read or changed. Read it again, then redo the change.`);
}

async function decodeOpened(t: Target, file: OpenedFile): Promise<FileText> {
  if (file.realPath !== t.real) {
    throw changedWhileOpened(t);
  }
  if (file.type === 'directory') {
    throw new ToolError('not-a-file', `${t.located.display} is a folder, not a file.`);
  }
  if (file.type !== 'file') {
    throw new ToolError('not-a-file', `${t.located.display} is not a regular file (a device, socket or pipe) and cannot be edited.`);
  }
  const tooLarge = (size: string) => new ToolError('too-large', `${t.located.display} is ${size}, over the ${formatBytes(MAX_EDIT_FILE_BYTES)} that can be edited as text.`);
  if (file.size > MAX_EDIT_FILE_BYTES) {
    throw tooLarge(formatBytes(file.size));
  }
  let bytes: Uint8Array | undefined;
  try {
    bytes = await readWholeUpTo(file, MAX_EDIT_FILE_BYTES, STREAM_CHUNK_BYTES);
  } catch (e) {
    // a regular file by its type that refuses to be read as one (a file of the system)
    throw new ToolError('not-a-file', `${t.located.display} cannot be read as a regular file (${(e as NodeJS.ErrnoException).code ?? 'read error'}) and cannot be edited.`);
  }
  if (!bytes) {
    // it gave more than its size said: a file of the system (/proc), or one growing now
    throw tooLarge(`more than ${formatBytes(MAX_EDIT_FILE_BYTES)} when read (its size said ${formatBytes(file.size)})`);
  }
  const sniff = sniffBinary(bytes.subarray(0, SNIFF_BYTES));
  if (sniff.binary || isBinaryExtension(t.real)) {
    const why = sniff.binary ? (sniff.reason ?? 'binary content') : `its .${extensionOf(t.real)} extension marks it as binary`;
    throw new ToolError('binary', `${t.located.display} is a binary file (${why}) and cannot be edited as text.`);
  }
  let decoded;
  try {
    decoded = decodeTextExact(bytes);
  } catch (e) {
    if (e instanceof UndecodableError) {
      throw new ToolError(
        'binary',
        `${t.located.display} is not valid ${encodingLabel(e.encoding)} (it may use a legacy encoding such as Latin-1). Editing it as text would change bytes that cannot be shown, so it is refused. Ask the user to convert it to UTF-8 first.`,
      );
    }
    throw e;
  }
  // the version of what was read: a large file's from the descriptor, as fs_read computes it
  const version = file.size > FULL_READ_MAX_BYTES ? await openedFileVersion(file, bytes) : textVersion(decoded.text);
  return { text: decoded.text, encoding: decoded.encoding, eol: detectEol(decoded.text), version, disk: { size: file.size, mtimeMs: file.mtimeMs } };
}

async function readHead(ctx: ToolContext, path: string): Promise<Uint8Array> {
  for await (const c of ctx.ws.readStream(path)) {
    return c;
  }
  return new Uint8Array(0);
}
