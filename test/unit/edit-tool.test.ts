import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { encodeText, type Encoding } from '../../src/core/text/encoding';
import { english } from '../../src/core/phrase';
import type { Approver, Confirmation, Review } from '../../src/services/approval';
import { cliApprover } from '../../src/services/cliApprover';
import { call, context, prepare, scriptedApprover, tempTree } from './helpers';

describe('fs_edit', () => {
  let tree: { root: string; cleanup(): void };
  const p = (rel: string) => path.join(tree.root, rel);
  const body = 'function add(a, b) {\n  return a + b;\n}\n\nfunction sub(a, b) {\n  return a - b;\n}\n';
  beforeEach(() => {
    tree = tempTree({ 'src/math.js': body, 'twice.txt': 'x = 1\ny = 2\nx = 1\n' });
  });
  afterEach(() => tree.cleanup());

  it('replaces the one place old_string matches and answers with the diff and the new version', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_edit', { path: 'src/math.js', old_string: '  return a - b;', new_string: '  return a - b - 0;' });
    assert.equal(r.isError, false, r.text);
    assert.equal(fs.readFileSync(p('src/math.js'), 'utf8'), body.replace('a - b;', 'a - b - 0;'));
    assert.match(r.text, /^Edited src\/math\.js: \+1 -1 lines; version [0-9a-f]{8}\.\n<diff>\n--- a\/src\/math\.js\n\+\+\+ b\/src\/math\.js\n@@ -3,5 \+3,5 @@\n/);
  });

  it('flags a match that needed tolerance, and keeps the file conventions in new_string', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_edit', { path: 'src/math.js', old_string: 'function add(a, b) {\n    return a + b;\n}', new_string: 'function add(a, b) {\n    return b + a;\n}' });
    assert.equal(r.isError, false, r.text);
    assert.equal(fs.readFileSync(p('src/math.js'), 'utf8'), body.replace('a + b;', 'b + a;'));
    const [first, second] = r.text.split('\n');
    assert.match(first, /^Edited src\/math\.js: \+1 -1 lines; version [0-9a-f]{8}\.$/);
    assert.match(second, /^old_string matched loosely at lines 1-3: .*indentation.*\. Check the diff\.$/);
  });

  it('shows nothing of a file that may hold secrets when old_string does not fit it once', async () => {
    fs.writeFileSync(p('.env'), 'API_KEY=sk-live-123456\nDB_PASS=hunter2\nDB_PASS=hunter2\n');
    const ctx = await context(tree.root);
    for (const input of [
      { path: '.env', old_string: 'API_KEY=sk-live-000000', new_string: 'x' },
      { path: '.env', old_string: 'DB_PASS=hunter2', new_string: 'x' },
      // several stale lines: the answer that lists each differing line is not given either
      { path: '.env', old_string: 'API_KEY=sk-live-999999\nDB_PASS=hunter3\nDB_PASS=hunter4', new_string: 'x' },
      { path: '.env', edits: [{ old_string: 'API_KEY=sk-live-123456', new_string: 'A' }, { old_string: 'DB_PASS=hunter', new_string: 'x' }] },
    ]) {
      const r = await call(ctx, 'fs_edit', input);
      assert.equal(r.isError, true, r.text);
      assert.doesNotMatch(r.text, /sk-live-123456|hunter2|line \d|\d places/, r.text);
      assert.match(r.text, /old_string does not fit \.env in exactly one place, and nothing was changed\. \.env may hold secrets or lies outside the workspace, so nothing of its content is shown here\./);
    }
    assert.equal(fs.readFileSync(p('.env'), 'utf8'), 'API_KEY=sk-live-123456\nDB_PASS=hunter2\nDB_PASS=hunter2\n');
  });

  it('asks before matching against a secret the model has not read, so a right guess reads exactly like a wrong one', async () => {
    const secret = 'API_KEY=sk-live-123456\n';
    fs.writeFileSync(p('.env'), secret);
    const ctx = await context(tree.root, {}, cliApprover({ yes: false, allowOutside: false }));
    const right = await call(ctx, 'fs_edit', { path: '.env', old_string: 'API_KEY=sk', new_string: 'API_KEY=xx' });
    const wrong = await call(ctx, 'fs_edit', { path: '.env', old_string: 'API_KEY=zz', new_string: 'API_KEY=xx' });
    const same = await call(ctx, 'fs_edit', { path: '.env', old_string: 'API_KEY=sk-live-123456', new_string: 'API_KEY=sk-live-123456\n' });
    for (const r of [right, wrong, same]) {
      assert.equal(r.needsApproval, true, r.text);
      assert.equal(r.text, right.text);
    }
    assert.match(right.text, /`fs_edit` wants to edit `\.env`, which may hold secrets/);
    assert.doesNotMatch(right.text, /sk-live/);
    assert.equal(fs.readFileSync(p('.env'), 'utf8'), secret);
  });

  it('asks that question once: not after the model read the file with approval', async () => {
    fs.writeFileSync(p('.env'), 'API_KEY=sk-live-123456\n');
    const asked: Confirmation[] = [];
    // a change to a file that may hold secrets needs the second flag as well as --yes
    const yes = cliApprover({ yes: true, allowProtected: true, allowOutside: true });
    const counting: Approver = { ...yes, confirm: (q, s) => (asked.push(q), yes.confirm(q, s)), review: (pr, s) => yes.review(pr, s), showApplied: () => {} };
    const ctx = await context(tree.root, {}, counting);
    await call(ctx, 'fs_read', { path: '.env' });
    assert.equal(asked.length, 1);
    const r = await call(ctx, 'fs_edit', { path: '.env', old_string: 'sk-live', new_string: 'sk-test' });
    assert.equal(r.isError, false, r.text);
    assert.equal(asked.length, 1, 'no second question after an approved read');
    // a fresh context (no read yet) asks before it matches
    const fresh = await context(tree.root, {}, counting);
    await call(fresh, 'fs_edit', { path: '.env', old_string: 'sk-test', new_string: 'sk-prod' });
    assert.equal(asked.length, 2);
    assert.equal(english(asked[1].title), 'Allow Agent File Tools to edit a sensitive file?');
  });

  it('puts that question on the chat card before the call, and only while the model has not read the file', async () => {
    fs.writeFileSync(p('.env'), 'API_KEY=sk-live-123456\n');
    const ctx = await context(tree.root);
    const input = { path: '.env', old_string: 'sk-live', new_string: 'sk-test' };
    const before = await prepare(ctx, 'fs_edit', input);
    assert.equal(english(before!.confirmation!.title), 'Allow Agent File Tools to edit a sensitive file?');
    assert.equal((await prepare(ctx, 'fs_edit', { path: 'src/math.js', old_string: 'a', new_string: 'b' }))?.confirmation, undefined);
    await call(ctx, 'fs_read', { path: '.env' });
    assert.equal((await prepare(ctx, 'fs_edit', input))?.confirmation, undefined);
  });

  it('tells not found from several places, and changes nothing', async () => {
    const ctx = await context(tree.root);
    const none = await call(ctx, 'fs_edit', { path: 'src/math.js', old_string: 'return a * b;', new_string: 'x' });
    const many = await call(ctx, 'fs_edit', { path: 'twice.txt', old_string: 'x = 1', new_string: 'x = 3' });
    assert.ok(none.isError && many.isError);
    assert.notEqual(none.text.split('\n')[0].replace(/\d+/g, ''), many.text.split('\n')[0].replace(/\d+/g, ''));
    assert.match(many.text, /\b1\b.*\b3\b/);
    assert.equal(fs.readFileSync(p('twice.txt'), 'utf8'), 'x = 1\ny = 2\nx = 1\n');
    const all = await call(ctx, 'fs_edit', { path: 'twice.txt', old_string: 'x = 1', new_string: 'x = 3', replace_all: true });
    assert.equal(all.isError, false, all.text);
    assert.equal(fs.readFileSync(p('twice.txt'), 'utf8'), 'x = 3\ny = 2\nx = 3\n');
  });

  it('applies a list of edits in order, all or none', async () => {
    const ctx = await context(tree.root);
    const bad = await call(ctx, 'fs_edit', { path: 'src/math.js', edits: [{ old_string: 'a + b', new_string: 'a + b + 1' }, { old_string: 'not there', new_string: 'y' }] });
    assert.ok(bad.isError);
    assert.match(bad.text, /^Edit 2 of 2: /);
    assert.equal(fs.readFileSync(p('src/math.js'), 'utf8'), body);
    const good = await call(ctx, 'fs_edit', { path: 'src/math.js', edits: [{ old_string: 'a + b', new_string: 'a + b + 1' }, { old_string: 'a + b + 1', new_string: 'a + b + 2' }] });
    assert.equal(good.isError, false, good.text);
    assert.equal(fs.readFileSync(p('src/math.js'), 'utf8'), body.replace('a + b', 'a + b + 2'));
    assert.match(good.text, /^Edited src\/math\.js: \+1 -1 lines; version [0-9a-f]{8}\.\n<diff>\n/, 'exact edits add no line about how they matched');
  });

  it('names the edit of a list that matched loosely, on a line of its own', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_edit', { path: 'src/math.js', edits: [{ old_string: '  return a + b;', new_string: '  return b + a;' }, { old_string: 'return a - b;   ', new_string: 'return b - a;' }] });
    assert.equal(r.isError, false, r.text);
    const lines = r.text.split('\n');
    assert.match(lines[0], /^Edited src\/math\.js: \+2 -2 lines; version [0-9a-f]{8}\.$/);
    assert.match(lines[1], /^Edit 2 matched loosely at line 6: ignored trailing whitespace.*\. Check the diff\.$/);
    assert.equal(lines[2], '<diff>');
    assert.ok(!/edit 1|\.;|level /i.test(r.text), r.text);
  });

  it('creates a missing file from an empty old_string, and refuses one on an existing file', async () => {
    const ctx = await context(tree.root);
    const r = await call(ctx, 'fs_edit', { path: 'src/new.js', old_string: '', new_string: 'export {};\n' });
    assert.match(r.text, /^Created src\/new\.js: 1 line/);
    const again = await call(ctx, 'fs_edit', { path: 'src/new.js', old_string: '', new_string: 'x' });
    assert.match(again.text, /already exists.*fs_write/s);
    const missing = await call(ctx, 'fs_edit', { path: 'src/maths.js', old_string: 'a', new_string: 'b' });
    assert.match(missing.text, /^File not found: src\/maths\.js\nDid you mean one of these\?\n- src\/math\.js/);
  });

  it('refuses a tolerant match on a file that changed since it was read, not an exact one', async () => {
    const ctx = await context(tree.root);
    await call(ctx, 'fs_read', { path: 'src/math.js' });
    fs.writeFileSync(p('src/math.js'), body.replace('function sub', '// changed elsewhere\nfunction sub'));
    const loose = await call(ctx, 'fs_edit', { path: 'src/math.js', old_string: '    return a + b;', new_string: '    return b + a;' });
    assert.match(loose.text, /changed since you last read it .*Read the file again/s);
    const exact = await call(ctx, 'fs_edit', { path: 'src/math.js', old_string: '  return a + b;', new_string: '  return b + a;' });
    assert.equal(exact.isError, false, exact.text);
    const next = await call(ctx, 'fs_edit', { path: 'src/math.js', old_string: '    return a - b;', new_string: '    return b - a;' });
    assert.equal(next.isError, false, 'after its own edit the model knows the file: ' + next.text);
  });

  it('keeps every byte outside the edit, in every line ending and encoding', async () => {
    const ctx = await context(tree.root);
    const endings: [string, string][] = [['LF', '\n'], ['CRLF', '\r\n'], ['mixed', '']];
    const encodings: Encoding[] = ['utf-8', 'utf-8-bom', 'utf-16le'];
    for (const [name, nl] of endings) {
      for (const enc of encodings) {
        const text = nl ? ['one', 'two', 'three', ''].join(nl) : 'one\r\ntwo\nthree\r\n';
        const file = `m-${name}-${enc}.txt`;
        fs.writeFileSync(p(file), encodeText(text, enc));
        const r = await call(ctx, 'fs_edit', { path: file, old_string: 'two\n', new_string: 'TWO\nand a half\n' });
        assert.equal(r.isError, false, `${file}: ${r.text}`);
        const lineEnd = nl || '\n';
        assert.deepEqual(fs.readFileSync(p(file)), Buffer.from(encodeText(text.replace(`two${lineEnd}`, `TWO${lineEnd}and a half${lineEnd}`), enc)), file);
      }
    }
  });

  it('lands 20 concurrent edits of different lines of one file, none lost', async () => {
    fs.writeFileSync(p('many.txt'), Array.from({ length: 20 }, (_, i) => `line ${i}\n`).join(''));
    const ctx = await context(tree.root);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => call(ctx, 'fs_edit', { path: 'many.txt', old_string: `line ${i}\n`, new_string: `LINE ${i} done\n` })));
    for (const r of results) {
      assert.equal(r.isError, false, r.text);
    }
    assert.equal(fs.readFileSync(p('many.txt'), 'utf8'), Array.from({ length: 20 }, (_, i) => `LINE ${i} done\n`).join(''));
  });

  it('makes a second edit wait for the first one’s review, then match the accepted text', async () => {
    let release!: (r: Review) => void;
    const first = new Promise<Review>((r) => (release = r));
    let n = 0;
    const s = scriptedApprover((prop) => (++n === 1 ? first : { kind: 'accepted', texts: new Map([[prop.files[0].path, prop.files[0].newText!]]), edited: [] }));
    const ctx = await context(tree.root, {}, s.approver);
    const a = call(ctx, 'fs_edit', { path: 'src/math.js', old_string: 'return a + b;', new_string: 'return a + b; // first' });
    const b = call(ctx, 'fs_edit', { path: 'src/math.js', old_string: 'return a + b; // first', new_string: 'return a + b; // second' });
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(s.reviews.length, 1, 'the second waits for the lock');
    release({ kind: 'accepted', texts: new Map([[s.reviews[0].files[0].path, s.reviews[0].files[0].newText!]]), edited: [] });
    const [ra, rb] = await Promise.all([a, b]);
    assert.equal(ra.isError, false, ra.text);
    assert.equal(rb.isError, false, rb.text);
    assert.match(fs.readFileSync(p('src/math.js'), 'utf8'), /return a \+ b; \/\/ second/);
  });

  it('tells the approver once an accepted change is written, and not for one that failed to land', async () => {
    const s = scriptedApprover();
    const told: string[] = [];
    const ctx = await context(tree.root, {}, { ...s.approver, written: () => told.push(fs.readFileSync(p('src/math.js'), 'utf8')) });
    const r = await call(ctx, 'fs_edit', { path: 'src/math.js', old_string: 'return a + b;', new_string: 'return b + a;' });
    assert.equal(r.isError, false, r.text);
    assert.deepEqual(told, [body.replace('a + b;', 'b + a;')], 'told once, with the change on disk');
    // changed behind the review: refused as stale, nothing written, nothing told
    const stale = scriptedApprover((prop) => {
      fs.writeFileSync(p('src/math.js'), body);
      return { kind: 'accepted', texts: new Map([[prop.files[0].path, prop.files[0].newText!]]), edited: [] };
    });
    const ctx2 = await context(tree.root, {}, { ...stale.approver, written: () => told.push('again') });
    const r2 = await call(ctx2, 'fs_edit', { path: 'src/math.js', old_string: 'return b + a;', new_string: 'return a * b;' });
    assert.equal(r2.isError, true, r2.text);
    assert.equal(told.length, 1);
  });

  it('edits an unsaved buffer in place, keeping the user\u2019s unsaved lines', async () => {
    const ctx = await context(tree.root);
    ctx.ws.docs.set(p('src/math.js'), { text: body + '// unsaved note\n', isDirty: true, encoding: 'utf-8', eol: 'LF', version: 2 });
    const r = await call(ctx, 'fs_edit', { path: 'src/math.js', old_string: 'return a + b;', new_string: 'return a + b + c;' });
    assert.equal(r.isError, false, r.text);
    assert.equal(ctx.ws.docs.get(p('src/math.js'))?.text, body.replace('a + b;', 'a + b + c;') + '// unsaved note\n');
    assert.equal(fs.readFileSync(p('src/math.js'), 'utf8'), body);
  });
});
