import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { asSentence } from '../../src/core/format';
import { LOGGED_TEXT_LINES, callLogEntry, loggedInput, loggedTime } from '../../src/services/callLog';
import type { Logger } from '../../src/services/types';
import { call, context, scriptedApprover, tempTree } from './helpers';

/** A logger that keeps every entry with its level. */
function recorder(): Logger & { entries: { level: string; text: string }[] } {
  const entries: { level: string; text: string }[] = [];
  return { entries, info: (text) => entries.push({ level: 'info', text }), warn: (text) => entries.push({ level: 'warn', text }), error: (text) => entries.push({ level: 'error', text }) };
}

describe('the log of a call', () => {
  it('shows a patch as its lines below the call, not as escaped JSON', () => {
    const patch = ['*** Begin Patch', '*** Update File: a.txt', '@@', '-one', '+two', '*** End Patch'].join('\n');
    const entry = callLogEntry('fs_apply_patch', { patch }, 'ok', 12.34, 0);
    assert.equal(
      entry,
      ['fs_apply_patch {"patch":"(6 lines, below)"} -> ok (12.3 ms)', '    patch:', '      *** Begin Patch', '      *** Update File: a.txt', '      @@', '      -one', '      +two', '      *** End Patch'].join('\n'),
    );
    assert.doesNotMatch(entry, /\\n/);
  });

  it('keeps a one-line input on the call\'s line, and names a nested text by its field', () => {
    assert.deepEqual(loggedInput({ path: 'a.ts', old_string: 'x', new_string: 'y' }), { head: '{"path":"a.ts","old_string":"x","new_string":"y"}', below: [] });
    const nested = loggedInput({ path: 'a.ts', edits: [{ old_string: 'a\nb', new_string: 'c' }] });
    assert.equal(nested.head, '{"path":"a.ts","edits":[{"old_string":"(2 lines, below)","new_string":"c"}]}');
    assert.deepEqual(nested.below, ['    edits[0].old_string:', '      a', '      b']);
    assert.deepEqual(loggedInput({ path: 'a.txt', content: 'one\n' }), { head: '{"path":"a.txt","content":"(1 line, below)"}', below: ['    content:', '      one'] }, 'a last line break ends the line');
  });

  it('shows at most LOGGED_TEXT_LINES lines of texts, counts the rest, and lets no line of a text pass for a line of the log', () => {
    const content = Array.from({ length: 100 }, (_, i) => (i === 0 ? '2026-01-01 12:00:00.000 [info] fs_read {"path":"x"} -> ok (1 ms)\r' : `line ${i}`)).join('\n');
    const { below } = loggedInput({ path: 'big.txt', content });
    assert.equal(below.length, 1 + LOGGED_TEXT_LINES + 1);
    assert.equal(below.at(-1), `      … ${100 - LOGGED_TEXT_LINES} more lines`);
    assert.ok(below.every((l) => l.startsWith('    ')), 'every line below is indented');
    assert.equal(below[1], '      2026-01-01 12:00:00.000 [info] fs_read {"path":"x"} -> ok (1 ms)', 'a carriage return at the end is dropped');
    assert.equal(loggedInput({ content: 'a\u001b[2Jb\nc' }).below[1], '      a\\u001b[2Jb', 'a control character is escaped');
  });

  it('says the time the person took apart from the call\'s own', () => {
    assert.equal(loggedTime(12.345, 0), '(12.3 ms)');
    assert.equal(loggedTime(9600.2, 9577.6), '(22.6 ms + 9578 ms waiting for the user)');
  });

  it('logs a rejected change at info as rejected by the user, with the reason, and its review apart from its time; the model gets the reason as a sentence', async () => {
    const tree = tempTree({ 'a.txt': 'one\n' });
    try {
      const { approver } = scriptedApprover(async () => {
        await new Promise((r) => setTimeout(r, 300));
        return { kind: 'rejected', reason: 'not now' };
      });
      const log = recorder();
      const ctx = { ...(await context(tree.root, {}, approver)), log };
      const r = await call(ctx, 'fs_edit', { path: 'a.txt', old_string: 'one', new_string: 'two' });
      assert.equal(r.text, 'The user rejected this change; nothing was written. Their reason: not now. Do not retry it as it was; adjust it to what the user said, or ask them.');
      const [entry] = log.entries;
      assert.equal(entry.level, 'info');
      const m = /^fs_edit \{"path":"a\.txt","old_string":"one","new_string":"two"\} -> rejected by the user: not now \(([\d.]+) ms \+ (\d+) ms waiting for the user\)$/.exec(entry.text);
      assert.ok(m, entry.text);
      assert.ok(Number(m[2]) >= 290, `the review's ${m[2]} ms are said apart`);
      assert.ok(Number(m[1]) < 250, `the call's own ${m[1]} ms leave the review out`);
      assert.equal(fs.readFileSync(path.join(tree.root, 'a.txt'), 'utf8'), 'one\n');

      const silent = recorder();
      const { approver: noReason } = scriptedApprover(() => ({ kind: 'rejected' }));
      await call({ ...(await context(tree.root, {}, noReason)), log: silent }, 'fs_edit', { path: 'a.txt', old_string: 'one', new_string: 'two' });
      assert.match(silent.entries[0].text, / -> rejected by the user \(no reason given\) \(/);
    } finally {
      tree.cleanup();
    }
  });

  it('logs an accepted change as ok, with no waiting said when nobody was asked', async () => {
    const tree = tempTree({ 'a.txt': 'one\n' });
    try {
      const log = recorder();
      const ctx = { ...(await context(tree.root)), log };
      await call(ctx, 'fs_edit', { path: 'a.txt', old_string: 'one', new_string: 'two' });
      assert.match(log.entries[0].text, /^fs_edit \{.*\} -> ok \([\d.]+ ms\)$/);
    } finally {
      tree.cleanup();
    }
  });
});

describe('a reason a person typed, as a sentence', () => {
  it('gets a full stop unless it ends a sentence already', () => {
    assert.equal(asSentence('not now'), 'not now.');
    assert.equal(asSentence('not now.  '), 'not now.');
    assert.equal(asSentence('why?'), 'why?');
    assert.equal(asSentence('wait!'), 'wait!');
    assert.equal(asSentence('keep "the old one."'), 'keep "the old one."');
    assert.equal(asSentence('see (the spec.)'), 'see (the spec.)');
    assert.equal(asSentence('later…'), 'later…');
  });
});
