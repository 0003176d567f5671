// Draws media/icon.png (128x128): a page with numbered lines and a cursor bar.
// Kept so the icon can be regenerated; run with `node scripts/make-icon.mjs`.
import fs from 'node:fs';
import zlib from 'node:zlib';

const W = 128, H = 128;
const px = new Uint8Array(W * H * 4);
const set = (x, y, [r, g, b, a]) => { const i = (y * W + x) * 4; px[i] = r; px[i + 1] = g; px[i + 2] = b; px[i + 3] = a; };
const rect = (x0, y0, x1, y1, c) => { for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) set(x, y, c); };
const round = (x0, y0, x1, y1, r, c) => {
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) {
    const dx = Math.max(x0 + r - x - 0.5, 0, x - (x1 - r) + 0.5), dy = Math.max(y0 + r - y - 0.5, 0, y - (y1 - r) + 0.5);
    if (dx * dx + dy * dy <= r * r) set(x, y, c);
  }
};
round(0, 0, 128, 128, 24, [30, 41, 59, 255]);          // background
round(24, 14, 104, 114, 8, [248, 250, 252, 255]);      // page
const lines = [[44, 90], [44, 78], [52, 96], [52, 70], [44, 84], [44, 60]];
lines.forEach(([x, w], i) => {
  const y = 28 + i * 13;
  rect(32, y, 38, y + 5, [148, 163, 184, 255]);        // line number
  rect(x, y, w, y + 5, i === 3 ? [14, 165, 233, 255] : [71, 85, 105, 255]);
});
rect(72, 64, 75, 78, [14, 165, 233, 255]);             // cursor

const raw = Buffer.alloc(H * (W * 4 + 1));
for (let y = 0; y < H; y++) { raw[y * (W * 4 + 1)] = 0; Buffer.from(px.buffer, y * W * 4, W * 4).copy(raw, y * (W * 4 + 1) + 1); }
const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
const crc = (buf) => { let c = 0xffffffff; for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
const chunk = (type, data) => { const len = Buffer.alloc(4); len.writeUInt32BE(data.length); const td = Buffer.concat([Buffer.from(type), data]); const c = Buffer.alloc(4); c.writeUInt32BE(crc(td)); return Buffer.concat([len, td, c]); };
const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(W, 0); ihdr.writeUInt32BE(H, 4); ihdr[8] = 8; ihdr[9] = 6;
fs.writeFileSync(new URL('../media/icon.png', import.meta.url), Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]));
