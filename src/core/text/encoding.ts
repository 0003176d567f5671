/**
 * Byte-order marks and decoding. Text without a BOM is read as UTF-8: invalid
 * sequences become U+FFFD rather than failing, so a stray Latin-1 byte does not make a
 * source file unreadable.
 */
export type Encoding = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be';

export interface BomInfo {
  encoding: Encoding;
  /** Bytes the BOM takes at the start of the file. */
  bomBytes: number;
}

export function detectBom(bytes: Uint8Array): BomInfo {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { encoding: 'utf-8-bom', bomBytes: 3 };
  }
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { encoding: 'utf-16le', bomBytes: 2 };
  }
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { encoding: 'utf-16be', bomBytes: 2 };
  }
  return { encoding: 'utf-8', bomBytes: 0 };
}

/** The WHATWG label TextDecoder knows the encoding by. */
export function decoderLabel(encoding: Encoding): string {
  return encoding === 'utf-16le' ? 'utf-16le' : encoding === 'utf-16be' ? 'utf-16be' : 'utf-8';
}

/** How the meta line names an encoding. */
export function encodingLabel(encoding: Encoding): string {
  return encoding === 'utf-8-bom' ? 'utf-8 with BOM' : encoding;
}

/** Decodes a whole file's bytes, BOM removed. */
export function decodeText(bytes: Uint8Array): { text: string; encoding: Encoding } {
  const { encoding, bomBytes } = detectBom(bytes);
  const decoder = new TextDecoder(decoderLabel(encoding), { ignoreBOM: true });
  return { text: decoder.decode(bytes.subarray(bomBytes)), encoding };
}

/** Maps VS Code's `TextDocument.encoding` ids to ours; unknown ids keep their name. */
export function encodingFromEditorId(id: string | undefined): Encoding | string {
  switch (id) {
    case undefined:
    case 'utf8':
      return 'utf-8';
    case 'utf8bom':
      return 'utf-8-bom';
    case 'utf16le':
      return 'utf-16le';
    case 'utf16be':
      return 'utf-16be';
    default:
      return id;
  }
}

/** The text is not valid in the encoding its BOM (or its absence) says. */
export class UndecodableError extends Error {
  constructor(readonly encoding: Encoding) {
    super(`not valid ${encodingLabel(encoding)}`);
    this.name = 'UndecodableError';
  }
}

/**
 * Decodes a whole file's bytes so that `encodeText` gives the same bytes back: invalid
 * sequences throw UndecodableError instead of becoming U+FFFD, since writing U+FFFD back
 * would destroy the bytes it stands for (a Latin-1 file, say).
 */
export function decodeTextExact(bytes: Uint8Array): { text: string; encoding: Encoding } {
  const { encoding, bomBytes } = detectBom(bytes);
  try {
    const decoder = new TextDecoder(decoderLabel(encoding), { ignoreBOM: true, fatal: true });
    return { text: decoder.decode(bytes.subarray(bomBytes)), encoding };
  } catch {
    throw new UndecodableError(encoding);
  }
}

/** The inverse of decoding: the text's bytes in the encoding, with its BOM. */
export function encodeText(text: string, encoding: Encoding): Uint8Array {
  switch (encoding) {
    case 'utf-8':
      return Buffer.from(text, 'utf8');
    case 'utf-8-bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    case 'utf-16le':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    case 'utf-16be': {
      const le = Buffer.from(text, 'utf16le');
      const be = Buffer.alloc(le.length);
      for (let i = 0; i + 1 < le.length; i += 2) {
        be[i] = le[i + 1];
        be[i + 1] = le[i];
      }
      return Buffer.concat([Buffer.from([0xfe, 0xff]), be]);
    }
  }
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Where a text holds half of a surrogate pair alone (its 0-based UTF-16 index and the code
 * unit), or undefined when it is well formed. No encoding a file is written in can hold
 * one: UTF-8 and UTF-16 encoders replace it with U+FFFD, so writing it would change the
 * text the model sent without a word.
 */
export function loneSurrogate(text: string): { index: number; unit: string } | undefined {
  const m = LONE_SURROGATE.exec(text);
  return m ? { index: m.index, unit: `U+${m[0].charCodeAt(0).toString(16).toUpperCase()}` } : undefined;
}
