// What the patches and edits models really write cost a model, played through the CLI by a
// scripted model that acts only on what each answer tells it (as bench/roundtrips.mjs does):
// per case, the calls until the change is right (or until the model has what it needs), the
// bytes of the answers it read, and whether the file ended right. A case whose first answer
// says "Success" over a wrong file counts the calls a careful model then spends: a read of
// the lines the answer asked it to check, and the edit that repairs them.
//
// Usage: node bench/friction.mjs [path/to/cli.js] [--json] (default: dist/cli.js). Run it
// on two builds (the one before a change and the one after) in the same session.
import fs from 'node:fs';
import path from 'node:path';
import { callTool as callCli, numbered, quotedPairs, tree } from './scriptedModel.mjs';

const args = process.argv.slice(2);
const json = args.includes('--json');
const cli = path.resolve(args.find((a) => !a.startsWith('--')) ?? path.join(import.meta.dirname, '..', 'dist', 'cli.js'));
const MAX_CALLS = 10;

/** A session on one tree: every call counted, every answer's bytes summed. */
class Session {
  constructor(files) {
    this.root = tree(files);
    this.calls = 0;
    this.bytes = 0;
  }

  call(tool, input) {
    if (++this.calls > MAX_CALLS) {
      throw new Error(`${tool}: no end after ${MAX_CALLS} calls`);
    }
    const r = callCli(cli, this.root, tool, input);
    this.bytes += Buffer.byteLength(r.text);
    return r;
  }

  file(rel) {
    return fs.readFileSync(path.join(this.root, rel), 'utf8');
  }

  done(extra) {
    fs.rmSync(this.root, { recursive: true, force: true });
    return { calls: this.calls, bytes: this.bytes, ...extra };
  }
}

const patchOf = (...lines) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

/**
 * A patch the model first writes with a habit, and rewrites the canonical way when an
 * answer refuses it. After "Success" with a request to check lines (and no diff showing
 * them), it reads those lines; when they are wrong it repairs them with fs_edit.
 */
function patchCase(files, habit, canonical, rel, expected) {
  const s = new Session(files);
  let r = s.call('fs_apply_patch', { patch: habit });
  if (!r.ok) {
    r = s.call('fs_apply_patch', { patch: canonical });
  }
  if (r.ok && /check those lines/.test(r.text) && !/<diff>/.test(r.text)) {
    const at = /chunk \d+ at line (\d+)/.exec(r.text);
    s.call('fs_read', { path: rel, offset: Number(at?.[1] ?? 1), limit: 6 });
  }
  let right = s.file(rel) === expected;
  const wrongFirst = r.ok && !right;
  if (!right && r.ok) {
    // the repair: the whole file as it should be, over the version it just wrote
    const read = s.call('fs_read', { path: rel });
    const version = /version ([0-9a-f]+)/.exec(read.text)?.[1];
    s.call('fs_write', { path: rel, content: expected, version });
    right = s.file(rel) === expected;
  }
  return s.done({ right, note: wrongFirst ? 'first answer: Success over a wrong file' : r.ok ? '' : 'refused' });
}

const PY = ['def load(path):', '    with open(path) as f:', '        return parse(f.read())', '', 'def save(path, data):', '    with open(path, "w") as f:', '        f.write(render(data))', ''].join('\n');

const cases = {
  'patch: context lines without their leading space': () =>
    patchCase(
      { 'a.py': PY },
      patchOf('*** Update File: a.py', '@@', 'def save(path, data):', '    with open(path, "w") as f:', '-        f.write(render(data))', '+        f.write(render(data, pretty=True))'),
      patchOf('*** Update File: a.py', '@@', ' def save(path, data):', '     with open(path, "w") as f:', '-        f.write(render(data))', '+        f.write(render(data, pretty=True))'),
      'a.py',
      PY.replace('render(data))', 'render(data, pretty=True))'),
    ),
  'patch: blank separator line after a chunk of added lines': () =>
    patchCase(
      { 'a.py': PY },
      patchOf('*** Update File: a.py', '@@', '+    return True', ''),
      patchOf('*** Update File: a.py', '@@', '+    return True'),
      'a.py',
      PY + '    return True\n',
    ),
  'patch: a section header with no lines under it': () =>
    patchCase(
      { 'a.py': PY, 'b.py': 'x = 1\n' },
      patchOf('*** Update File: b.py', '*** Update File: a.py', '@@ def save(path, data):', '-        f.write(render(data))', '+        f.write(render(data, pretty=True))'),
      patchOf('*** Update File: a.py', '@@ def save(path, data):', '-        f.write(render(data))', '+        f.write(render(data, pretty=True))'),
      'a.py',
      PY.replace('render(data))', 'render(data, pretty=True))'),
    ),
  'patch: @@ <enclosing line> (accepted before and after)': () =>
    patchCase(
      { 'a.py': PY },
      patchOf('*** Update File: a.py', '@@ def save(path, data):', '     with open(path, "w") as f:', '-        f.write(render(data))', '+        f.write(render(data, pretty=True))'),
      '',
      'a.py',
      PY.replace('render(data))', 'render(data, pretty=True))'),
    ),
  'patch: YAML list item, chunk indented 2 columns short': () => {
    const y = ['list:', '  - item1a', '  - group:', '    - item1b', '    - item2b', '      - nested1', ''].join('\n');
    return patchCase(
      { 'y.yaml': y },
      patchOf('*** Update File: y.yaml', '@@', '-  - item2b', '+  - item20b', '-    - nested1', '+    - nested3'),
      patchOf('*** Update File: y.yaml', '@@', '-    - item2b', '+    - item20b', '-      - nested1', '+      - nested3'),
      'y.yaml',
      y.replace('- item2b', '- item20b').replace('- nested1', '- nested3'),
    );
  },
  'patch: file without a final newline, chunk far from its end': () => {
    const t = 'alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta';
    return patchCase({ 't.txt': t }, patchOf('*** Update File: t.txt', '@@', '-beta', '+BETA'), '', 't.txt', t.replace('beta', 'BETA'));
  },
  'patch: file without a final newline, chunk changes its last line': () => {
    const t = 'alpha\nbeta\ngamma';
    return patchCase({ 't.txt': t }, patchOf('*** Update File: t.txt', '@@', ' beta', '-gamma', '+GAMMA'), '', 't.txt', 'alpha\nbeta\nGAMMA');
  },
  'patch: chunk indented 2 columns short (Python)': () =>
    patchCase(
      { 'a.py': PY },
      patchOf('*** Update File: a.py', '@@ def save(path, data):', '   with open(path, "w") as f:', '-      f.write(render(data))', '+      f.write(render(data, pretty=True))'),
      '',
      'a.py',
      PY.replace('render(data))', 'render(data, pretty=True))'),
    ),
  'patch: a loose match (the file has trailing spaces), the model checks the lines': () => {
    const py = PY.replace('as f:\n        f.write', 'as f:  \n        f.write');
    return patchCase(
      { 'a.py': py },
      patchOf('*** Update File: a.py', '@@ def save(path, data):', '     with open(path, "w") as f:', '-        f.write(render(data))', '+        f.write(render(data, pretty=True))'),
      '',
      'a.py',
      py.replace('render(data))', 'render(data, pretty=True))'),
    );
  },
  'fs_edit: old_string, 2nd line 4 columns short, 3rd 2 short': () => editIndentCase(['        for item in items:', '        if item.ok:', '              total += item.value']),
  'fs_edit: old_string, a nested block copied without indentation': () => editIndentCase(['for item in items:', 'if item.ok:', 'total += item.value', 'else:', 'self.skip(item)']),
  'fs_edit: old_string at 2 places, the model adds context': ambiguousCase,
  'fs_write: a file never read': () => {
    const s = new Session({ 'notes.txt': 'keep me\n' });
    let r = s.call('fs_write', { path: 'notes.txt', content: 'new\n' });
    let read = false;
    for (let i = 0; !r.ok && i < 3; i++) {
      const handed = /pass "version": "([0-9a-f]+)"/.exec(r.text)?.[1];
      if (handed) {
        r = s.call('fs_write', { path: 'notes.txt', content: 'new\n', version: handed });
        continue;
      }
      const page = s.call('fs_read', { path: 'notes.txt' });
      read = true;
      r = s.call('fs_write', { path: 'notes.txt', content: 'new\n', version: /version ([0-9a-f]+)/.exec(page.text)?.[1] });
    }
    return s.done({ right: s.file('notes.txt') === 'new\n', note: read ? 'read before overwriting' : 'overwritten unseen, with the version the refusal printed' });
  },
  'fs_read: indentation mode, only anchor_line, in a 13-line nested function': () => {
    const s = new Session({ 'big.py': BIG_CLASS });
    const r = s.call('fs_read', { path: 'big.py', mode: 'indentation', indentation: { anchor_line: NESTED_ANCHOR } });
    const shown = numbered(r.text).length;
    return s.done({ right: r.ok && shown >= 5 && shown <= 20, note: `${shown} lines shown` });
  },
  'fs_read outline: an annotated class attribute': () => {
    const s = new Session({ 'c.py': 'class Config:\n    prompt: str | None = None\n    retries: int = 3\n\n    def run(self):\n        pass\n' });
    const r = s.call('fs_read', { path: 'c.py', mode: 'outline' });
    const line = r.text.split('\n').find((l) => l.includes('prompt')) ?? '';
    return s.done({ right: /field/.test(line), note: line.trim() });
  },
  'noise: a CLI edit answer': () => {
    const s = new Session({ 'a.py': PY });
    s.call('fs_edit', { path: 'a.py', old_string: 'render(data))', new_string: 'render(data, pretty=True))' });
    return s.done({ right: true, note: '' });
  },
  'noise: a grep page after one whose last match shares a context line': () => {
    const g = Array.from({ length: 12 }, (_, i) => `line ${i + 1} ${i % 2 === 0 ? 'hit' : 'x'}`).join('\n') + '\n';
    const s = new Session({ 'g.txt': g });
    const first = s.call('fs_grep', { pattern: 'hit', context: 1, limit: 2 });
    const next = /^Continue with: fs_grep (\{.*\})$/m.exec(first.text);
    const second = s.call('fs_grep', JSON.parse(next[1]));
    const seen = new Set(first.text.split('\n').filter((l) => /^\s+L\d+[-:]/.test(l)).map((l) => l.trim()));
    const repeated = second.text.split('\n').filter((l) => /^\s+L\d+[-:]/.test(l) && seen.has(l.trim())).length;
    return s.done({ right: repeated === 0, note: `${repeated} line(s) of the first page repeated` });
  },
  'noise: a patch with 2 failing chunks in one file': () => {
    const s = new Session({ 'a.py': PY });
    const r = s.call('fs_apply_patch', { patch: patchOf('*** Update File: a.py', '@@', '-        return parse(f.readall())', '+        return 1', '@@', '-        f.write(render(dat))', '+        pass') });
    return s.done({ right: !r.ok, note: /2 problems[^\n]*\n[^\n]*2 problems/.test(r.text) ? '"2 problems" said twice' : '' });
  },
  'noise: old_string copied from fs_grep output': () => {
    const s = new Session({ 'a.py': PY });
    const grep = s.call('fs_grep', { pattern: 'render', path: 'a.py' });
    const line = grep.text.split('\n').find((l) => /^\s+L\d+: /.test(l));
    const r = s.call('fs_edit', { path: 'a.py', old_string: line, new_string: line.replace('render(data)', 'render(data, pretty=True)') });
    return s.done({ right: r.ok && !/fs_read output/.test(r.text), note: /copied from ([^;.\n]*)/.exec(r.text)?.[0] ?? '' });
  },
};

const EDIT_FILE = [
  'class Runner:',
  '    def run(self, items):',
  '        total = 0',
  '        for item in items:',
  '            if item.ok:',
  '                total += item.value',
  '            else:',
  '                self.skip(item)',
  '        return total',
  '',
  '    def skip(self, item):',
  '        pass',
  '',
].join('\n');

/** An old_string whose lines are indented wrong by different amounts; the model fixes what each answer quotes, or copies a region shown. */
function editIndentCase(oldLines) {
  const s = new Session({ 'm.py': EDIT_FILE });
  let oldString = oldLines.join('\n');
  const change = (t) => t.replace('total += item.value', 'total += item.value * 2');
  let newString = change(oldString);
  for (;;) {
    const r = s.call('fs_edit', { path: 'm.py', old_string: oldString, new_string: newString });
    if (r.ok) {
      break;
    }
    // a pair whose two sides read alike tells nothing to fix: the model reads the region instead
    const pairs = quotedPairs(r.text).filter(([expected, actual]) => expected !== actual);
    if (pairs.length > 0) {
      for (const [expected, actual] of pairs) {
        oldString = oldString.split('\n').map((l) => (l === expected ? actual : l)).join('\n');
      }
    } else {
      let region = numbered(r.text);
      const tryRead = /^Try: fs_read (\{.*\})$/m.exec(r.text);
      if (region.length === 0 && tryRead) {
        region = numbered(s.call('fs_read', JSON.parse(tryRead[1])).text);
      }
      if (region.length === 0) {
        throw new Error(`fs_edit: nothing to act on:\n${r.text}`);
      }
      oldString = region.map(([, t]) => t).join('\n');
    }
    newString = change(oldString);
  }
  return s.done({ right: s.file('m.py') === change(EDIT_FILE), note: '' });
}

/** Two functions that end alike; the model means the second. It adds the line above the place it means, from the answer or from a read. */
function ambiguousCase() {
  const file = ['def first(rows):', '    rows.sort()', '    return rows', '', 'def second(rows):', '    rows.reverse()', '    return rows', ''].join('\n');
  const s = new Session({ 'r.py': file });
  let oldString = '    return rows';
  let newString = '    return list(rows)';
  for (;;) {
    const r = s.call('fs_edit', { path: 'r.py', old_string: oldString, new_string: newString });
    if (r.ok) {
      break;
    }
    const places = /lines? ([\d, ]+)\)/.exec(r.text)?.[1].split(',').map((n) => Number(n.trim())) ?? [];
    let shown = numbered(r.text);
    if (!shown.some(([n]) => n === places[1] - 1)) {
      // no context in the answer: read above each place
      shown = [];
      for (const p of places) {
        shown.push(...numbered(s.call('fs_read', { path: 'r.py', offset: Math.max(1, p - 2), limit: 3 }).text));
      }
    }
    const above = shown.find(([n]) => n === places[1] - 1)?.[1];
    if (above === undefined) {
      throw new Error(`ambiguous: nothing to act on:\n${r.text}`);
    }
    oldString = `${above}\n${oldString}`;
    newString = `${above}\n${newString}`;
  }
  return s.done({ right: s.file('r.py') === file.replace('    rows.reverse()\n    return rows', '    rows.reverse()\n    return list(rows)'), note: '' });
}

/** A class of many methods (about 39 KB) with a 13-line function nested in one of them; the anchor is inside it. */
const { BIG_CLASS, NESTED_ANCHOR } = (() => {
  const out = ['class Service:'];
  let anchor = 0;
  for (let m = 0; m < 60; m++) {
    out.push(`    def method_${m}(self, request, options=None):`, `        """Handle request kind ${m} and return the response."""`);
    for (let k = 0; k < 12; k++) {
      out.push(`        value_${k} = self.compute_${k}(request, options, label="method ${m} step ${k}")`);
    }
    if (m === 30) {
      out.push('        def nested_helper(item):');
      for (let k = 0; k < 11; k++) {
        out.push(`            item = transform_${k}(item)`);
        if (k === 5) {
          anchor = out.length;
        }
      }
      out.push('            return item');
    }
    out.push('        return value_0', '');
  }
  return { BIG_CLASS: out.join('\n'), NESTED_ANCHOR: anchor };
})();

const rows = [];
for (const [name, run] of Object.entries(cases)) {
  rows.push({ name, ...run() });
}
if (json) {
  console.log(JSON.stringify({ cli, rows }, null, 2));
} else {
  console.log(cli);
  for (const r of rows) {
    console.log(`${r.name}: ${r.calls} call${r.calls === 1 ? '' : 's'}, ${r.bytes} bytes${r.right ? '' : ', WRONG RESULT'}${r.note ? ` (${r.note})` : ''}`);
  }
}
