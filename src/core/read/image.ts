import { ToolError } from '../errors';
import { formatBytes } from '../format';

/**
 * Image type and pixel size from a file's first bytes, for the four formats a chat
 * model takes as an image part. Found by magic number, whatever the extension says.
 *
 * Header grammar read here (all sizes in pixels):
 *
 *   PNG  := 89 50 4E 47 0D 0A 1A 0A, u32be length, "IHDR", u32be width, u32be height
 *   GIF  := "GIF87a" | "GIF89a", u16le width, u16le height        (logical screen)
 *   JPEG := FF D8, segment*            segment := FF+ marker [u16be length, body]
 *           the first SOFn segment (C0-CF but C4, C8, CC): precision u8,
 *           u16be height, u16be width; standalone markers (D0-D7, 01) have no length
 *   WebP := "RIFF", u32le size, "WEBP", chunk
 *           "VP8 ": 3-byte frame tag, 9D 01 2A, u16le width & 0x3FFF, u16le height & 0x3FFF
 *           "VP8L": 2F, then 14 bits width-1, 14 bits height-1 (little-endian bit order)
 *           "VP8X": flags u8, 3 reserved, u24le width-1, u24le height-1   (canvas)
 *
 * A file with the right magic number but a cut or odd header is still an image: its
 * size is then left out rather than guessed.
 */

export type ImageMime = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export interface ImageInfo {
  mime: ImageMime;
  /** Short name for messages: "PNG", "JPEG", "GIF", "WebP". */
  format: string;
  /** Pixels, when the header gives them. */
  width?: number;
  height?: number;
}

function u16be(b: Uint8Array, i: number): number {
  return (b[i] << 8) | b[i + 1];
}

function u16le(b: Uint8Array, i: number): number {
  return b[i] | (b[i + 1] << 8);
}

function u24le(b: Uint8Array, i: number): number {
  return b[i] | (b[i + 1] << 8) | (b[i + 2] << 16);
}

function u32be(b: Uint8Array, i: number): number {
  return ((b[i] << 24) >>> 0) + ((b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]);
}

function ascii(b: Uint8Array, i: number, s: string): boolean {
  if (i + s.length > b.length) {
    return false;
  }
  for (let k = 0; k < s.length; k++) {
    if (b[i + k] !== s.charCodeAt(k)) {
      return false;
    }
  }
  return true;
}

/** Width and height only when both are known and non-zero. */
function sized(info: ImageInfo, width: number | undefined, height: number | undefined): ImageInfo {
  return width && height ? { ...info, width, height } : info;
}

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function png(b: Uint8Array): ImageInfo | undefined {
  if (b.length < 8 || PNG_MAGIC.some((v, i) => b[i] !== v)) {
    return undefined;
  }
  const info: ImageInfo = { mime: 'image/png', format: 'PNG' };
  return b.length >= 24 && ascii(b, 12, 'IHDR') ? sized(info, u32be(b, 16), u32be(b, 20)) : info;
}

function gif(b: Uint8Array): ImageInfo | undefined {
  if (!ascii(b, 0, 'GIF87a') && !ascii(b, 0, 'GIF89a')) {
    return undefined;
  }
  const info: ImageInfo = { mime: 'image/gif', format: 'GIF' };
  return b.length >= 10 ? sized(info, u16le(b, 6), u16le(b, 8)) : info;
}

/** SOFn markers: frame headers. C4 (DHT), C8 (reserved) and CC (DAC) share the range but are not. */
function isStartOfFrame(m: number): boolean {
  return m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;
}

function jpeg(b: Uint8Array): ImageInfo | undefined {
  if (b.length < 3 || b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) {
    return undefined;
  }
  const info: ImageInfo = { mime: 'image/jpeg', format: 'JPEG' };
  let i = 2;
  while (i + 1 < b.length) {
    if (b[i] !== 0xff) {
      return info;
    }
    // Any number of 0xFF fill bytes may precede a marker.
    while (i < b.length && b[i] === 0xff) {
      i++;
    }
    if (i >= b.length) {
      return info;
    }
    const marker = b[i++];
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      continue;
    }
    if (marker === 0xd9 || marker === 0xda || i + 2 > b.length) {
      // End of image, or entropy-coded data without a frame header before it.
      return info;
    }
    const length = u16be(b, i);
    if (length < 2) {
      return info;
    }
    if (isStartOfFrame(marker)) {
      return i + 7 <= b.length ? sized(info, u16be(b, i + 5), u16be(b, i + 3)) : info;
    }
    i += length;
  }
  return info;
}

function webp(b: Uint8Array): ImageInfo | undefined {
  if (!ascii(b, 0, 'RIFF') || !ascii(b, 8, 'WEBP')) {
    return undefined;
  }
  const info: ImageInfo = { mime: 'image/webp', format: 'WebP' };
  if (ascii(b, 12, 'VP8 ') && b.length >= 30 && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) {
    return sized(info, u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
  }
  if (ascii(b, 12, 'VP8L') && b.length >= 25 && b[20] === 0x2f) {
    const bits = (b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24)) >>> 0;
    return sized(info, (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (ascii(b, 12, 'VP8X') && b.length >= 30) {
    return sized(info, u24le(b, 24) + 1, u24le(b, 27) + 1);
  }
  return info;
}

/**
 * The image type and pixel size of `bytes`, or undefined when they are not a PNG,
 * JPEG, GIF or WebP image. Give the whole file or at least its first 64 KiB: a JPEG's
 * frame header can follow large metadata segments.
 */
export function imageInfo(bytes: Uint8Array): ImageInfo | undefined {
  return png(bytes) ?? jpeg(bytes) ?? gif(bytes) ?? webp(bytes);
}

/** "1024x768 pixels" or "pixel size unknown". */
function pixelText(info: ImageInfo): string {
  return info.width !== undefined && info.height !== undefined ? `${info.width}x${info.height} pixels` : 'pixel size unknown';
}

/**
 * The text part that goes with the image part, in the envelope of every read:
 *
 * ```
 * <path>assets/logo.png</path>
 * <type>image</type>
 * <meta>PNG (image/png), 512x512 pixels, 12.3 KiB</meta>
 * The image is attached.
 * ```
 */
export function describeImage(displayPath: string, info: ImageInfo, fileBytes: number): string {
  return [`<path>${displayPath}</path>`, '<type>image</type>', `<meta>${info.format} (${info.mime}), ${pixelText(info)}, ${formatBytes(fileBytes)}</meta>`, 'The image is attached.'].join('\n');
}

/**
 * The refusal for an image over the size limit, with both sizes and what to do
 * instead. `setting` names the setting that holds the limit, when there is one.
 */
export function imageTooLarge(displayPath: string, info: ImageInfo, fileBytes: number, limitBytes: number, setting?: string): ToolError {
  const raise = setting ? `to raise the \`${setting}\` setting` : 'to raise the image size limit in the settings';
  return new ToolError(
    'binary',
    `Cannot attach ${displayPath}: the ${info.format} image is ${formatBytes(fileBytes)} (${pixelText(info)}), over the ${formatBytes(limitBytes)} limit for images. ` +
      `Ask the user for a smaller copy, or ${raise}.`,
  );
}
