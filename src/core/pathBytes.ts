/**
 * Paths as a program prints them, NUL-terminated, read as bytes: a walk of a million files
 * is handed on a path at a time without making a string of each. Most paths of a broad
 * search are only counted, which their folder and the first and last bytes of their name
 * decide (see FolderGate.pushBytes); the few that reach a page are decoded.
 */

/** The text of a path given as bytes (see {@link NulRecords.text}). */
export interface PathText {
  text(buf: Uint8Array, start: number, end: number): string;
}

/** A name may begin with U+FEFF: it is kept, not read as a byte-order mark. */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Splits a stream of bytes at each NUL: each record is handed on as the bytes it spans in
 * the chunk that holds its end (or in a copy, when it began in an earlier chunk). A record
 * longer than `maxBytes` keeps its first `maxBytes` bytes. Empty records are skipped.
 */
export class NulRecords implements PathText {
  private carry: Uint8Array | undefined;
  private carried = 0;
  /** The chunk being split, whether it is all ASCII from `asciiFrom` on (where its first whole record starts), and that part's text once asked for. */
  private chunk: Uint8Array | undefined;
  private ascii = false;
  private asciiFrom = 0;
  private chunkText: string | undefined;
  private ends = new Int32Array(0);

  constructor(
    private readonly maxBytes: number,
    private readonly onRecord: (buf: Uint8Array, start: number, end: number) => void,
  ) {}

  push(chunk: Uint8Array): void {
    let start = 0;
    const len = chunk.length;
    if (this.carry) {
      const z = chunk.indexOf(0);
      this.keep(chunk, 0, z < 0 ? len : z);
      if (z < 0) {
        return;
      }
      this.flushCarry();
      start = z + 1;
    }
    // the NULs first, and whether any byte is past ASCII: a chunk all ASCII is decoded once, when a path in it is asked for
    if (this.ends.length < len - start) {
      this.ends = new Int32Array(len - start);
    }
    const ends = this.ends;
    const n = scanNuls(chunk, start, ends);
    this.chunk = chunk;
    this.ascii = n >= 0;
    this.asciiFrom = start;
    this.chunkText = undefined;
    try {
      for (let k = 0, count = n < 0 ? -n - 1 : n; k < count; k++) {
        const end = ends[k];
        if (end > start) {
          this.onRecord(chunk, start, end - start > this.maxBytes ? start + this.maxBytes : end);
        }
        start = end + 1;
      }
    } finally {
      this.chunk = undefined;
      this.chunkText = undefined;
    }
    if (start < len) {
      this.keep(chunk, start, len);
    }
  }

  /** The last record, when the stream did not end with a NUL. */
  end(): void {
    if (this.carry) {
      this.flushCarry();
    }
  }

  /** A record's text: a slice of its chunk's text where that is all ASCII, else its own bytes decoded. */
  text(buf: Uint8Array, start: number, end: number): string {
    if (buf === this.chunk && this.ascii && start >= this.asciiFrom) {
      const from = this.asciiFrom;
      this.chunkText ??= utf8.decode(from ? buf.subarray(from) : buf);
      return this.chunkText.slice(start - from, end - from);
    }
    return utf8.decode(buf.subarray(start, end));
  }

  /** Adds bytes to the record that began in an earlier chunk, up to `maxBytes`. */
  private keep(chunk: Uint8Array, from: number, to: number): void {
    const take = Math.min(to - from, this.maxBytes - this.carried);
    if (!this.carry) {
      this.carry = new Uint8Array(Math.min(Math.max(take, 256), this.maxBytes));
    }
    if (take <= 0) {
      return;
    }
    if (this.carried + take > this.carry.length) {
      const grown = new Uint8Array(Math.min(Math.max(this.carry.length * 2, this.carried + take), this.maxBytes));
      grown.set(this.carry.subarray(0, this.carried));
      this.carry = grown;
    }
    this.carry.set(chunk.subarray(from, from + take), this.carried);
    this.carried += take;
  }

  private flushCarry(): void {
    const buf = this.carry!;
    const n = this.carried;
    this.carry = undefined;
    this.carried = 0;
    if (n > 0) {
      this.onRecord(buf, 0, n);
    }
  }
}

/**
 * Where the NULs of `chunk` from `start` on are, written to `ends` (as long as the bytes
 * scanned): their number, or where a byte is past ASCII, -1 less that number.
 */
function scanNuls(chunk: Uint8Array, start: number, ends: Int32Array): number {
  let n = 0;
  let any = 0;
  for (let i = start; i < chunk.length; i++) {
    const b = chunk[i];
    any |= b;
    if (b === 0) {
      ends[n++] = i;
    }
  }
  return (any & 0x80) === 0 ? n : -n - 1;
}

/** Whether `a` holds the same bytes as `buf` from `start` on, for `a.length` bytes (the caller compared the lengths). */
export function sameBytes(a: Uint8Array, buf: Uint8Array, start: number): boolean {
  for (let i = a.length - 1; i >= 0; i--) {
    if (a[i] !== buf[start + i]) {
      return false;
    }
  }
  return true;
}
