import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { encodeText } from '../../src/core/text/encoding';
import { call, context, scriptedApprover, tempTree } from './helpers';

describe('fs_write', () => {
  let tree: { root: string; cleanup(): void };
  const p = (rel: string) => path.join(tree.root, rel);
  beforeEach(() => {
    tree = tempTree({ 'crlf.txt': 'a\r\nb\r\n', 'plain.txt': 'one\n', 'package.json': '{}\n' });
  });
  afterEach(() => tree.cleanup());

  it('creates a file and its folders after the review, and says what it did', async () => {
    const s = scriptedApprover();
    const ctx = await context(tree.root, {}, s.approver);
    const r = await call(ctx, 'fs_write', { path: 'src/deep/new.ts', content: 'export const x = 1;\n' });
    assert.equal(r.isError, false, r.text);
    assert.equal(fs.readFileSync(p('src/deep/new.ts'), 'utf8'), 'export const x = 1;\n');
    assert.match(r.text, /^Created src\/deep\/new\.ts: 1 line; version \w{8}\.$/m);
    assert.equal(s.reviews.length, 1);
    assert.deepEqual(s.reviews[0].files.map((f) => [f.display, f.action, f.oldText, f.newText]), [['src/deep/new.ts', 'create', undefined, 'export const x = 1;\n']]);
  });

  it('keeps a CRLF file CRLF, and its BOM and encoding, when the content is LF-only', async () => {
    fs.writeFileSync(p('bom.txt'), encodeText('x\r\n', 'utf-8-bom'));
    fs.writeFileSync(p('utf16.txt'), encodeText('x\n', 'utf-16le'));
    const ctx = await context(tree.root);
    await call(ctx, 'fs_read', { path: 'crlf.txt' });
    await call(ctx, 'fs_write', { path: 'crlf.txt', content: 'a\nB\nc\n' });
    assert.equal(fs.readFileSync(p('crlf.txt'), 'utf8'), 'a\r\nB\r\nc\r\n');
    await call(ctx, 'fs_read', { path: 'bom.txt' });
    await call(ctx, 'fs_write', { path: 'bom.txt', content: 'y\n' });
    assert.deepEqual(fs.readFileSync(p('bom.txt')), Buffer.from(encodeText('y\r\n', 'utf-8-bom')));
    await call(ctx, 'fs_read', { path: 'utf16.txt' });
    await call(ctx, 'fs_write', { path: 'utf16.txt', content: 'z\n' });
    assert.deepEqual(fs.readFileSync(p('utf16.txt')), Buffer.from(encodeText('z\n', 'utf-16le')));
  });

  it('writes no second byte order mark when the content starts with one', async () => {
    fs.writeFileSync(p('bom.txt'), encodeText('x\n', 'utf-8-bom'));
    fs.writeFileSync(p('utf16.txt'), encodeText('x\n', 'utf-16le'));
    const ctx = await context(tree.root);
    await call(ctx, 'fs_read', { path: 'bom.txt' });
    await call(ctx, 'fs_write', { path: 'bom.txt', content: '\uFEFFy\n' });
    assert.deepEqual(fs.readFileSync(p('bom.txt')), Buffer.from(encodeText('y\n', 'utf-8-bom')));
    await call(ctx, 'fs_read', { path: 'utf16.txt' });
    await call(ctx, 'fs_write', { path: 'utf16.txt', content: '\uFEFFz\n' });
    assert.deepEqual(fs.readFileSync(p('utf16.txt')), Buffer.from(encodeText('z\n', 'utf-16le')));
    // A file without one keeps having none.
    await call(ctx, 'fs_read', { path: 'plain.txt' });
    await call(ctx, 'fs_write', { path: 'plain.txt', content: '\uFEFFtwo\n' });
    assert.equal(fs.readFileSync(p('plain.txt'), 'utf8'), 'two\n');
  });

  it('returns the rejection and its reason, writing nothing', async () => {
    const s = scriptedApprover(() => ({ kind: 'rejected', reason: 'keep the old greeting' }));
    const wctx = await context(tree.root, {}, s.approver);
    await call(wctx, 'fs_read', { path: 'plain.txt' });
    const r = await call(wctx, 'fs_write', { path: 'plain.txt', content: 'two\n' });
    assert.equal(r.isError, true);
    assert.match(r.text, /The user rejected this change; nothing was written\. Their reason: keep the old greeting/);
    assert.equal(fs.readFileSync(p('plain.txt'), 'utf8'), 'one\n');
  });

  it('applies what the person left in the proposal, and tells the model how it differs', async () => {
    const s = scriptedApprover((prop) => ({ kind: 'accepted', texts: new Map([[prop.files[0].path, 'two, edited\n']]), edited: [prop.files[0].path] }));
    const wctx = await context(tree.root, {}, s.approver);
    await call(wctx, 'fs_read', { path: 'plain.txt' });
    const r = await call(wctx, 'fs_write', { path: 'plain.txt', content: 'two\n' });
    assert.equal(fs.readFileSync(p('plain.txt'), 'utf8'), 'two, edited\n');
    assert.match(r.text, /The user edited your proposal before accepting it[^]*<user-edits>\n--- a\/plain\.txt\n\+\+\+ b\/plain\.txt\n@@ -1,1 \+1,1 @@\n-two\n\+two, edited\n<\/user-edits>/);
  });

  it('refuses to overwrite a file that changed since the model read it', async () => {
    const ctx = await context(tree.root);
    await call(ctx, 'fs_read', { path: 'plain.txt' });
    fs.writeFileSync(p('plain.txt'), 'someone else\n');
    const r = await call(ctx, 'fs_write', { path: 'plain.txt', content: 'mine\n' });
    assert.match(r.text, /changed since you last read it .*Read it again/);
    assert.equal(fs.readFileSync(p('plain.txt'), 'utf8'), 'someone else\n');
  });

  it('never overwrites text that changed while the proposal waited', async () => {
    const s = scriptedApprover((prop) => {
      fs.writeFileSync(p('plain.txt'), 'newer\n');
      return { kind: 'accepted', texts: new Map([[prop.files[0].path, 'mine\n']]), edited: [] };
    });
    const wctx = await context(tree.root, {}, s.approver);
    await call(wctx, 'fs_read', { path: 'plain.txt' });
    const r = await call(wctx, 'fs_write', { path: 'plain.txt', content: 'mine\n' });
    assert.match(r.text, /changed while the change waited for approval .*newer text is kept/);
    assert.equal(fs.readFileSync(p('plain.txt'), 'utf8'), 'newer\n');
  });

  it('writes into an unsaved editor buffer without saving it', async () => {
    const ctx = await context(tree.root);
    ctx.ws.docs.set(p('plain.txt'), { text: 'unsaved work\n', isDirty: true, encoding: 'utf-8', eol: 'LF', version: 4 });
    await call(ctx, 'fs_read', { path: 'plain.txt' });
    const r = await call(ctx, 'fs_write', { path: 'plain.txt', content: 'replaced\n' });
    assert.equal(ctx.ws.docs.get(p('plain.txt'))?.text, 'replaced\n');
    assert.equal(fs.readFileSync(p('plain.txt'), 'utf8'), 'one\n');
    assert.match(r.text, /in the editor, not saved/);
  });

  it('asks by policy: protected and sensitive files always, others as the setting says', async () => {
    for (const policy of ['always', 'sensitiveOnly', 'never'] as const) {
      const s = scriptedApprover();
      const ctx = await context(tree.root, { approvalPolicy: policy }, s.approver);
      await call(ctx, 'fs_read', { path: 'plain.txt' });
      await call(ctx, 'fs_write', { path: 'plain.txt', content: `${policy}\n` });
      await call(ctx, 'fs_read', { path: 'package.json' });
      await call(ctx, 'fs_write', { path: 'package.json', content: `{"p":"${policy}"}\n` });
      await call(ctx, 'fs_read', { path: '.env' });
      await call(ctx, 'fs_write', { path: '.env', content: `X=${policy}\n` });
      const reviewed = s.reviews.map((r) => r.files[0].display);
      assert.deepEqual(reviewed, policy === 'always' ? ['plain.txt', 'package.json', '.env'] : ['package.json', '.env'], policy);
      assert.deepEqual(s.shown.map((r) => r.files[0].display), policy === 'sensitiveOnly' ? ['plain.txt'] : [], policy);
      assert.equal(fs.readFileSync(p('plain.txt'), 'utf8'), `${policy}\n`);
    }
  });

  it('never writes inside .git, and refuses in an untrusted workspace', async () => {
    fs.mkdirSync(p('.git'));
    const ctx = await context(tree.root);
    const g = await call(ctx, 'fs_write', { path: '.git/hooks/pre-commit', content: 'evil' });
    assert.match(g.text, /inside a \.git folder/);
    assert.equal(fs.existsSync(p('.git/hooks')), false);
    const nested = await call(ctx, 'fs_write', { path: 'vendor/lib/.git/config', content: 'evil' });
    assert.match(nested.text, /inside a \.git folder/);
    ctx.ws.trusted = false;
    const u = await call(ctx, 'fs_write', { path: 'plain.txt', content: 'x\n' });
    assert.match(u.text, /not trusted.*Manage Workspace Trust/);
    assert.equal(fs.readFileSync(p('plain.txt'), 'utf8'), 'one\n');
  });

  it('reports errors the change introduced, not those already there', async () => {
    const ctx = await context(tree.root);
    const file = p('plain.txt');
    ctx.ws.problems.set(file, [{ severity: 'error', line: 1, column: 1, message: 'old problem' }]);
    const realApply = ctx.ws.applyChanges.bind(ctx.ws);
    ctx.ws.applyChanges = async (changes, opts) => {
      const r = await realApply(changes, opts);
      ctx.ws.problems.set(file, [
        { severity: 'error', line: 3, column: 1, message: 'old problem' },
        { severity: 'error', line: 2, column: 5, message: "Cannot find name 'y'.", source: 'ts', code: '2304' },
        { severity: 'warning', line: 1, column: 1, message: 'unused' },
      ]);
      return r;
    };
    await call(ctx, 'fs_read', { path: 'plain.txt' });
    const r = await call(ctx, 'fs_write', { path: 'plain.txt', content: 'x\ny\n' });
    assert.match(r.text, /New errors in plain\.txt:\nL2:5: Cannot find name 'y'\. \[ts 2304\]$/);
    assert.doesNotMatch(r.text, /old problem|unused/);
  });
  describe('an existing file the model never read', () => {
    it('is not overwritten: the refusal gives its size and the read to make, never the version (echoed back, it would skip the read)', async () => {
      fs.writeFileSync(p('ten.txt'), Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
      const s = scriptedApprover();
      const ctx = await context(tree.root, {}, s.approver);
      const r = await call(ctx, 'fs_write', { path: 'ten.txt', content: 'all gone\n' });
      assert.equal(r.isError, true);
      assert.match(r.text, /^ten\.txt already exists \(10 lines\) and you have not read it, so nothing was written: overwriting it would lose what it holds\. Read it first, or pass the "version" an fs_read of it gave\.\nTry: fs_read \{"path":"ten\.txt"\}$/);
      assert.equal(s.reviews.length, 0, 'nothing is proposed to the person');
      assert.match(fs.readFileSync(p('ten.txt'), 'utf8'), /^line 1\n/);
      const version = /version (\w{8})/.exec((await call(await context(tree.root), 'fs_read', { path: 'ten.txt' })).text)![1];
      assert.ok(!r.text.includes(version));
    });

    it('is overwritten after a read, or with its version', async () => {
      const ctx = await context(tree.root);
      const read = await call(ctx, 'fs_read', { path: 'plain.txt' });
      const version = /version (\w{8})/.exec(read.text)![1];
      assert.equal((await call(ctx, 'fs_write', { path: 'plain.txt', content: 'two\n' })).isError, false);
      const fresh = await context(tree.root);
      const crlf = /version (\w{8})/.exec((await call(await context(tree.root), 'fs_read', { path: 'crlf.txt' })).text)![1];
      const r = await call(fresh, 'fs_write', { path: 'crlf.txt', content: 'x\n', version: crlf });
      assert.equal(r.isError, false, r.text);
      assert.equal(fs.readFileSync(p('crlf.txt'), 'utf8'), 'x\r\n');
      assert.notEqual(version, crlf);
    });

    it('a version that is not the file\'s is refused as stale, naming the one given only', async () => {
      const ctx = await context(tree.root);
      const r = await call(ctx, 'fs_write', { path: 'plain.txt', content: 'two\n', version: 'deadbeef' });
      assert.equal(r.isError, true);
      assert.match(r.text, /^plain\.txt changed since the version you gave \(version deadbeef\)\. Nothing was written/);
      assert.equal(fs.readFileSync(p('plain.txt'), 'utf8'), 'one\n');
    });

    it('a new file, or the content it already has, needs no read', async () => {
      const ctx = await context(tree.root);
      assert.equal((await call(ctx, 'fs_write', { path: 'brand-new.txt', content: 'n\n' })).isError, false);
      assert.match((await call(ctx, 'fs_write', { path: 'plain.txt', content: 'one\n' })).text, /^plain\.txt already has exactly this content; nothing was written/);
    });
  });
});
