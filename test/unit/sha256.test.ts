import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { bytesVersion, SMALL_HASH_BYTES, textDigestBase64url, textVersion } from '../../src/core/hash';
import { VERSION_HEX_CHARS } from '../../src/core/limits';
import { sha256Hex } from '../../src/core/sha256';

const nodeHex = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

/** A random string of `n` UTF-16 units: ASCII, accents, CJK, emoji (pairs), and lone surrogates. */
function randomText(n: number, seed: number): string {
  let s = seed;
  const next = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296;
  let out = '';
  while (out.length < n) {
    const k = next();
    out += k < 0.6 ? String.fromCharCode(32 + Math.floor(next() * 95)) : k < 0.75 ? 'é' : k < 0.85 ? '漢' : k < 0.93 ? '😀' : k < 0.96 ? '\uD800' : k < 0.98 ? '\uDC00' : '\n';
  }
  return out.slice(0, n);
}

describe('SHA-256 of short input (src/core/sha256.ts)', () => {
  it('gives the digests of the standard test vectors', () => {
    const utf8 = (t: string) => new TextEncoder().encode(t);
    assert.equal(sha256Hex(utf8('')), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    assert.equal(sha256Hex(utf8('abc')), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(sha256Hex(utf8('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')), '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });

  it('agrees with node:crypto on random bytes of every length 0..4096 and beyond', () => {
    for (let n = 0; n <= SMALL_HASH_BYTES + 70; n++) {
      const b = randomBytes(n);
      assert.equal(sha256Hex(b), nodeHex(b), `${n} bytes`);
    }
  });

  it('agrees at the block edges with every byte value', () => {
    for (const n of [55, 56, 57, 63, 64, 65, 119, 120, 121, 127, 128, 129, 4031, 4032, 4033, 4095, 4096]) {
      for (const fill of [0x00, 0x80, 0xff]) {
        const b = new Uint8Array(n).fill(fill);
        assert.equal(sha256Hex(b), nodeHex(b), `${n} bytes of ${fill}`);
      }
    }
  });

  it("gives each text's version and digest as node:crypto does, short or long, lone surrogates included", () => {
    for (let n = 0; n <= SMALL_HASH_BYTES + 40; n += n < 300 ? 1 : 37) {
      const t = randomText(n, n + 1);
      assert.equal(textVersion(t), nodeHex(t).slice(0, VERSION_HEX_CHARS), `${n} units`);
      assert.equal(textDigestBase64url(t), createHash('sha256').update(t, 'utf8').digest('base64url'), `${n} units`);
    }
    for (const t of ['\uD800', 'a\uDBFF', '\uDC00b', '😀'.repeat(1024), 'é'.repeat(SMALL_HASH_BYTES), 'x'.repeat(SMALL_HASH_BYTES), 'x'.repeat(SMALL_HASH_BYTES + 1)]) {
      assert.equal(textVersion(t), nodeHex(t).slice(0, VERSION_HEX_CHARS));
    }
  });

  it("gives a byte string's version as node:crypto does, either side of the cut", () => {
    for (const n of [0, 1, SMALL_HASH_BYTES - 1, SMALL_HASH_BYTES, SMALL_HASH_BYTES + 1, 100_000]) {
      const b = randomBytes(n);
      assert.equal(bytesVersion(b), nodeHex(b).slice(0, VERSION_HEX_CHARS), `${n} bytes`);
    }
  });
});
