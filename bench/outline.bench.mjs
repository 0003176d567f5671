// fs_read mode "outline" and "symbol" on hostile files: every step after the parse (the call
// answered by the parse's own symbols) against the syntax parse alone (the baseline, in the
// same run), the longest pause of the calling thread's event loop during each (in VS Code,
// the extension host's), and the whole call, parse included (which falls back to indentation
// when the parse takes over 5 seconds, as on a busy machine). The cases:
// - a 2.3 MB and an 8 MB JavaScript class whose methods are named with "(", each holding
//   thousands of nested functions (the outline is cut below the methods, and the call that
//   goes deeper names one of them);
// - a Python file of 90,000 functions asked for a 500-character symbol name (a "did you mean"
//   over every symbol);
// - 200,000 symbols of a language server asked for a name one letter off.
// Each measurement runs in a fresh process (bench/outline-worker.mjs).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** A class with `methods` methods named with "(", their bodies holding nested functions up to about `bytes`. */
function parenClass(bytes, methods = 8) {
  const per = Math.ceil(bytes / methods / '    function inner_0_00000() { return 0; }\n'.length);
  const out = ['class K {'];
  for (let m = 0; m < methods; m++) {
    out.push(`  "klm${'n'.repeat(30)}${m}(" () {`);
    for (let f = 0; f < per; f++) out.push(`    function inner_${m}_${String(f).padStart(5, '0')}() { return 0; }`);
    out.push('  }');
  }
  out.push('}');
  return out.join('\n') + '\n';
}

function manyFunctions(n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(`def function_${i}(x):\n    return x\n`);
  return out.join('');
}

/** What a language server would answer for manyFunctions(n): one symbol per function. */
function serverSymbols(n) {
  return Array.from({ length: n }, (_, i) => ({ kind: 'function', name: `function_${i}`, first: 2 * i + 1, last: 2 * i + 2, startColumn: 0, children: [] }));
}

function one(args) {
  const out = execFileSync(process.execPath, [path.join(import.meta.dirname, 'outline-worker.mjs'), ...args], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, timeout: 20 * 60 * 1000 });
  return JSON.parse(out.trim().split('\n').pop());
}

export default async function run({ dataDir, record }) {
  const dir = path.join(dataDir, 'outline');
  fs.mkdirSync(dir, { recursive: true });
  const files = {
    'paren-2.3MB.js': () => parenClass(2.3e6),
    'paren-8MB.js': () => parenClass(8e6),
    'many-90k.py': () => manyFunctions(90_000),
    'many-200k.py': () => manyFunctions(200_000),
  };
  for (const [name, make] of Object.entries(files)) {
    if (!fs.existsSync(path.join(dir, name))) fs.writeFileSync(path.join(dir, name), make());
  }
  const served = (n) => {
    const file = path.join(dir, `symbols-server-${n}.json`);
    if (!fs.existsSync(file)) fs.writeFileSync(file, JSON.stringify(serverSymbols(n)));
    return file;
  };
  const longName = 'x'.repeat(500);
  const cases = [
    { name: 'outline of a 2.3 MB class with methods named with "("', input: { path: 'paren-2.3MB.js', mode: 'outline' }, parse: 'javascript:paren-2.3MB.js' },
    { name: 'outline of an 8 MB class with methods named with "("', input: { path: 'paren-8MB.js', mode: 'outline' }, parse: 'javascript:paren-8MB.js' },
    { name: 'symbol of 500 characters in 90,000 Python functions', input: { path: 'many-90k.py', symbol: longName }, parse: 'python:many-90k.py' },
  ];
  for (const c of cases) {
    const symbols = path.join(dir, `symbols-${path.basename(c.input.path)}.json`);
    const base = one(['parse', dir, c.parse, symbols]);
    if (base.source !== 'parsed') throw new Error(`no parse of ${c.input.path}: ${JSON.stringify(base)}`);
    const after = one(['call', dir, JSON.stringify(c.input), symbols]);
    const whole = one(['call', dir, JSON.stringify(c.input)]);
    const note = `${base.symbols} symbols; the whole call, parse included: ${whole.ms} ms, longest pause ${whole.gapMs} ms, outline from ${whole.source}`;
    record({ name: `${c.name}: every step after the parse, against the parse alone`, ours: after.ms, baseline: base.ms, unit: 'ms', note });
    record({ name: `${c.name}: longest event-loop pause after the parse, against the parse's`, ours: after.gapMs, baseline: base.gapMs, unit: 'ms', note });
  }
  const near = one(['call', dir, JSON.stringify({ path: 'many-200k.py', symbol: 'function_19999x' }), served(200_000)]);
  const parse200k = one(['parse', dir, 'python:many-200k.py']);
  const note = `a language server's 200,000 symbols; parse alone: ${parse200k.source}`;
  record({ name: 'a name one letter off among 200,000 symbols: the call, against the parse alone', ours: near.ms, baseline: parse200k.ms, unit: 'ms', note });
  record({ name: 'a name one letter off among 200,000 symbols: longest event-loop pause, against the parse\'s', ours: near.gapMs, baseline: parse200k.gapMs, unit: 'ms', note });
}
