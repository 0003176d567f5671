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
  /** The bytes from `start` to the end, in chunks; stopping early reads no more. */
  stream(start?: number): AsyncIterable<Uint8Array>;
  close(): Promise<void>;
}

/** The part of the workspace seam that opens files. */
export interface FileOpener {
  /** Opens a file or folder for reading; undefined when nothing is there. */
  openFile(path: string): Promise<OpenedFile | undefined>;
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
 * have made links to /dev/zero or pipes.
 */
export async function readRegularFile(opener: FileOpener, path: string, maxBytes: number): Promise<{ bytes: Uint8Array; size: number } | undefined> {
  let file: OpenedFile | undefined;
  try {
    file = await opener.openFile(path);
    if (!file || file.type !== 'file') {
      return undefined;
    }
    return { bytes: await readHead(file, maxBytes), size: file.size };
  } catch {
    return undefined;
  } finally {
    await file?.close().catch(() => undefined);
  }
}
