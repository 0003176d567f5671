import { BINARY_CONTROL_RATIO, SNIFF_BYTES } from '../limits';
import { detectBom } from './encoding';

/**
 * Extensions whose files are binary whatever their first bytes say. Checked before
 * the byte heuristic so that, say, a small .zip never reaches the model as text.
 */
const BINARY_EXTENSIONS = new Set([
  'zip', 'gz', 'tgz', 'bz2', 'xz', 'zst', '7z', 'rar', 'tar', 'jar', 'war', 'ear',
  'exe', 'dll', 'so', 'dylib', 'o', 'a', 'lib', 'obj', 'class', 'pyc', 'pyo', 'wasm', 'node',
  'bin', 'dat', 'db', 'sqlite', 'sqlite3', 'iso', 'dmg', 'img',
  'png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'ico', 'tif', 'tiff', 'psd', 'heic', 'avif',
  'mp3', 'mp4', 'm4a', 'wav', 'flac', 'ogg', 'mov', 'avi', 'mkv', 'webm',
  'ttf', 'otf', 'woff', 'woff2', 'eot',
  'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'pdf',
]);

export interface BinaryVerdict {
  binary: boolean;
  /** Why, in words for the model: "NUL bytes", "extension .zip", ... */
  reason?: string;
}

export function extensionOf(path: string): string {
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

export function isBinaryExtension(path: string): boolean {
  return BINARY_EXTENSIONS.has(extensionOf(path));
}

/**
 * The byte heuristic on the first {@link SNIFF_BYTES}: a NUL byte, or more than 30 %
 * control bytes, means binary. A UTF-16 BOM means text even though UTF-16 is full of NULs.
 */
export function sniffBinary(sample: Uint8Array): BinaryVerdict {
  const bytes = sample.subarray(0, SNIFF_BYTES);
  if (bytes.length === 0) {
    return { binary: false };
  }
  const bom = detectBom(bytes);
  if (bom.encoding === 'utf-16le' || bom.encoding === 'utf-16be') {
    return { binary: false };
  }
  let control = 0;
  for (const b of bytes) {
    if (b === 0) {
      return { binary: true, reason: 'it contains NUL bytes' };
    }
    // Tab, LF, VT, FF, CR and ESC (ANSI colour codes in logs) are normal in text.
    if (b < 0x20 && b !== 9 && b !== 10 && b !== 11 && b !== 12 && b !== 13 && b !== 27) {
      control++;
    }
  }
  if (control / bytes.length > BINARY_CONTROL_RATIO) {
    return { binary: true, reason: `${Math.round((100 * control) / bytes.length)}% of its first bytes are control characters` };
  }
  return { binary: false };
}
