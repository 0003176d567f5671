/** What a directory entry is, as a walk or a listing names it. */
export type ListEntryType = 'file' | 'directory' | 'symlink' | 'other';

/**
 * A file opened for reading. What was opened is what is read, whatever happens to its
 * path meanwhile: a tool decides on a path, opens it, checks that `realPath` is the path
 * it decided on, and reads only through this handle. Opening never waits on a FIFO and
 * never reads a device: `type` says what it is before any byte is read.
 */
export interface OpenedFile {
  /** What was opened, from the open descriptor ("other": a FIFO, socket or device). */
  readonly type: Exclude<ListEntryType, 'symlink'>;
  readonly size: number;
  readonly mtimeMs: number;
  /**
   * The real path of the file opened: what the system reports for the descriptor, or,
   * where it cannot, the resolved path when it still names the very file opened.
   * Undefined when neither can be told (the path changed while it was opened).
   */
  readonly realPath: string | undefined;
  /** Up to `length` bytes from `position` (fewer at the end of the file). */
  read(position: number, length: number): Promise<Uint8Array>;
  /**
   * Up to `length` bytes from `position` into `target`, without allocating; the count read
   * (0 at the end). Where a file has no descriptor it is left out: see {@link readIntoOf}.
   */
  readInto?(target: Uint8Array, position: number, length: number): Promise<number>;
  /** The bytes from `start` to the end, in chunks; stopping early reads no more. */
  stream(start?: number): AsyncIterable<Uint8Array>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /**
   * Refuse a final symbolic link (O_NOFOLLOW; the open throws ELOOP): for a path already
   * resolved, where a link there now is a file swapped since the decision.
   */
  noFollow?: boolean;
}

/** The part of the workspace seam that opens files. */
export interface FileOpener {
  /** Opens a file or folder for reading; undefined when nothing is there. */
  openFile(path: string, opts?: OpenOptions): Promise<OpenedFile | undefined>;
  /**
   * Whether anything is at a path, a link included, where that is known at once (a local
   * disk: one lstat); undefined where it must be waited for. A name that cannot be looked
   * at counts as there.
   */
  presentNow?(path: string): boolean | undefined;
}

/**
 * The whole content of an opened file, read through its descriptor, or undefined as soon
 * as it holds more than `maxBytes`: what the descriptor gives, not what its size said
 * (a file of /proc says 0 and gives gigabytes; a file may grow while it is read). Memory
 * stays within `maxBytes` plus one chunk.
 */
export async function readWholeUpTo(file: OpenedFile, maxBytes: number, chunkBytes: number): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let got = 0;
  // The stated size is read in one piece with a chunk more, which proves the end. Whole
  // chunks only: some files of the system (/proc/self/pagemap) refuse reads of other sizes.
  let want = Math.min(Math.max(file.size, 0), maxBytes) + chunkBytes;
  for (;;) {
    const c = await file.read(got, want);
    if (c.byteLength === 0) {
      break;
    }
    chunks.push(c);
    got += c.byteLength;
    if (got > maxBytes) {
      return undefined;
    }
    want = chunkBytes;
  }
  return chunks.length === 1 ? chunks[0] : concatBytes(chunks, got);
}

function concatBytes(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** The file's `readInto`, or one made of `read` (a copy) where it has none. */
export function readIntoOf(file: OpenedFile): (target: Uint8Array, position: number, length: number) => Promise<number> {
  if (file.readInto) {
    return (target, position, length) => file.readInto!(target, position, length);
  }
  return async (target, position, length) => {
    const bytes = await file.read(position, Math.min(length, target.length));
    target.set(bytes);
    return bytes.length;
  };
}

/** The first `maxBytes` bytes of an opened file (all of it when smaller). */
export async function readHead(file: OpenedFile, maxBytes: number): Promise<Uint8Array> {
  return file.read(0, Math.min(file.size, maxBytes));
}

/** Drops an incomplete UTF-8 sequence at the end of bytes cut from a longer text. */
export function completeUtf8(bytes: Uint8Array): Uint8Array {
  let i = bytes.length - 1;
  // step back over continuation bytes (10xxxxxx) to the sequence's lead byte
  while (i >= 0 && i > bytes.length - 4 && (bytes[i] & 0xc0) === 0x80) {
    i--;
  }
  if (i < 0) {
    return bytes;
  }
  const lead = bytes[i];
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - i < need ? bytes.subarray(0, i) : bytes;
}

/**
 * The start of a regular file, at most `maxBytes`, or undefined when the path holds
 * nothing readable as text rules (missing, a folder, a FIFO or device, unreadable).
 * For files a walk reads of its own accord (ignore files), which the workspace may
 * have made links to /dev/zero or pipes. With `skipOver`, a file whose size is over it
 * gives its size and no bytes.
 */
export async function readRegularFile(opener: FileOpener, path: string, maxBytes: number, opts: { skipOver?: number } = {}): Promise<{ bytes: Uint8Array; size: number } | undefined> {
  let file: OpenedFile | undefined;
  try {
    file = await opener.openFile(path);
    if (!file || file.type !== 'file') {
      return undefined;
    }
    // a file the caller will not take is not read
    if (opts.skipOver !== undefined && file.size > opts.skipOver) {
      return { bytes: new Uint8Array(0), size: file.size };
    }
    return { bytes: await readHead(file, maxBytes), size: file.size };
  } catch {
    return undefined;
  } finally {
    await file?.close().catch(() => undefined);
  }
}
