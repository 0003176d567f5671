import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { linesOf } from '../../src/core/outline/fallback';
import { pack, unpack } from '../../src/core/outline/packed';
import { drain } from '../../src/core/pace';
import { splitLines } from '../../src/core/text/lines';
import { symbolName, type Outline, type OutlineSymbol } from '../../src/core/outline/symbols';
import { lookupSymbol, viewNow } from '../../src/core/outline/view';
import { levenshtein, levenshteinWithin } from '../../src/core/suggest';
import { NEVER_CANCELLED } from '../../src/core/cancel';
import { syntaxOutline } from '../../src/host/treeSitter';
import { call, context, tempTree } from './helpers';
import { timed } from './eventLoop';

/**
 * An outline or a symbol lookup is bounded whatever the file holds, and never holds the
 * calling thread (in VS Code, the extension host's) for long: the steps after the parse
 * give the thread back in slices. Each call below took minutes before (a "did you mean"
 * over every symbol for each collapsed name that could not find itself).
 */

/** A language server's outline: `classes` classes of `methods` methods named with "(" (`"get(" ()`), each holding `inner` functions. */
function parenOutline(classes: number, methods: number, inner: number): OutlineSymbol[] {
  let line = 1;
  const out: OutlineSymbol[] = [];
  for (let c = 0; c < classes; c++) {
    const cls: OutlineSymbol = { kind: 'class', name: `K${c}`, first: line++, last: 0, children: [] };
    for (let m = 0; m < methods; m++) {
      const method: OutlineSymbol = { kind: 'method', name: `"klm${'n'.repeat(30)}${c}_${m}("`, params: '()', first: line++, last: 0, children: [] };
      for (let f = 0; f < inner; f++) {
        method.children.push({ kind: 'function', name: `inner_${c}_${m}_${f}`, params: '()', first: line, last: line++, children: [] });
      }
      method.last = line++;
      cls.children.push(method);
    }
    cls.last = line++;
    out.push(cls);
  }
  return out;
}

/** Text with as many lines as the outline spans. */
function linesFor(n: number): string {
  return 'x\n'.repeat(n);
}

/** Most a call may hold the thread in these tests: far above a slice (20 ms), far below what one step over every symbol took. */
const MAX_PAUSE_MS = 1000;
const MAX_CALL_MS = 8000;

describe('outline and symbol lookups are bounded and give the thread back', function () {
  this.timeout(60_000);
  let tree: ReturnType<typeof tempTree>;
  before(() => {
    tree = tempTree({ 'big.ts': linesFor(120_000), 'many.py': linesFor(180_001) });
  });
  after(() => tree.cleanup());

  it('outlines 100,000 symbols whose collapsed names hold "(": the call that goes deeper names one, and finds it', async () => {
    const symbols = parenOutline(1, 8, 12_500);
    const ctx = await context(tree.root);
    ctx.ws.documentSymbols = async () => symbols;
    const r = await timed(() => call(ctx, 'fs_read', { path: 'big.ts', mode: 'outline' }));
    assert.equal(r.result.isError, false, r.result.text);
    assert.ok(r.ms < MAX_CALL_MS, `${Math.round(r.ms)} ms`);
    assert.ok(r.gapMs < MAX_PAUSE_MS, `the event loop paused ${Math.round(r.gapMs)} ms`);
    const last = r.result.text.split('\n').pop()!;
    assert.match(last, /^Continue with: fs_read \{"path":"big\.ts","mode":"outline","symbol":"K0\.\\"klmn+0_0\(\\""\}$/);
    const inside = await timed(() => call(ctx, 'fs_read', JSON.parse(last.slice('Continue with: fs_read '.length))));
    assert.equal(inside.result.isError, false, inside.result.text);
    assert.match(inside.result.text, /<meta>symbols 1-\d+ of 12500 inside method K0\."klmn+0_0\(" \(L2-12503\)/);
    assert.ok(inside.gapMs < MAX_PAUSE_MS, `the event loop paused ${Math.round(inside.gapMs)} ms`);
  });

  it('answers a 500-character symbol name among 90,000 symbols with the closest names, quickly', async () => {
    const symbols = Array.from({ length: 90_000 }, (_, i): OutlineSymbol => ({ kind: 'function', name: `function_${i}`, params: '(x)', first: 2 * i + 1, last: 2 * i + 2, children: [] }));
    const ctx = await context(tree.root);
    ctx.ws.documentSymbols = async () => symbols;
    const long = await timed(() => call(ctx, 'fs_read', { path: 'many.py', symbol: 'x'.repeat(500) }));
    assert.equal(long.result.isError, true);
    assert.match(long.result.text, /^many\.py has no symbol "x{120}"\.\.\. \(500 characters\) \(outline from language server\)\.\nTry: fs_read/);
    assert.ok(long.ms < MAX_CALL_MS && long.gapMs < MAX_PAUSE_MS, `${Math.round(long.ms)} ms, the event loop paused ${Math.round(long.gapMs)} ms`);
    const near = await timed(() => call(ctx, 'fs_read', { path: 'many.py', symbol: 'function_8999x' }));
    assert.match(near.result.text, /Did you mean one of these\?\n- L17999-18000 function function_8999\(x\) \(symbol "function_8999"\)/);
    assert.ok(near.ms < MAX_CALL_MS && near.gapMs < MAX_PAUSE_MS, `${Math.round(near.ms)} ms, the event loop paused ${Math.round(near.gapMs)} ms`);
  });

  it('outlines a parsed class whose methods are named with "(", and its Continue line finds the method', async () => {
    const methods = Array.from({ length: 6 }, (_, m) => [`  "get${m}(" () {`, ...Array.from({ length: 400 }, (_, f) => `    function inner_${m}_${f}() { return ${f}; }`), '  }'].join('\n'));
    fs.writeFileSync(path.join(tree.root, 'paren.js'), `class K {\n${methods.join('\n')}\n}\n`);
    const ctx = await context(tree.root);
    const r = await timed(() => call(ctx, 'fs_read', { path: 'paren.js', mode: 'outline' }));
    assert.match(r.result.text, /from the syntax tree \(tree-sitter\)/);
    const last = r.result.text.split('\n').pop()!;
    assert.equal(last, 'Continue with: fs_read {"path":"paren.js","mode":"outline","symbol":"K.\\"get0(\\""}');
    const inside = await call(ctx, 'fs_read', JSON.parse(last.slice('Continue with: fs_read '.length)));
    assert.match(inside.text, /<meta>symbols 1-\d+ of 400 inside method K\."get0\(" \(L2-403\)/);
    const method = await call(ctx, 'fs_read', { path: 'paren.js', symbol: 'K."get3("' });
    assert.match(method.text, /<meta>lines 1208-1609 of \d+, method K\."get3\("/);
    assert.ok(r.gapMs < MAX_PAUSE_MS, `the event loop paused ${Math.round(r.gapMs)} ms`);
  });
});

describe('outline: the parse thread', function () {
  this.timeout(120_000);
  it('parses 90,000 Python functions within its heap (finding where each declaration ends costs no memory per child)', async () => {
    const text = Array.from({ length: 90_000 }, (_, i) => `def function_${i}(x):\n    return x  # note\n`).join('');
    const r = await syntaxOutline('python', text, NEVER_CANCELLED, 100_000);
    assert.equal(r.kind, 'parsed', r.kind === 'abandoned' ? r.reason : '');
    assert.equal(r.kind === 'parsed' && r.symbols.length, 90_000);
    assert.deepEqual(r.kind === 'parsed' && [r.symbols[5].first, r.symbols[5].last, r.symbols[5].endColumn], [11, 12, 12]);
  });
});

describe('outline: a name built from a real symbol finds it', () => {
  const piece = fc.constantFrom('a', 'b', '(', ')', '.', '::', '#', ' ', '"', 'get(', 'x.y', 'v1.2', '(a, b)', 'f');
  const name = fc.array(piece, { minLength: 1, maxLength: 5 }).map((p) => p.join('').trim()).filter((n) => n !== '');
  const symbolArb: fc.Arbitrary<{ name: string; params?: string; children: { name: string; params?: string }[] }> = fc.record({
    name,
    params: fc.option(fc.constantFrom('()', '(x)', '(a, b)'), { nil: undefined }),
    children: fc.array(fc.record({ name, params: fc.option(fc.constantFrom('()', '(x)'), { nil: undefined }) }), { maxLength: 4 }),
  });

  it('lists, not picks, a symbol named a.b and method b of a class a: an edit by that name could mean either', () => {
    const outline: Outline = {
      source: 'language server',
      symbols: [
        { kind: 'function', name: 'a.b', first: 1, last: 1, children: [] },
        { kind: 'class', name: 'a', first: 2, last: 4, children: [{ kind: 'method', name: 'b', first: 3, last: 3, children: [] }] },
      ],
    };
    const hit = lookupSymbol(viewNow(outline), 'a.b');
    assert.equal(hit.kind, 'ambiguous');
    assert.deepEqual(hit.kind === 'ambiguous' && hit.candidates.map((c) => c.symbol.first).sort(), [1, 3]);
  });

  it('finds each symbol by its dotted name, or by that name with its parameters, unless another symbol carries the same', () => {
    fc.assert(
      fc.property(fc.array(symbolArb, { minLength: 1, maxLength: 6 }), (specs) => {
        let line = 1;
        const symbols: OutlineSymbol[] = specs.map((s) => ({
          kind: 'class',
          name: s.name,
          params: s.params,
          first: line++,
          last: (line += s.children.length + 1),
          children: s.children.map((c, i) => ({ kind: 'method', name: c.name, params: c.params, first: line - s.children.length - 1 + i, last: line - s.children.length - 1 + i, children: [] })),
        }));
        const outline: Outline = { source: 'language server', symbols };
        const v = viewNow(outline);
        const namesOf = (f: (typeof v.flat)[number]) => [symbolName(f), `${symbolName(f)}${f.symbol.params ?? ''}`];
        for (const f of v.flat) {
          const names = namesOf(f);
          const hits = names.map((n) => lookupSymbol(v, n));
          // a symbol that another one's names spell too (the same path and parameters) can only be listed with it
          const twin = v.flat.some((o) => o !== f && namesOf(o).some((n) => names.includes(n)));
          const found = hits.some((h) => h.kind === 'found' && h.symbol.symbol === f.symbol);
          const listed = hits.some((h) => h.kind === 'ambiguous' && h.candidates.some((c) => c.symbol === f.symbol));
          assert.ok(found || (twin && listed), `${JSON.stringify(names)} in ${JSON.stringify(specs)}: ${JSON.stringify(hits.map((h) => (h.kind === 'found' ? symbolName(h.symbol) : h.kind)))}`);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('outline: the packed form the parse thread sends', () => {
  it('unpacks to the tree it packed', () => {
    const leaf = fc.record({ kind: fc.constantFrom('function', 'class', 'method'), name: fc.string({ minLength: 1 }).map((s) => [...s].map((c) => (c.charCodeAt(0) < 0x20 ? '_' : c)).join('')), params: fc.option(fc.constantFrom('()', '(a: b)'), { nil: undefined }), first: fc.nat(1000), last: fc.nat(1000), startColumn: fc.option(fc.nat(80), { nil: undefined }), endColumn: fc.option(fc.nat(80), { nil: undefined }), uncertain: fc.option(fc.constant(true), { nil: undefined }) });
    const node = (children: fc.Arbitrary<OutlineSymbol[]>) => fc.tuple(leaf, children).map(([l, c]) => clean({ ...l, children: c }));
    const three = node(fc.array(node(fc.array(node(fc.constant([])), { maxLength: 3 })), { maxLength: 3 }));
    fc.assert(
      fc.property(fc.array(three, { maxLength: 5 }), (symbols) => {
        const g = unpack(pack(symbols));
        let r = g.next();
        while (!r.done) {
          r = g.next();
        }
        assert.deepEqual(r.value, symbols);
      }),
    );
  });
});

/** The symbol without the optional fields that are undefined (the packed form leaves them out). */
function clean(s: OutlineSymbol): OutlineSymbol {
  const out = { ...s };
  for (const k of ['params', 'startColumn', 'endColumn', 'uncertain'] as const) {
    if (out[k] === undefined) {
      delete out[k];
    }
  }
  return out;
}

describe('a bounded edit distance', () => {
  it('is the edit distance when that is within the bound, else the bound plus one', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.string({ maxLength: 30 }), fc.nat(12), (a, b, max) => {
        const d = levenshtein(a, b);
        assert.equal(levenshteinWithin(a, b, max), d <= max ? d : max + 1);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('lines split in steps that may give the thread back', () => {
  it('are the lines splitLines gives', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', '\n', '\r', '\r\n', ' '), { maxLength: 40 }).map((p) => p.join('')), (text) => {
        assert.deepEqual(drain(linesOf(text)), splitLines(text));
      }),
      { numRuns: 500 },
    );
  });
});
