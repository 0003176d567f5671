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
