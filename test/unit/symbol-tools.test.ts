import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { OutlineSymbol } from '../../src/core/outline/symbols';
import { planOutlineNow, renderOutline } from '../../src/core/outline/render';
import { call, context, tempTree } from './helpers';

const fixtures = path.resolve(__dirname, '../../../test/fixtures/outline');

const PARSER = [
  'export class Parser {',
  '  private pos = 0;',
  '',
  '  /**',
  '   * One pass over the text.',
  '   */',
  '  parse(text: string): number {',
  '    const n = text.length;',
  '    return n;',
  '  }',
  '',
  '  peek(): number {',
  '    const n = this.pos;',
  '    return n;',
  '  }',
  '}',
  '',
].join('\n');

describe('fs_read mode "outline" and "symbol"', function () {
  this.timeout(30_000);
  let tree: ReturnType<typeof tempTree>;
  beforeEach(() => {
    tree = tempTree({
      'src/parser.ts': PARSER,
      'guide.md': fs.readFileSync(path.join(fixtures, 'guide.md')),
      'notes.txt': fs.readFileSync(path.join(fixtures, 'notes.txt')),
      'Sample.java': fs.readFileSync(path.join(fixtures, 'Sample.java')),
      'many.py': Array.from({ length: 30 }, (_, i) => `def f${i}(x):\n    return x\n`).join('\n'),
    });
  });
  afterEach(() => tree.cleanup());

  it('outlines a file in the envelope, saying which source it came from, with the version of a slice', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'src/parser.ts', mode: 'outline' });
    const slice = await call(ctx, 'fs_read', { path: 'src/parser.ts' });
    const version = /version ([0-9a-f]{8})/.exec(slice.text)![1];
    assert.equal(
      r.text,
      [
        '<path>src/parser.ts</path>',
        '<type>outline</type>',
        `<meta>symbols 1-4 of 4, from the syntax tree (tree-sitter), 16 lines, utf-8, LF, version ${version}</meta>`,
        '<outline>',
        'L1-16 class Parser',
        '  L2 field pos',
        '  L7-10 method parse(text: string)',
        '  L12-15 method peek()',
        '</outline>',
        'End of outline.',
      ].join('\n'),
    );
  });

  it('pages a long outline with the contract continuation, offset counting symbols', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'many.py', mode: 'outline', limit: 12 });
    assert.match(r.text, /<meta>symbols 1-12 of 30, from the syntax tree \(tree-sitter\)/);
    const last = r.text.split('\n').pop()!;
    assert.equal(last, 'Continue with: fs_read {"path":"many.py","mode":"outline","offset":13,"limit":12}');
    const next = await call(ctx, 'fs_read', JSON.parse(last.slice('Continue with: fs_read '.length)));
    assert.match(next.text, /<meta>symbols 13-24 of 30,/);
    assert.match(next.text, /^L37-38 function f12\(x\)$/m);
    const end = await call(ctx, 'fs_read', { path: 'many.py', mode: 'outline', offset: 25 });
    assert.match(end.text, /symbols 25-30 of 30,[\s\S]*End of outline\.$/);
    const past = await call(ctx, 'fs_read', { path: 'many.py', mode: 'outline', offset: 31 });
    assert.equal(past.isError, true);
    assert.match(past.text, /offset=31 is past the end of the outline of many\.py: it has 30 symbols/);
  });

  it('falls back in order: the editor\'s symbol providers, then the parser, then headings or indentation', async () => {
    const ctx = await context(tree.root);
    const provided: OutlineSymbol[] = [{ kind: 'class', name: 'FromServer', first: 1, last: 16, children: [] }];
    const asked: string[] = [];
    ctx.ws.documentSymbols = async (p) => {
      asked.push(p);
      return p.endsWith('.ts') ? provided : undefined;
    };
    const server = await call(ctx, 'fs_read', { path: 'src/parser.ts', mode: 'outline' });
    assert.match(server.text, /from the language server[\s\S]*^L1-16 class FromServer$/m);
    const parser = await call(ctx, 'fs_read', { path: 'Sample.java', mode: 'outline' });
    assert.match(parser.text, /from the syntax tree \(tree-sitter\)/);
    const md = await call(ctx, 'fs_read', { path: 'guide.md', mode: 'outline' });
    assert.match(md.text, /from the headings[\s\S]*^ {2}L5-12 h2 Install$/m);
    const txt = await call(ctx, 'fs_read', { path: 'notes.txt', mode: 'outline' });
    assert.match(txt.text, /from indentation \(no parser for this file type; ranges are guesses\)[\s\S]*^L5-9 block Work$/m);
    // Markdown is outlined from its own headings, without asking the providers
    assert.deepEqual(asked.map((p) => path.basename(p)), ['parser.ts', 'Sample.java', 'notes.txt']);
  });

  it('shows a big outline down to the level that fits a small page, counting what each collapsed symbol holds', async () => {
    // three classes of 40, 90 and 60 methods, each method holding a nested function
    const cls = (name: string, n: number) =>
      [`class ${name} {`, ...Array.from({ length: n }, (_, i) => `  m${i}(a: number): number {\n    function inner${i}() { return a; }\n    return inner${i}();\n  }`), '}'].join('\n');
    fs.writeFileSync(path.join(tree.root, 'big.ts'), [cls('Small', 40), cls('Large', 90), cls('Middle', 60)].join('\n\n') + '\n');
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'big.ts', mode: 'outline' });
    assert.equal(r.isError, false, r.text);
    assert.ok(Buffer.byteLength(r.text) < 600, `${Buffer.byteLength(r.text)} bytes`);
    const lines = r.text.split('\n');
    assert.match(lines[2], /^<meta>symbols 1-3 of 3, level 1 of 3, 383 symbols in all, from the syntax tree \(tree-sitter\), /);
    assert.deepEqual(lines.slice(4, 7), ['L1-162 class Small (80 inside)', 'L164-525 class Large (180 inside)', 'L527-768 class Middle (120 inside)']);
    assert.equal(lines.pop(), 'Continue with: fs_read {"path":"big.ts","mode":"outline","symbol":"Large"}');
    // the one way deeper: the inside of the largest, itself cut to a level that fits and paged
    const inside = await call(ctx, 'fs_read', { path: 'big.ts', mode: 'outline', symbol: 'Large' });
    assert.ok(Buffer.byteLength(inside.text) <= 2048, `${Buffer.byteLength(inside.text)} bytes`);
    assert.match(inside.text, /<meta>symbols 1-(\d+) of 90 inside class Large \(L164-525\), level 1 of 2, 180 symbols in all,/);
    assert.match(inside.text, /^L165-168 method m0\(a: number\) \(1 inside\)$/m);
    const seen: string[] = [];
    let page = inside.text;
    for (let i = 0; i < 20; i++) {
      seen.push(...page.split('\n').filter((l) => /^L\d/.test(l)));
      const last = page.split('\n').pop()!;
      if (!last.startsWith('Continue with: fs_read ') || !last.includes('"offset"')) {
        break;
      }
      const next = JSON.parse(last.slice('Continue with: fs_read '.length));
      assert.deepEqual(Object.keys(next), ['path', 'mode', 'symbol', 'offset']);
      page = (await call(ctx, 'fs_read', next)).text;
    }
    assert.equal(seen.length, 90);
    assert.equal(seen[89], 'L521-524 method m89(a: number) (1 inside)');
    const deepest = await call(ctx, 'fs_read', { path: 'big.ts', mode: 'outline', symbol: 'Large.m7' });
    assert.match(deepest.text, /<meta>symbols 1 of 1 inside method Large\.m7 \(L193-196\), from the syntax tree[\s\S]*^L194 function inner7\(\)$[\s\S]*End of outline\.$/m);
    const small = await call(ctx, 'fs_read', { path: 'src/parser.ts', mode: 'outline', symbol: 'Parser' });
    assert.match(small.text, /<meta>symbols 1-3 of 3 inside class Parser \(L1-16\), from the syntax tree[\s\S]*^L7-10 method parse\(text: string\)$[\s\S]*End of outline\.$/m);
    const missing = await call(ctx, 'fs_read', { path: 'big.ts', mode: 'outline', symbol: 'Huge' });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /^big\.ts has no symbol "Huge"/);
  });

  it('pages a top level too long for one small page at that level, every page cut the same way', async () => {
    const body = Array.from({ length: 300 }, (_, i) => `def function_number_${i}(x):\n    def helper():\n        return x\n    return helper()\n`).join('\n');
    fs.writeFileSync(path.join(tree.root, 'flat.py'), body);
    const ctx = await context(tree.root);
    let page = (await call(ctx, 'fs_read', { path: 'flat.py', mode: 'outline' })).text;
    assert.ok(Buffer.byteLength(page) <= 2048, `${Buffer.byteLength(page)} bytes`);
    const names: string[] = [];
    for (let i = 0; i < 40; i++) {
      assert.match(page, /<meta>symbols \d+-\d+ of 300, level 1 of 2, 600 symbols in all,/);
      names.push(...page.split('\n').filter((l) => /^L\d/.test(l)).map((l) => / function (\w+)/.exec(l)![1]));
      const last = page.split('\n').pop()!;
      if (!last.includes('"offset"')) {
        assert.equal(last, 'Continue with: fs_read {"path":"flat.py","mode":"outline","symbol":"function_number_0"}');
        break;
      }
      page = (await call(ctx, 'fs_read', JSON.parse(last.slice('Continue with: fs_read '.length)))).text;
    }
    assert.deepEqual(names, Array.from({ length: 300 }, (_, i) => `function_number_${i}`));
    // a limit given fills a page up to it
    const wide = await call(ctx, 'fs_read', { path: 'flat.py', mode: 'outline', limit: 200 });
    assert.match(wide.text, /<meta>symbols 1-200 of 300, level 1 of 2,/);
    assert.equal(wide.text.split('\n').pop(), 'Continue with: fs_read {"path":"flat.py","mode":"outline","offset":201,"limit":200}');
  });

  it('reads a symbol whole with its doc comment, as a slice of the same version', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'src/parser.ts', symbol: 'Parser.parse' });
    assert.equal(r.isError, false, r.text);
    const lines = r.text.split('\n');
    assert.match(lines[2], /^<meta>lines 4-10 of 16, method Parser\.parse \(documentation from line 4\), outline from tree-sitter, utf-8, LF, version [0-9a-f]{8}<\/meta>$/);
    assert.deepEqual(lines.slice(4, 11), ['L4:   /**', 'L5:    * One pass over the text.', 'L6:    */', 'L7:   parse(text: string): number {', 'L8:     const n = text.length;', 'L9:     return n;', 'L10:   }']);
    assert.equal(lines[lines.length - 1], 'End of symbol.');
    const slice = await call(ctx, 'fs_read', { path: 'src/parser.ts', offset: 4, limit: 7 });
    assert.equal(/version (\w+)/.exec(slice.text)![1], /version (\w+)/.exec(r.text)![1]);
  });

  it('continues a symbol longer than a page with a slice call bounded to its end', async () => {
    const body = Array.from({ length: 2100 }, (_, i) => `  x${i} = ${i}`).join('\n');
    fs.writeFileSync(path.join(tree.root, 'big.py'), `def big():\n${body}\n\n\ndef after():\n  pass\n`);
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'big.py', symbol: 'big' });
    assert.match(r.text, /<meta>lines 1-2000 of 2105, function big,/);
    assert.equal(r.text.split('\n').pop(), 'Continue with: fs_read {"path":"big.py","offset":2001,"limit":101}');
  });

  it('lists the candidates of an ambiguous name with the names that pick each, and suggests names for a missing one', async () => {
    const ctx = await context(tree.root);
    const amb = await call(ctx, 'fs_read', { path: 'Sample.java', symbol: 'split' });
    assert.equal(amb.isError, true);
    assert.equal(
      amb.text,
      [
        '2 symbols of Sample.java fit "split" (outline from tree-sitter):',
        '- L14-17 method split(String text) (symbol "Sample.split(String text)")',
        '- L19-21 method split(String text, int limit) (symbol "Sample.split(String text, int limit)")',
        'Pass one of these names with its parameters, or read its lines with offset and limit.',
      ].join('\n'),
    );
    const picked = await call(ctx, 'fs_read', { path: 'Sample.java', symbol: 'Sample.split(String text, int limit)' });
    assert.match(picked.text, /<meta>lines 19-21 of 28, method Sample\.split,/);
    const missing = await call(ctx, 'fs_read', { path: 'src/parser.ts', symbol: 'Parser.peak' });
    assert.equal(
      missing.text,
      ['src/parser.ts has no symbol "Parser.peak" (outline from tree-sitter).', 'Did you mean one of these?', '- L12-15 method peek() (symbol "Parser.peek")', 'Try: fs_read {"path":"src/parser.ts","mode":"outline"}'].join('\n'),
    );
  });

  it('escapes control characters in symbol names (ESC, BEL, NEL), and finds a symbol by the name as printed', async () => {
    fs.writeFileSync(path.join(tree.root, 'odd.js'), 'class K {\n  "a\u001b[2Jb\u0007c\u0085d" () {\n    return 1;\n  }\n}\n');
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'odd.js', mode: 'outline' });
    assert.match(r.text, /^ {2}L2-4 method "a\\x1b\[2Jb\\x07c\\x85d"\(\)$/m);
    assert.ok(!['\u0007', '\u001b', '\u0085'].some((c) => r.text.includes(c)), r.text);
    const one = await call(ctx, 'fs_read', { path: 'odd.js', symbol: 'K."a\\x1b[2Jb\\x07c\\x85d"' });
    assert.match(one.text, /<meta>lines 2-4 of 5, method K\."a\\x1b\[2Jb\\x07c\\x85d",/);
  });

  it('says why an outline came from indentation when a parser knows the file type', async () => {
    // over 8 MiB once read as UTF-8 (three bytes a character), from a UTF-16 file of 7.6 MiB (two)
    const body = `${'\u540d'.repeat(100)}\n`.repeat(38_000);
    fs.writeFileSync(path.join(tree.root, 'wide.py'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(body, 'utf16le')]));
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_read', { path: 'wide.py', mode: 'outline' });
    assert.match(r.text, /from indentation \(the file is over the 8\.0 MiB parsed for an outline; ranges are guesses\)/);
    const plan = planOutlineNow({ source: 'indentation', symbols: [], fallback: 'the parser gave up: parsing took over 5000 ms' });
    const page = renderOutline({ displayPath: 'big.py', totalLines: 800_000, encoding: 'utf-8', eol: 'LF', version: 'abcd1234', dirty: false, offset: 1, limit: 10, limitGiven: false, nextCall: () => '', insideCall: () => '' }, plan);
    assert.match(page.text, /<meta>no symbols, from indentation \(the parser gave up: parsing took over 5000 ms; ranges are guesses\), 800000 lines,/);
  });

  it('refuses options that do not go with an outline or a symbol, naming the field', async () => {
    const ctx = await context(tree.root);
    for (const [input, says] of [
      [{ path: 'src/parser.ts', symbol: 'Parser', offset: 3 }, /`symbol`: symbol reads the whole symbol: give it without mode, offset or limit/],
      [{ path: 'src/parser.ts', mode: 'outline', column: 3 }, /`column`: column reads one line in pieces/],
      [{ path: 'src/parser.ts', mode: 'outline', indentation: { anchor_line: 2 } }, /`indentation`: indentation options apply only with mode "indentation"/],
      [{ path: 'src', mode: 'outline' }, /src is a folder; outline mode reads source files/],
    ] as const) {
      const r = await call(ctx, 'fs_read', input);
      assert.equal(r.isError, true, JSON.stringify(input));
      assert.match(r.text, says);
    }
  });
});

describe('fs_edit with "symbol"', function () {
  this.timeout(30_000);
  let tree: ReturnType<typeof tempTree>;
  const p = (rel: string) => path.join(tree.root, rel);
  beforeEach(() => {
    tree = tempTree({ 'src/parser.ts': PARSER, 'broken.ts': fs.readFileSync(path.join(fixtures, 'broken.ts')), 'notes.txt': fs.readFileSync(path.join(fixtures, 'notes.txt')) });
  });
  afterEach(() => tree.cleanup());

  it('replaces the symbol\'s lines, its doc comment included, keeping BOM and CRLF byte for byte', async () => {
    const crlf = '\ufeff' + PARSER.replace(/\n/g, '\r\n');
    fs.writeFileSync(p('src/parser.ts'), crlf);
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_edit', { path: 'src/parser.ts', symbol: 'Parser.parse', new_string: '  /** Counts. */\n  parse(text: string): number {\n    return text.length;\n  }\n' });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /^Edited src\/parser\.ts: \+2 -5 lines; version [0-9a-f]{8}\.\nReplaced method Parser\.parse \(lines 4-10, outline from tree-sitter\)\.\n<diff>/);
    const want = '\ufeff' + PARSER.replace('  /**\n   * One pass over the text.\n   */\n  parse(text: string): number {\n    const n = text.length;\n    return n;\n  }', '  /** Counts. */\n  parse(text: string): number {\n    return text.length;\n  }').replace(/\n/g, '\r\n');
    assert.deepEqual(fs.readFileSync(p('src/parser.ts')), Buffer.from(want, 'utf8'));
  });

  it('keeps the doc comment when new_string begins with the declaration itself, and says so', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_edit', { path: 'src/parser.ts', symbol: 'Parser.parse', new_string: '  parse(text: string): number {\n    return text.length;\n  }\n' });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /Replaced method Parser\.parse \(lines 7-10, outline from tree-sitter\)\.\nnew_string begins with the declaration, so the 3 lines of comments and decorators above it \(from line 4\) were kept\./);
    assert.equal(fs.readFileSync(p('src/parser.ts'), 'utf8'), PARSER.replace('    const n = text.length;\n    return n;\n', '    return text.length;\n'));
  });

  it('asks no language server about a file that may hold secrets, nor about one that sends a lone CR', async () => {
    fs.writeFileSync(p('secrets.ts'), 'export function apiKeyFor(user: string) {\n  return "sk-live";\n}\n');
    fs.writeFileSync(p('lonecr.ts'), 'export function a() {\r  return 1;\r}\nexport function b() {\n  return 2;\n}\n');
    const ctx = await context(tree.root, { sensitiveFiles: ['secrets.ts'] });
    const asked: string[] = [];
    ctx.ws.documentSymbols = async (q) => {
      asked.push(path.basename(q));
      return [{ kind: 'function', name: 'fromServer', first: 1, last: 3, children: [] }];
    };
    const secret = await call(ctx, 'fs_read', { path: 'secrets.ts', mode: 'outline' });
    assert.match(secret.text, /from the syntax tree \(tree-sitter\)[\s\S]*apiKeyFor/);
    const cr = await call(ctx, 'fs_read', { path: 'lonecr.ts', mode: 'outline' });
    assert.match(cr.text, /from the syntax tree \(tree-sitter\)/);
    const plain = await call(ctx, 'fs_read', { path: 'src/parser.ts', mode: 'outline' });
    assert.match(plain.text, /from the language server[\s\S]*fromServer/);
    assert.deepEqual(asked, ['parser.ts']);
  });

  it('gives a method written flush left the indentation of the one it replaces, and says so', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_edit', { path: 'src/parser.ts', symbol: 'peek', new_string: 'peek(): number {\n  return this.pos;\n}' });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /new_string had no indentation on its first line: each of its lines was given the symbol's own\. Check the diff\./);
    assert.equal(fs.readFileSync(p('src/parser.ts'), 'utf8'), PARSER.replace('  peek(): number {\n    const n = this.pos;\n    return n;\n  }', '  peek(): number {\n    return this.pos;\n  }'));
  });

  it('matches old_string only inside the symbol, where the same text elsewhere would make it ambiguous', async () => {
    const ctx = await context(tree.root);
    const plain = await call(ctx, 'fs_edit', { path: 'src/parser.ts', old_string: '    return n;', new_string: '    return n + 1;' });
    assert.equal(plain.isError, true, 'the text is in both methods');
    const r = await call(ctx, 'fs_edit', { path: 'src/parser.ts', symbol: 'Parser.peek', old_string: '    return n;', new_string: '    return n + 1;' });
    assert.equal(r.isError, false, r.text);
    assert.equal(fs.readFileSync(p('src/parser.ts'), 'utf8'), PARSER.replace('this.pos;\n    return n;', 'this.pos;\n    return n + 1;'));
    const outside = await call(ctx, 'fs_edit', { path: 'src/parser.ts', symbol: 'Parser.peek', old_string: 'private pos = 0;', new_string: 'private pos = 1;' });
    assert.equal(outside.isError, true);
    assert.match(outside.text, /inside method Parser\.peek, lines 12-15/);
    assert.equal(fs.readFileSync(p('src/parser.ts'), 'utf8'), PARSER.replace('this.pos;\n    return n;', 'this.pos;\n    return n + 1;'));
  });

  it('refuses, changing nothing, where the range is uncertain: next to a parse error, or guessed from indentation', async () => {
    const ctx = await context(tree.root);
    const before = fs.readFileSync(p('broken.ts'), 'utf8');
    const r = await call(ctx, 'fs_edit', { path: 'broken.ts', symbol: 'fine', new_string: 'export function fine(): number {\n  return 9;\n}' });
    assert.equal(r.isError, true);
    assert.equal(r.text, 'Cannot edit function fine of broken.ts by symbol: the file does not parse cleanly around it. Nothing was changed. Use old_string with the exact text instead.');
    assert.equal(fs.readFileSync(p('broken.ts'), 'utf8'), before);
    const guess = await call(ctx, 'fs_edit', { path: 'notes.txt', symbol: 'Work', new_string: 'Work\n  nothing' });
    assert.equal(guess.isError, true);
    assert.match(guess.text, /its range was guessed from indentation/);
  });

  it('refuses a by-symbol edit of a file that changed since it was read', async () => {
    const ctx = await context(tree.root);
    await call(ctx, 'fs_read', { path: 'src/parser.ts', symbol: 'Parser.peek' });
    fs.writeFileSync(p('src/parser.ts'), PARSER.replace('private pos = 0;', 'private pos = 5;'));
    const r = await call(ctx, 'fs_edit', { path: 'src/parser.ts', symbol: 'Parser.peek', new_string: '  peek(): number {\n    return 0;\n  }' });
    assert.equal(r.isError, true);
    assert.match(r.text, /changed since you last read it \(version [0-9a-f]{8}, now [0-9a-f]{8}\), so its symbol "Parser\.peek" may not be the text you mean\. Nothing was changed\./);
  });

  it('names no symbol of a file that may hold secrets when the name does not fit', async () => {
    fs.writeFileSync(p('secrets.ts'), 'export function apiKeyFor(user: string) {\n  return "sk-live";\n}\n');
    const ctx = await context(tree.root, { sensitiveFiles: ['secrets.ts'] });
    const r = await call(ctx, 'fs_edit', { path: 'secrets.ts', symbol: 'apiKey', new_string: 'x' });
    assert.equal(r.isError, true);
    assert.doesNotMatch(r.text, /apiKeyFor|L1/);
    assert.match(r.text, /holds no single symbol named "apiKey"\. Nothing was changed\. It may hold secrets or lies outside the workspace, so none of its names are shown here\./);
  });

  it('asks for new_string with symbol, and refuses replace_all or an empty old_string with it', async () => {
    const ctx = await context(tree.root);
    for (const [input, says] of [
      [{ path: 'src/parser.ts', symbol: 'peek' }, /`new_string`: is required with symbol/],
      [{ path: 'src/parser.ts', symbol: 'peek', new_string: 'x', replace_all: true }, /`replace_all`: applies to old_string/],
      [{ path: 'src/parser.ts', symbol: 'peek', old_string: '', new_string: 'x' }, /`old_string`: is empty: with symbol/],
    ] as const) {
      const r = await call(ctx, 'fs_edit', input);
      assert.equal(r.isError, true, JSON.stringify(input));
      assert.match(r.text, says);
    }
    assert.equal(fs.readFileSync(p('src/parser.ts'), 'utf8'), PARSER);
  });
});
