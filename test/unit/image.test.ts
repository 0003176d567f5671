import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { ToolError } from '../../src/core/errors';
import { describeImage, imageInfo, imageTooLarge } from '../../src/core/read/image';
import { detectFileType } from '../../src/core/text/sniff';

function u32be(n: number): number[] {
  return [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
}
function u16be(n: number): number[] {
  return [(n >>> 8) & 0xff, n & 0xff];
}
function u16le(n: number): number[] {
  return [n & 0xff, (n >>> 8) & 0xff];
}
function u24le(n: number): number[] {
  return [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff];
}
function u32le(n: number): number[] {
  return [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];
}
function chars(s: string): number[] {
  return [...s].map((c) => c.charCodeAt(0));
}

/** PNG signature, IHDR and an IEND: enough for any reader of headers. */
function png(width: number, height: number): Uint8Array {
  const ihdr = [...u32be(width), ...u32be(height), 8, 6, 0, 0, 0];
  return Uint8Array.from([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a,
    ...u32be(13), ...chars('IHDR'), ...ihdr, 0, 0, 0, 0,
    ...u32be(0), ...chars('IEND'), 0xae, 0x42, 0x60, 0x82,
  ]);
}

function gif(width: number, height: number): Uint8Array {
  return Uint8Array.from([...chars('GIF89a'), ...u16le(width), ...u16le(height), 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x3b]);
}

function segment(marker: number, body: number[]): number[] {
  return [0xff, marker, ...u16be(body.length + 2), ...body];
}

/**
 * A JPEG head as cameras write it: JFIF, a large Exif segment full of 0xFF bytes (a
 * naive scan for FF C0 would stop inside it), a DHT (C4, not a frame header), fill
 * bytes, a restart marker, then the frame header.
 */
function jpeg(width: number, height: number, sof = 0xc0): Uint8Array {
  const exif = [...chars('Exif'), 0, 0, ...Array.from({ length: 3000 }, (_, i) => (i % 7 === 0 ? 0xff : i % 7 === 1 ? 0xc0 : i & 0xff))];
  return Uint8Array.from([
    0xff, 0xd8,
    ...segment(0xe0, [...chars('JFIF'), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...segment(0xe1, exif),
    ...segment(0xdb, [0, ...Array.from({ length: 64 }, () => 1)]),
    ...segment(0xc4, [0, ...Array.from({ length: 16 }, () => 0)]),
    0xff, 0xff,
    ...segment(sof, [8, ...u16be(height), ...u16be(width), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]),
    ...segment(0xda, [3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3f, 0]),
    0x12, 0x34, 0xff, 0x00, 0xff, 0xd9,
  ]);
}

function riff(chunk: string, data: number[]): Uint8Array {
  const body = [...chars('WEBP'), ...chars(chunk), ...u32le(data.length), ...data];
  return Uint8Array.from([...chars('RIFF'), ...u32le(body.length), ...body]);
}

function webpLossy(width: number, height: number): Uint8Array {
  return riff('VP8 ', [0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a, ...u16le(width), ...u16le(height), 0, 0, 0, 0]);
}

function webpLossless(width: number, height: number): Uint8Array {
  const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
  return riff('VP8L', [0x2f, ...u32le(bits >>> 0), 0, 0, 0]);
}

function webpExtended(width: number, height: number): Uint8Array {
  return riff('VP8X', [0x10, 0, 0, 0, ...u24le(width - 1), ...u24le(height - 1)]);
}

describe('image metadata', () => {
  it('reads PNG width and height from IHDR', () => {
    assert.deepEqual(imageInfo(png(640, 480)), { mime: 'image/png', format: 'PNG', width: 640, height: 480 });
    assert.deepEqual(imageInfo(png(70000, 3)), { mime: 'image/png', format: 'PNG', width: 70000, height: 3 });
  });

  it('reads the GIF logical screen', () => {
    assert.deepEqual(imageInfo(gif(16, 300)), { mime: 'image/gif', format: 'GIF', width: 16, height: 300 });
  });

  it('walks JPEG segments to the frame header, past Exif, DHT, fill bytes', () => {
    assert.deepEqual(imageInfo(jpeg(1920, 1080)), { mime: 'image/jpeg', format: 'JPEG', width: 1920, height: 1080 });
    assert.deepEqual(imageInfo(jpeg(33, 44, 0xc2)), { mime: 'image/jpeg', format: 'JPEG', width: 33, height: 44 });
  });

  it('reads WebP lossy, lossless and extended headers', () => {
    assert.deepEqual(imageInfo(webpLossy(300, 200)), { mime: 'image/webp', format: 'WebP', width: 300, height: 200 });
    assert.deepEqual(imageInfo(webpLossless(1, 16384)), { mime: 'image/webp', format: 'WebP', width: 1, height: 16384 });
    assert.deepEqual(imageInfo(webpExtended(5000, 7)), { mime: 'image/webp', format: 'WebP', width: 5000, height: 7 });
  });

  it('knows the type but not the size when the header is cut', () => {
    assert.deepEqual(imageInfo(png(10, 10).subarray(0, 12)), { mime: 'image/png', format: 'PNG' });
    assert.deepEqual(imageInfo(jpeg(10, 10).subarray(0, 600)), { mime: 'image/jpeg', format: 'JPEG' });
    assert.deepEqual(imageInfo(gif(1, 1).subarray(0, 7)), { mime: 'image/gif', format: 'GIF' });
    assert.deepEqual(imageInfo(riff('ALPH', [1, 2, 3])), { mime: 'image/webp', format: 'WebP' });
    assert.deepEqual(imageInfo(png(0, 5)), { mime: 'image/png', format: 'PNG' });
  });

  it('is undefined for everything else, SVG included', () => {
    assert.equal(imageInfo(new Uint8Array(0)), undefined);
    assert.equal(imageInfo(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), undefined);
    assert.equal(imageInfo(Buffer.from('GIF8')), undefined);
    assert.equal(imageInfo(Uint8Array.from([0xff, 0xd8])), undefined);
    assert.equal(imageInfo(Buffer.from('RIFF\0\0\0\0WAVEfmt ')), undefined);
    assert.equal(imageInfo(Buffer.from('BM\0\0')), undefined);
  });

  it('never throws on arbitrary bytes, and sizes are positive when given', () => {
    const prefixes = [png(1, 1).subarray(0, 8), Uint8Array.from([0xff, 0xd8, 0xff]), Buffer.from('GIF89a'), Buffer.from('RIFF\0\0\0\0WEBPVP8')];
    fc.assert(
      fc.property(fc.constantFrom(...prefixes), fc.uint8Array({ maxLength: 200 }), (head, tail) => {
        const bytes = Uint8Array.from([...head, ...tail]);
        const info = imageInfo(bytes);
        assert.ok(info);
        if (info.width !== undefined) {
          assert.ok(info.width > 0 && info.height !== undefined && info.height > 0);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with file-type on the type of every sample', async () => {
    for (const bytes of [png(2, 2), gif(2, 2), jpeg(2, 2), webpLossy(2, 2), webpLossless(2, 2), webpExtended(2, 2)]) {
      assert.equal((await detectFileType(bytes))?.mime, imageInfo(bytes)?.mime);
    }
  });

  it('describes an image and refuses one over the limit with both sizes', () => {
    const info = imageInfo(png(1024, 768))!;
    assert.equal(describeImage('assets/logo.png', info, 12_600), '<path>assets/logo.png</path>\n<type>image</type>\n<meta>PNG (image/png), 1024x768 pixels, 12.3 KiB</meta>\nThe image is attached.');
    assert.match(describeImage('x.jpg', { mime: 'image/jpeg', format: 'JPEG' }, 10), /<meta>JPEG \(image\/jpeg\), pixel size unknown, 10 bytes<\/meta>/);
    const e = imageTooLarge('big.png', info, 7 * 1024 * 1024, 5 * 1024 * 1024, 'agentFileTools.maxImageBytes');
    assert.ok(e instanceof ToolError);
    assert.match(e.message, /^Cannot attach big\.png: the PNG image is 7\.0 MiB \(1024x768 pixels\), over the 5\.0 MiB limit for images\./);
    assert.match(e.message, /`agentFileTools\.maxImageBytes`/);
  });
});

describe('file type sniffing', () => {
  it('names binary formats by magic number', async () => {
    assert.deepEqual(await detectFileType(Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')), { ext: 'pdf', mime: 'application/pdf' });
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0, 0]), Buffer.alloc(40)]);
    assert.equal((await detectFileType(zip))?.ext, 'zip');
    const wasm = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
    assert.deepEqual(await detectFileType(wasm), { ext: 'wasm', mime: 'application/wasm' });
  });

  it('finds nothing in plain text or empty input', async () => {
    assert.equal(await detectFileType(Buffer.from('export const a = 1;\n')), undefined);
    assert.equal(await detectFileType(new Uint8Array(0)), undefined);
  });
});
