import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';

/** RC4, for the standard security handler of the encrypted sample. */
function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 0xff;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = new Uint8Array(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]) & 0xff;
    [s[i], s[j]] = [s[j], s[i]];
    out[k] = data[k] ^ s[(s[i] + s[j]) & 0xff];
  }
  return out;
}

const PASSWORD_PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

function padPassword(p: string): Buffer {
  return Buffer.concat([Buffer.from(p, 'latin1'), PASSWORD_PAD]).subarray(0, 32);
}

/** /Encrypt of revision 2 (40-bit RC4): opening needs `user`; the empty password fails. */
function encryption(user: string, owner: string, id: Buffer): string {
  const md5 = (...parts: Uint8Array[]) => createHash('md5').update(Buffer.concat(parts)).digest();
  const o = rc4(md5(padPassword(owner)).subarray(0, 5), padPassword(user));
  const p = Buffer.alloc(4);
  p.writeInt32LE(-4);
  const key = md5(padPassword(user), o, p, id).subarray(0, 5);
  const u = rc4(key, PASSWORD_PAD);
  return `<< /Filter /Standard /V 1 /R 2 /O <${Buffer.from(o).toString('hex')}> /U <${Buffer.from(u).toString('hex')}> /P -4 >>`;
}

function escapePdfString(s: string): string {
  return s.replace(/[\\()]/g, (c) => `\\${c}`);
}

/**
 * A valid PDF with one page per entry of `pages`, each line of text shown with
 * Helvetica on its own baseline, and a correct cross-reference table.
 */
export function makePdf(pages: string[][], opts: { encryptWith?: string; fontSize?: number } = {}): Uint8Array {
  const size = opts.fontSize ?? 12;
  const objs: string[] = [];
  objs[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objs[2] = `<< /Type /Pages /Kids [${pages.map((_, i) => `${4 + i * 2} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objs[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  pages.forEach((lines, i) => {
    const content = `BT /F1 ${size} Tf 10 760 Td ${size} TL ${lines.map((l) => `(${escapePdfString(l)}) Tj T*`).join(' ')} ET`;
    objs[4 + i * 2] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`;
    objs[5 + i * 2] = `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  });
  const id = Buffer.from('0123456789abcdef0123456789abcdef', 'hex');
  let encryptRef = '';
  if (opts.encryptWith !== undefined) {
    objs.push(encryption(opts.encryptWith, 'owner', id));
    encryptRef = ` /Encrypt ${objs.length - 1} 0 R`;
  }
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let k = 1; k < objs.length; k++) {
    offsets[k] = out.length;
    out += `${k} 0 obj\n${objs[k]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objs.length}\n0000000000 65535 f \n`;
  out += offsets.slice(1).map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objs.length} /Root 1 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>]${encryptRef} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}


/**
 * A PDF whose page `bombPage` (1-based) has a FlateDecode content stream that inflates to
 * `inflatedBytes` of text-showing operators; the other pages hold one line each. A few
 * hundred KiB on disk, and pdf.js decodes and evaluates the whole stream.
 */
export function makeInflatingPdf(pageCount: number, bombPage: number, inflatedBytes: number): Uint8Array {
  const objs: Buffer[] = [];
  objs[1] = Buffer.from('<< /Type /Catalog /Pages 2 0 R >>');
  objs[2] = Buffer.from(`<< /Type /Pages /Kids [${Array.from({ length: pageCount }, (_, i) => `${4 + i * 2} 0 R`).join(' ')}] /Count ${pageCount} >>`);
  objs[3] = Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  for (let i = 0; i < pageCount; i++) {
    objs[4 + i * 2] = Buffer.from(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`);
    if (i + 1 === bombPage) {
      const body = Buffer.concat([Buffer.from('BT /F1 1 Tf 10 700 Td '), Buffer.alloc(inflatedBytes, '(A) Tj '), Buffer.from(' ET')]);
      const z = deflateSync(body, { level: 9 });
      objs[5 + i * 2] = Buffer.concat([Buffer.from(`<< /Length ${z.length} /Filter /FlateDecode >>\nstream\n`), z, Buffer.from('\nendstream')]);
    } else {
      const content = `BT /F1 12 Tf 10 760 Td (page ${i + 1} text) Tj ET`;
      objs[5 + i * 2] = Buffer.from(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    }
  }
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let length = parts[0].length;
  const offsets: number[] = [];
  for (let k = 1; k < objs.length; k++) {
    offsets[k] = length;
    const obj = Buffer.concat([Buffer.from(`${k} 0 obj\n`), objs[k], Buffer.from('\nendobj\n')]);
    parts.push(obj);
    length += obj.length;
  }
  const xref = `xref\n0 ${objs.length}\n0000000000 65535 f \n${offsets
    .slice(1)
    .map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)
    .join('')}trailer\n<< /Size ${objs.length} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  parts.push(Buffer.from(xref));
  return Buffer.concat(parts);
}
