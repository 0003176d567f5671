import { createHash } from 'node:crypto';
import { VERSION_HEX_CHARS } from './limits';

/**
 * A file's `version` is the identity of its whole current content, the same on every
 * page of one file and whichever tool shows it:
 * - text up to FULL_READ_MAX_BYTES (and any editor buffer with unsaved changes): a hash
 *   of the text, so a buffer and the file it was loaded from agree;
 * - larger files on disk: a hash of their size, modification time and first and last
 *   bytes (`sampledVersion`), which costs the same for 1 KiB and 1 GiB.
 * The two never collide: a sampled version starts with "s".
 */
export function textVersion(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, VERSION_HEX_CHARS);
}

/** The version of a file that is not text (a PDF): a hash of its bytes. */
export function bytesVersion(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, VERSION_HEX_CHARS);
}

/** Bytes read from each end of a large file for its version. */
export const VERSION_SAMPLE_BYTES = 64 * 1024;

export function sampledVersion(size: number, mtimeMs: number, head: Uint8Array, tail: Uint8Array): string {
  const h = createHash('sha256').update(`${size}:${Math.trunc(mtimeMs)}:`).update(head).update(tail);
  return `s${h.digest('hex').slice(0, VERSION_HEX_CHARS - 1)}`;
}
