import type * as NodeCrypto from 'node:crypto';
import { VERSION_HEX_CHARS } from './limits';
import { sha256Hex } from './sha256';

let crypto: typeof NodeCrypto | undefined;

/** node:crypto, loaded on first use: a call that hashes only small texts never loads it. */
export function nodeCrypto(): typeof NodeCrypto {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (crypto ??= require('node:crypto') as typeof NodeCrypto);
}

/** Up to this many bytes, SHA-256 is computed here (src/core/sha256.ts), above it by node:crypto: the same digest either way. */
export const SMALL_HASH_BYTES = 4096;

function sha256(bytes: Uint8Array): string {
  return bytes.length <= SMALL_HASH_BYTES ? sha256Hex(bytes) : nodeCrypto().createHash('sha256').update(bytes).digest('hex');
}

const utf8 = new TextEncoder();

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
  // UTF-8 as node:crypto takes a string (a lone surrogate as U+FFFD, as TextEncoder writes it)
  if (text.length <= SMALL_HASH_BYTES) {
    return sha256(utf8.encode(text)).slice(0, VERSION_HEX_CHARS);
  }
  return nodeCrypto().createHash('sha256').update(text, 'utf8').digest('hex').slice(0, VERSION_HEX_CHARS);
}

/** The version of a file that is not text (a PDF): a hash of its bytes. */
export function bytesVersion(bytes: Uint8Array): string {
  return sha256(bytes).slice(0, VERSION_HEX_CHARS);
}

/** Bytes read from each end of a large file for its version. */
export const VERSION_SAMPLE_BYTES = 64 * 1024;

export function sampledVersion(size: number, mtimeMs: number, head: Uint8Array, tail: Uint8Array): string {
  const h = nodeCrypto().createHash('sha256').update(`${size}:${Math.trunc(mtimeMs)}:`).update(head).update(tail);
  return `s${h.digest('hex').slice(0, VERSION_HEX_CHARS - 1)}`;
}

/** The SHA-256 of a text's UTF-8 in base64url (no padding), as node:crypto gives it. */
export function textDigestBase64url(text: string): string {
  if (text.length > SMALL_HASH_BYTES) {
    return nodeCrypto().createHash('sha256').update(text, 'utf8').digest('base64url');
  }
  const hex = sha256(utf8.encode(text));
  let binary = '';
  for (let i = 0; i < hex.length; i += 2) {
    binary += String.fromCharCode(parseInt(hex.slice(i, i + 2), 16));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
