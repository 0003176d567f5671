// How many calls, and how many bytes of answers, a model needs to fix two common mistakes,
// played through the CLI by a scripted model that fixes exactly what each answer tells it:
//
// - a stale old_string: three of its lines no longer read as the file does;
// - a patch with three bad chunks in two files.
//
// The model acts only on what it reads: for fs_edit it copies each `file:` line the answer
// quotes over the `old_string:` line beside it (or, given only a region or a read call, reads
// and copies the lines); for fs_apply_patch it rewrites each chunk an answer names, and only
// those. Usage: node bench/roundtrips.mjs [path/to/cli.js] (default: dist/cli.js).
import fs from 'node:fs';
import path from 'node:path';
import { callTool as callCli, numbered, quotedPairs, tree } from './scriptedModel.mjs';

const cli = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..', 'dist', 'cli.js'));
const MAX_CALLS = 10;

/** One tool call through the CLI (changes approved): its text, and whether it failed. */
function callTool(root, tool, input) {
  return callCli(cli, root, tool, input);
}

const FUNC = Array.from({ length: 40 }, (_, i) => `const setting${i} = read("setting${i}");`);
const FILE = [...FUNC, 'function total(items, rate) {', '  let sum = 0;', '  for (const it of items) {', '    sum += it.price * it.count;', '  }', '  const tax = sum * rate;', '  return sum + tax;', '}', ...FUNC.map((l) => l.replace('const', 'let'))].join('\n') + '\n';

function staleOldString() {
  const root = tree({ 'src/total.js': FILE });
  let oldString = ['function total(items, rate) {', '  let sum = 0;', '  for (const it of items) {', '    sum += it.price * it.qty;', '  }', '  const tax = sum * taxRate;', '  return sum - tax;', '}'].join('\n');
  const newString = oldString.replace('function total(items, rate) {', 'export function total(items, rate) {');
  let calls = 0;
  let bytes = 0;
  for (;;) {
    if (++calls > MAX_CALLS) throw new Error('fs_edit: no success');
    const r = callTool(root, 'fs_edit', { path: 'src/total.js', old_string: oldString, new_string: newString });
    bytes += Buffer.byteLength(r.text);
    if (r.ok) break;
    const pairs = quotedPairs(r.text);
    if (pairs.length > 0) {
      for (const [expected, actual] of pairs) oldString = oldString.split('\n').map((l) => (l === expected ? actual : l)).join('\n');
      continue;
    }
    let region = numbered(r.text);
    const tryRead = /^Try: fs_read (\{.*\})$/m.exec(r.text);
    if (region.length === 0 && tryRead) {
      calls++;
      const read = callTool(root, 'fs_read', JSON.parse(tryRead[1]));
      bytes += Buffer.byteLength(read.text);
      region = numbered(read.text);
    }
    if (region.length === 0) throw new Error(`fs_edit: nothing to act on:\n${r.text}`);
    oldString = region.map(([, t]) => t).join('\n');
  }
  const done = fs.readFileSync(path.join(root, 'src/total.js'), 'utf8');
  fs.rmSync(root, { recursive: true, force: true });
  if (!done.includes('export function total(items, rate) {\n  let sum = 0;')) throw new Error('fs_edit: wrong result');
  return { calls, bytes };
}

const A = ['def load(path):', '    with open(path) as f:', '        return parse(f.read())', '', 'def save(path, data):', '    with open(path, "w") as f:', '        f.write(render(data))', '    return True', '', 'def close():', '    pass', ''].join('\n');
const B = ['export function a() {', '  return 1;', '}', '', 'export function b() {', '  return 2;', '}', ''].join('\n');

/** Each chunk as the model first writes it (wrong) and after an answer names it (right). */
const CHUNKS = {
  'a.py': [
    { wrong: ['@@ def load(path):', '     with open(path) as f:', '-        return parse(f.readall())', '+        return parse(f.read(), strict=True)'], right: ['@@ def load(path):', '     with open(path) as f:', '-        return parse(f.read())', '+        return parse(f.read(), strict=True)'] },
    { wrong: ['@@ def save(path, data):', '-    with open(path, "wb") as f:', '+    with open(path, "w", encoding="utf-8") as f:'], right: ['@@ def save(path, data):', '-    with open(path, "w") as f:', '+    with open(path, "w", encoding="utf-8") as f:'] },
    { wrong: ['@@ def close():', '-    pass', '+    return None'], right: ['@@ def close():', '-    pass', '+    return None'] },
  ],
  'b.ts': [{ wrong: ['@@ export function b() {', '-  return 3;', '+  return 4;'], right: ['@@ export function b() {', '-  return 2;', '+  return 4;'] }],
};

function badPatch() {
  const root = tree({ 'a.py': A, 'b.ts': B });
  const fixed = new Set();
  let calls = 0;
  let bytes = 0;
  for (;;) {
    if (++calls > MAX_CALLS) throw new Error('fs_apply_patch: no success');
    const body = ['*** Begin Patch'];
    for (const [file, chunks] of Object.entries(CHUNKS)) {
      body.push(`*** Update File: ${file}`);
      chunks.forEach((c, i) => body.push(...(fixed.has(`${file}#${i + 1}`) ? c.right : c.wrong)));
    }
    body.push('*** End Patch');
    const r = callTool(root, 'fs_apply_patch', { patch: body.join('\n') });
    bytes += Buffer.byteLength(r.text);
    if (r.ok) break;
    // every chunk the answer names: `*** Update File: a.py` (patch line 2), chunk 2 of 3
    const named = [...r.text.matchAll(/`\*\*\* Update File: ([^`]+)` \(patch line \d+\), chunk (\d+) of \d+/g)].map((m) => `${m[1]}#${m[2]}`);
    const fresh = named.filter((n) => !fixed.has(n));
    if (fresh.length === 0) throw new Error(`fs_apply_patch: nothing to act on:\n${r.text}`);
    fresh.forEach((n) => fixed.add(n));
  }
  const a = fs.readFileSync(path.join(root, 'a.py'), 'utf8');
  fs.rmSync(root, { recursive: true, force: true });
  if (!a.includes('strict=True') || !a.includes('encoding="utf-8"')) throw new Error('fs_apply_patch: wrong result');
  return { calls, bytes };
}

const edit = staleOldString();
const patch = badPatch();
console.log(`${cli}`);
console.log(`stale old_string, 3 differing lines: ${edit.calls} calls, ${edit.bytes} bytes of answers`);
console.log(`patch, 3 bad chunks in 2 files: ${patch.calls} calls, ${patch.bytes} bytes of answers`);
