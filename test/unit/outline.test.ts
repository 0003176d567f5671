import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NEVER_CANCELLED } from '../../src/core/cancel';
import { outlineFromHeadings, outlineFromIndentation } from '../../src/core/outline/fallback';
import { flatten, symbolLine, type Outline, type OutlineSymbol } from '../../src/core/outline/symbols';
import { findSymbol } from '../../src/core/outline/view';
import { syntaxLanguageOf } from '../../src/core/outline/syntax';
import { splitLines } from '../../src/core/text/lines';
import { parseThreadAlive, syntaxOutline } from '../../src/host/treeSitter';

const fixtures = path.resolve(__dirname, '../../../test/fixtures/outline');

function text(name: string): string {
  return fs.readFileSync(path.join(fixtures, name), 'utf8');
}

function lines(symbols: readonly OutlineSymbol[]): string[] {
  return flatten(symbols).map(symbolLine);
}

async function parsed(name: string): Promise<Outline> {
  const language = syntaxLanguageOf(path.extname(name).slice(1));
  assert.ok(language, `a grammar for ${name}`);
  const r = await syntaxOutline(language, text(name), NEVER_CANCELLED);
  assert.equal(r.kind, 'parsed');
  return { source: 'tree-sitter', symbols: r.kind === 'parsed' ? r.symbols : [], errors: r.kind === 'parsed' ? r.errors : [] };
}

/** What each grammar's outline of its fixture must be: the symbols a model navigates by, nothing inside function bodies but nested functions. */
const EXPECTED: Record<string, string[]> = {
  'sample.ts': [
    'L4 constant MAX_INPUT',
    'L6-9 interface Token',
    '  L7 property kind',
    '  L8 property text',
    'L14-27 class Parser',
    '  L15 field pos',
    '  L17 constructor constructor(private readonly source: string)',
    '  L20-22 method parse(text: string)',
    '  L24-26 method peek()',
    // two overload signatures and the implementation: one function
    "L29-33 function load(path: string, encoding: BufferEncoding = 'utf8')",
    'L35-40 constant helpers',
    '  L36 method trim(s: string)',
    '  L37-39 method upper(s: string)',
    'L42 type Kind',
    'L44-47 enum Mode',
    'L49-51 namespace Internal',
    '  L50 function hidden()',
  ],
  // declarations only: `declare namespace`, `declare module`, `declare function`, and a namespace's constants
  'ambient.d.ts': [
    'L1-10 namespace api',
    '  L2 constant version',
    '  L3 function start(port: number)',
    '  L4-6 interface Options',
    '    L5 property port',
    '  L7-9 namespace inner',
    '    L8 type Mode',
    "L12-14 namespace 'plugin'",
    '  L13 function load()',
    'L16 function main()',
  ],
  'sample.js': ['L1 constant path', 'L4-6 function join(a, b)', 'L8-16 class Cache', '  L9-11 method get(key)', '  L13-15 method set(key, value)', 'L18 function double(n)'],
  'sample.py': [
    'L3 constant MAX_DEPTH',
    'L6-22 class Walker',
    '  L9 field depth',
    '  L11-12 method __init__(self, root)',
    // the decorator belongs to the method
    '  L14-16 method name(self)',
    '  L18-22 method walk(self)',
    '    L19-20 function inner(p)',
    'L26-28 function read(path)',
  ],
  'sample.go': ['L6 constant MaxDepth', 'L9-11 struct Parser', 'L13-15 interface Splitter', '  L14 method Split(text string)', 'L18-20 method Parser.Split(text string)', 'L22-24 function New(sep string)'],
  'sample.rs': [
    'L4 constant MAX_DEPTH',
    'L7-9 struct Parser',
    'L11-16 impl Parser',
    '  L13-15 method split(&self, text: &str)',
    'L18-22 impl fmt::Display for Parser',
    '  L19-21 method fmt(&self, f: &mut fmt::Formatter)',
    'L24-26 trait Split',
    '  L25 method split_all(&self, text: &str)',
    'L28-31 enum Mode',
    'L33-35 module inner',
    '  L34 function helper()',
  ],
  'Sample.java': [
    'L6-28 class Sample',
    '  L7 field sep',
    '  L9-11 constructor Sample(String sep)',
    // the annotation is part of the method
    '  L14-17 method split(String text)',
    '  L19-21 method split(String text, int limit)',
    '  L23-25 interface Visitor',
    '    L24 method visit(String word)',
    '  L27 enum Mode',
  ],
  'Sample.cs': [
    'L3-29 namespace Sample.Text',
    '  L6-21 class Parser',
    '    L8 property Separator',
    '    L10-13 constructor Parser(string separator)',
    '    L16-20 method Split(string text)',
    '  L23-26 interface ISplitter',
    '    L25 method Split(string text)',
    '  L28 enum Mode',
  ],
  'sample.cpp': [
    'L3 macro MAX_DEPTH',
    'L5-21 namespace text',
    '  L8-15 class Parser',
    '    L10 declaration Parser(char sep)',
    '    L11 declaration count(const std::string &s)',
    '  L17-19 struct Token',
    'L23 method text::Parser::Parser(char sep)',
    'L25-27 method text::Parser::count(const std::string &s)',
    'L29-32 function twice(T x)',
  ],
  'sample.c': ['L3 macro BUF', 'L6-9 struct point', 'L11 declaration add(int a, int b)', 'L14-16 function add(int a, int b)', 'L18-20 function log_point(const point *p)'],
};

describe('outline: symbols per grammar (tree-sitter, the parsers VS Code ships)', function () {
  this.timeout(30_000);
  for (const [name, want] of Object.entries(EXPECTED)) {
    it(`${name}: ${syntaxLanguageOf(path.extname(name).slice(1))}`, async () => {
      const o = await parsed(name);
      assert.deepEqual(lines(o.symbols), want);
      assert.deepEqual(o.errors, []);
      assert.ok(flatten(o.symbols).every((f) => !f.symbol.uncertain), 'a clean parse vouches for every range');
    });
  }

  it('names what a symbol is as the grammar does: class attributes (annotated or not) and class fields are fields, interface members properties', async () => {
    const py = await syntaxOutline('python', 'class Config:\n    prompt: str | None\n    retries: int = 3\n    name = "x"\n\n    @property\n    def size(self):\n        return 1\n', NEVER_CANCELLED);
    assert.equal(py.kind, 'parsed');
    assert.deepEqual(lines(py.kind === 'parsed' ? py.symbols : []), ['L1-8 class Config', '  L2 field prompt', '  L3 field retries', '  L4 field name', '  L6-8 method size(self)']);
    const ts = await syntaxOutline('typescript', 'class A {\n  x = 1;\n  #y: number;\n}\ninterface B {\n  z: string;\n}\n', NEVER_CANCELLED);
    assert.deepEqual(lines(ts.kind === 'parsed' ? ts.symbols : []), ['L1-4 class A', '  L2 field x', '  L3 field #y', 'L5-7 interface B', '  L6 property z']);
  });

  it('marks the symbol next to a parse error uncertain, and says where the parser gave up', async () => {
    const o = await parsed('broken.ts');
    const fine = flatten(o.symbols).find((f) => f.symbol.name === 'fine');
    assert.ok(fine);
    assert.equal(fine.symbol.uncertain, true);
    assert.ok(o.errors && o.errors.length > 0 && o.errors[0].first >= 4, JSON.stringify(o.errors));
  });

  it('abandons a parse that is cancelled, rather than blocking the thread', async () => {
    const big = 'function f(a) { return a + 1; }\n'.repeat(20000);
    const r = await syntaxOutline('javascript', big, { isCancellationRequested: true });
    assert.deepEqual(r, { kind: 'abandoned', reason: 'the call was cancelled' });
  });

  it('parses on a thread of its own: the calling thread keeps running while a big file is parsed, and the thread stays warm', async () => {
    const big = 'function f(a) { return a + 1; }\n'.repeat(20000);
    let ticks = 0;
    let widest = 0;
    let at = Date.now();
    const beat = setInterval(() => {
      const now = Date.now();
      widest = Math.max(widest, now - at);
      at = now;
      ticks++;
    }, 10);
    const started = Date.now();
    const r = await syntaxOutline('javascript', big, NEVER_CANCELLED, 60_000);
    const took = Date.now() - started;
    clearInterval(beat);
    assert.equal(r.kind, 'parsed');
    assert.equal(r.kind === 'parsed' && r.symbols.length, 20000);
    // a parse on this thread would have held every tick back for its whole length
    assert.ok(ticks >= 3 && widest < took, `${ticks} ticks, widest gap ${widest} ms, parse ${took} ms`);
    assert.equal(parseThreadAlive(), true);
  });

  it('stops a parse over its time bound by ending its thread, answers at once, and parses the next call on a fresh thread', async () => {
    const big = 'function f(a) { return a + 1; }\n'.repeat(100000);
    const started = Date.now();
    const r = await syntaxOutline('javascript', big, NEVER_CANCELLED, 200);
    const took = Date.now() - started;
    assert.deepEqual(r, { kind: 'abandoned', reason: 'parsing took over 200 ms' });
    assert.ok(took < 200 + 1500, `answered after ${took} ms`);
    assert.equal(parseThreadAlive(), false);
    const next = await parsed('sample.ts');
    assert.ok(next.symbols.length > 0);
    assert.equal(parseThreadAlive(), true);
  });

  it('ends the call promptly when it is cancelled during the parse, the thread terminated', async () => {
    const big = 'function f(a) { return a + 1; }\n'.repeat(100000);
    const signal = { isCancellationRequested: false };
    const listeners: (() => void)[] = [];
    const token = { get isCancellationRequested() { return signal.isCancellationRequested; }, onCancellationRequested: (f: () => void) => (listeners.push(f), { dispose: () => listeners.splice(listeners.indexOf(f), 1) }) };
    // one call cancelled through VS Code's event, one through the flag the CLI's signal sets
    for (const viaEvent of [true, false]) {
      signal.isCancellationRequested = false;
      const pending = syntaxOutline('javascript', big, viaEvent ? token : signal, 60_000);
      await new Promise((resolve) => setTimeout(resolve, 150));
      const cancelledAt = Date.now();
      signal.isCancellationRequested = true;
      if (viaEvent) {
        listeners.slice().forEach((f) => f());
      }
      const r = await pending;
      const after = Date.now() - cancelledAt;
      assert.deepEqual(r, { kind: 'abandoned', reason: 'the call was cancelled' });
      assert.ok(after < 500, `answered ${after} ms after the cancellation`);
      assert.equal(parseThreadAlive(), false);
    }
    assert.equal(listeners.length, 0, 'the cancellation listener is let go');
  });

  it('knows C headers, TSX and the module forms of JavaScript and TypeScript by extension, and no grammar for others', () => {
    assert.deepEqual(['h', 'hpp', 'tsx', 'mjs', 'cts', 'PY', 'txt', 'md'].map(syntaxLanguageOf), ['cpp', 'cpp', 'tsx', 'javascript', 'typescript', 'python', undefined, undefined]);
  });
});

describe('outline: headings and indentation', () => {
  it('gives Markdown headings as sections, ATX and setext, skipping fenced code', () => {
    assert.deepEqual(lines(outlineFromHeadings(splitLines(text('guide.md')))), ['L1-23 h1 Guide', '  L5-12 h2 Install', '  L14-18 h2 Use', '    L16-18 h3 From the CLI', '  L20-23 h2 Setext title']);
  });

  it('ends a section before the next heading of its level, its blank lines trimmed', () => {
    assert.deepEqual(lines(outlineFromHeadings(['# A', 'a', '', '## B', 'b', '', '', '# C', 'c'])), ['L1-5 h1 A', '  L4-5 h2 B', 'L8-9 h1 C']);
  });

  it('falls back to the blocks that indentation opens, two levels deep', () => {
    assert.deepEqual(lines(outlineFromIndentation(splitLines(text('notes.txt')))), ['L1-3 block Shopping', 'L5-9 block Work', '  L6-8 block report']);
  });

  it('takes a closing brace at the opener depth into the block', () => {
    assert.deepEqual(lines(outlineFromIndentation(['rule a {', '  x: 1;', '}', 'rule b {', '  y: 2;', '}'])), ['L1-3 block rule a {', 'L4-6 block rule b {']);
  });
});

describe('outline: finding a symbol by name', () => {
  let ts: Outline;
  let java: Outline;
  let cpp: Outline;
  before(async () => {
    [ts, java, cpp] = await Promise.all([parsed('sample.ts'), parsed('Sample.java'), parsed('sample.cpp')]);
  });

  it('finds a nested symbol by its dotted path, or by its own name when that is unique', () => {
    for (const q of ['Parser.parse', 'parse', ' Parser.parse ']) {
      const r = findSymbol(ts, q);
      assert.equal(r.kind, 'found', q);
      assert.equal(r.kind === 'found' && r.symbol.symbol.first, 20);
    }
  });

  it('reads a TypeScript overload set as one function', () => {
    const r = findSymbol(ts, 'load');
    assert.equal(r.kind, 'found');
    assert.deepEqual(r.kind === 'found' && [r.symbol.symbol.first, r.symbol.symbol.last], [29, 33]);
  });

  it('lists Java overloads as candidates, and picks one by its parameters', () => {
    const r = findSymbol(java, 'Sample.split');
    assert.equal(r.kind, 'ambiguous');
    assert.deepEqual(r.kind === 'ambiguous' && r.candidates.map((c) => c.symbol.first), [14, 19]);
    const one = findSymbol(java, 'split(String text, int limit)');
    assert.equal(one.kind, 'found');
    assert.equal(one.kind === 'found' && one.symbol.symbol.first, 19);
  });

  it('takes C++ scopes written with :: or dots, and prefers a definition to its declaration', () => {
    for (const q of ['text::Parser::count', 'Parser.count', 'Parser::count']) {
      const r = findSymbol(cpp, q);
      assert.equal(r.kind, 'found', q);
      assert.equal(r.kind === 'found' && r.symbol.symbol.first, 25, q);
    }
  });

  it('suggests the closest names for a missing one', () => {
    const r = findSymbol(ts, 'Parser.pars');
    assert.equal(r.kind, 'missing');
    // the near-miss spelling first, then names that hold it
    assert.deepEqual(r.kind === 'missing' && r.suggestions.map((s) => s.path.join('.')), ['Parser.parse', 'Parser', 'Parser.pos']);
    const none = findSymbol(ts, 'zzzzzzzz');
    assert.deepEqual(none, { kind: 'missing', suggestions: [] });
  });

  it('matches a name that holds dots itself (a heading) as a whole', () => {
    const md: Outline = { source: 'headings', symbols: outlineFromHeadings(['# v1.2', 'x', '# v1', 'y']) };
    const r = findSymbol(md, 'v1.2');
    assert.equal(r.kind, 'found');
    assert.equal(r.kind === 'found' && r.symbol.symbol.first, 1);
  });
});
