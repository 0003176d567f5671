// One outline or symbol call in a fresh process, with a timer that records the longest pause
// of this thread's event loop (in VS Code that thread is the extension host's):
//   node bench/outline-worker.mjs call <folder> <input JSON> [symbols.json]
//   node bench/outline-worker.mjs parse <folder> <language>:<file> [symbols.json to write]
// `call`: fs_read with the input; with symbols.json, a language server "answers" those symbols,
// so the call times every step after the parse (the parse's own symbols, written by `parse`).
// `parse`: the syntax parse alone (no time bound), the baseline. Prints { ms, gapMs, source } as JSON.
// OUTLINE_BENCH_ROOT points at another build of the project (a before-and-after figure).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const root = process.env.OUTLINE_BENCH_ROOT || path.resolve(import.meta.dirname, '..');
const [mode, dir, arg, symbolsFile] = process.argv.slice(2);
const load = (p) => require(path.join(root, 'out/src', p));

/** The longest pause of the event loop while `work` runs (from this checkout's compiled tests), and the work's time. */
async function timed(work) {
  const { timed: measure } = require(path.resolve(import.meta.dirname, '../out/test/unit/eventLoop.js'));
  const r = await measure(work);
  return { ms: Math.round(r.ms), gapMs: Math.round(r.gapMs), result: r.result };
}

if (mode === 'parse') {
  const { syntaxOutline } = load('host/treeSitter.js');
  const [language, file] = arg.split(':');
  const text = fs.readFileSync(path.join(dir, file), 'utf8');
  const r = await timed(() => syntaxOutline(language, text, { isCancellationRequested: false }, 600_000));
  if (symbolsFile && r.result.kind === 'parsed') {
    fs.writeFileSync(symbolsFile, JSON.stringify(r.result.symbols));
  }
  const count = (list) => list.reduce((n, s) => n + 1 + count(s.children), 0);
  console.log(JSON.stringify({ ms: r.ms, gapMs: r.gapMs, source: r.result.kind, symbols: r.result.kind === 'parsed' ? count(r.result.symbols) : 0 }));
} else {
  const { NodeWorkspace } = load('host/nodeWorkspace.js');
  const { ReadLedger } = load('services/ledger.js');
  const { DEFAULT_SETTINGS } = load('services/settings.js');
  const { FileLocks } = load('services/locks.js');
  const { cliApprover } = load('services/cliApprover.js');
  const { invokeTool } = load('services/run.js');
  const { findTool } = load('tools/registry.js');
  const ws = await NodeWorkspace.create([dir]);
  if (symbolsFile) {
    const symbols = JSON.parse(fs.readFileSync(symbolsFile, 'utf8'));
    ws.documentSymbols = async () => symbols;
  }
  let source = '?';
  const log = { info: (m) => { const s = /from (tree-sitter|indentation|language server|headings) in/.exec(m); if (s) source = s[1]; }, warn() {}, error() {} };
  const ctx = { ws, approver: cliApprover({ yes: true, allowOutside: false }), settings: DEFAULT_SETTINGS, signal: { isCancellationRequested: false }, ledger: new ReadLedger(), locks: new FileLocks(), log };
  const r = await timed(() => invokeTool(findTool('fs_read'), JSON.parse(arg), ctx));
  const text = r.result.parts.map((p) => p.text).join('\n');
  console.log(JSON.stringify({ ms: r.ms, gapMs: r.gapMs, source, isError: r.result.isError, bytes: text.length, last: text.split('\n').pop().slice(0, 160) }));
}
process.exit(0);
