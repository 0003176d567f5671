/**
 * Counting newlines (0x0A) in raw bytes as fast as the machine reads them. A seek to line
 * 10,000,000 passes a gigabyte; one `indexOf` per line costs more than reading it. A
 * WebAssembly function compares 64 bytes per step with SIMD and counts without a branch
 * per line, in the very memory the file is read into (no copy). Where WebAssembly SIMD is
 * missing, the same counts come from `indexOf`.
 */

// The function `count(ptr: i32, len: i32) -> i32`: newlines in memory[ptr, ptr + (len & ~63)).
// Built here from its instructions, so the module is read, not trusted as an opaque blob.
const I32 = 0x7f;
const V128 = 0x7b;
const op = {
  block: 0x02,
  loop: 0x03,
  br: 0x0c,
  brIf: 0x0d,
  end: 0x0b,
  select: 0x1b,
  localGet: 0x20,
  localSet: 0x21,
  i32Const: 0x41,
  i32LtU: 0x49,
  i32GtU: 0x4b,
  i32GeU: 0x4f,
  i32Add: 0x6a,
  i32And: 0x71,
} as const;
const simd = {
  load: 0x00,
  i8x16Splat: 0x0f,
  i32x4Splat: 0x11,
  i32x4ExtractLane: 0x1b,
  i8x16Eq: 0x23,
  i8x16Sub: 0x71,
  i16x8ExtaddPairwiseI8x16U: 0x7d,
  i32x4ExtaddPairwiseI16x8U: 0x7f,
  i32x4Add: 0xae,
} as const;

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) {
      b |= 0x80;
    }
    out.push(b);
  } while (n);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

/** Steps of 64 bytes between two folds of the byte counters: 4 per step, at most 255 per lane. */
const STEPS_PER_FOLD = 63;

function countFunctionBody(): number[] {
  const [PTR, LEN, END, FOLD_END, NL, ACC, SUM] = [0, 1, 2, 3, 4, 5, 6];
  const get = (i: number) => [op.localGet, i];
  const set = (i: number) => [op.localSet, i];
  const v = (code: number) => [0xfd, ...uleb(code)];
  const i32 = (n: number) => [op.i32Const, ...sleb(n)];
  // acc -= (bytes at ptr+offset == '\n'): a matching byte is -1, so each lane counts up
  const step = (offset: number) => [...get(ACC), ...get(PTR), ...v(simd.load), 0, ...uleb(offset), ...get(NL), ...v(simd.i8x16Eq), ...v(simd.i8x16Sub), ...set(ACC)];
  const lane = (i: number) => [...get(SUM), ...v(simd.i32x4ExtractLane), i];
  return [
    // locals: END, FOLD_END (i32); NL, ACC, SUM (v128)
    0x02, 0x02, I32, 0x03, V128,
    ...get(PTR), ...get(LEN), ...i32(-64), op.i32And, op.i32Add, ...set(END),
    ...i32(10), ...v(simd.i8x16Splat), ...set(NL),
    ...i32(0), ...v(simd.i32x4Splat), ...set(SUM),
    op.block, 0x40, op.loop, 0x40,
    ...get(PTR), ...get(END), op.i32GeU, op.brIf, 1,
    // FOLD_END = min(END, PTR + 63 * 64)
    ...get(PTR), ...i32(STEPS_PER_FOLD * 64), op.i32Add, ...set(FOLD_END),
    ...get(END), ...get(FOLD_END), ...get(FOLD_END), ...get(END), op.i32GtU, op.select, ...set(FOLD_END),
    ...i32(0), ...v(simd.i8x16Splat), ...set(ACC),
    op.loop, 0x40,
    ...step(0), ...step(16), ...step(32), ...step(48),
    ...get(PTR), ...i32(64), op.i32Add, ...set(PTR),
    ...get(PTR), ...get(FOLD_END), op.i32LtU, op.brIf, 0,
    op.end,
    // SUM += the byte counters widened to four 32-bit lanes
    ...get(SUM), ...get(ACC), ...v(simd.i16x8ExtaddPairwiseI8x16U), ...v(simd.i32x4ExtaddPairwiseI16x8U), ...v(simd.i32x4Add), ...set(SUM),
    op.br, 0,
    op.end, op.end,
    ...lane(0), ...lane(1), op.i32Add, ...lane(2), op.i32Add, ...lane(3), op.i32Add,
    op.end,
  ];
}

function section(id: number, content: number[]): number[] {
  return [id, ...uleb(content.length), ...content];
}

function countModuleBytes(): Uint8Array {
  const body = countFunctionBody();
  const name = (s: string) => [s.length, ...Buffer.from(s, 'latin1')];
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 2, I32, I32, 1, I32]), // type: (i32, i32) -> i32
    ...section(2, [1, ...name('e'), ...name('m'), 0x02, 0x00, 1]), // import e.m: memory, at least 1 page
    ...section(3, [1, 0]), // one function of type 0
    ...section(7, [1, ...name('count'), 0x00, 0]), // export it as "count"
    ...section(10, [1, ...uleb(body.length), ...body]),
  ]);
}

/** The part of the WebAssembly API used here (the project's type libraries leave it out). */
interface Wasm {
  Module: new (bytes: Uint8Array) => object;
  Memory: new (desc: { initial: number }) => { buffer: ArrayBuffer };
  Instance: new (mod: object, imports: object) => { exports: Record<string, unknown> };
}

const wasm = (globalThis as { WebAssembly?: Wasm }).WebAssembly;
let compiled: object | null | undefined;

/** The compiled module, or null where WebAssembly SIMD is not available. */
function countModule(): object | null {
  if (compiled === undefined) {
    try {
      compiled = wasm ? new wasm.Module(countModuleBytes()) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

function countByIndexOf(buf: Buffer, from: number, to: number): number {
  let n = 0;
  let i = buf.indexOf(10, from);
  while (i !== -1 && i < to) {
    n++;
    i = buf.indexOf(10, i + 1);
  }
  return n;
}

/** A scanner no scan holds, of each shape, kept for the next scan: see NewlineScanner.take. */
const idle = new Map<string, NewlineScanner>();

/**
 * Buffers to read a file into, and the count of the newlines in what was read. Each
 * scan has its own (two reads may be in flight while another scan runs); the memory is
 * `buffers * chunkBytes`.
 */
export class NewlineScanner {
  /**
   * A scanner for one scan, given back with {@link give} once no read into its buffers is in
   * flight: one of each shape is kept between scans (a few MiB), since a fresh one's memory
   * costs a page fault per 4 KiB on first touch (a 10 MiB file's count took twice as long).
   */
  static take(chunkBytes: number, buffers: number, useWasm = true): NewlineScanner {
    const key = `${chunkBytes}:${buffers}:${useWasm}`;
    const kept = idle.get(key);
    if (kept) {
      idle.delete(key);
      return kept;
    }
    return new NewlineScanner(chunkBytes, buffers, useWasm);
  }

  /** Gives a scanner from {@link take} back; nothing may use it after. */
  static give(scanner: NewlineScanner): void {
    idle.set(`${scanner.chunkBytes}:${scanner.buffers.length}:${scanner.useWasm}`, scanner);
  }

  readonly buffers: readonly Buffer[];
  private readonly wasmCount: ((ptr: number, len: number) => number) | undefined;

  constructor(
    readonly chunkBytes: number,
    buffers: number,
    private readonly useWasm = true,
  ) {
    const mod = useWasm ? countModule() : null;
    if (mod && wasm) {
      const memory = new wasm.Memory({ initial: Math.max(1, Math.ceil((chunkBytes * buffers) / 65536)) });
      const instance = new wasm.Instance(mod, { e: { m: memory } });
      this.wasmCount = instance.exports.count as (ptr: number, len: number) => number;
      this.buffers = Array.from({ length: buffers }, (_, i) => Buffer.from(memory.buffer, i * chunkBytes, chunkBytes));
    } else {
      this.buffers = Array.from({ length: buffers }, () => Buffer.allocUnsafe(chunkBytes));
    }
  }

  /** Whether the counting runs in WebAssembly (for tests and the log). */
  get fast(): boolean {
    return this.wasmCount !== undefined;
  }

  /** Newlines in the first `length` bytes of buffer `which`. */
  count(which: number, length: number): number {
    const buf = this.buffers[which];
    if (!this.wasmCount) {
      return countByIndexOf(buf, 0, length);
    }
    const whole = length & ~63;
    return this.wasmCount(which * this.chunkBytes, whole) + countByIndexOf(buf, whole, length);
  }
}

/** The position just after the `n`-th newline (1-based) in buf[0, length); -1 when it holds fewer. */
export function afterNthNewline(buf: Buffer, length: number, n: number): number {
  let i = -1;
  for (let k = 0; k < n; k++) {
    i = buf.indexOf(10, i + 1);
    if (i === -1 || i >= length) {
      return -1;
    }
  }
  return i + 1;
}
