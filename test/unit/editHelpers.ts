import * as assert from 'node:assert/strict';
import { applyReplacements, findEdit, type FindResult, type FoundEdit, type MatchLevel } from '../../src/core/edit';

/** The checks the edit-cascade tests share: one edit run on a text, and what it must give. */

export function code(...lines: string[]): string {
  return lines.join('\n') + '\n';
}

/** Runs one edit and returns the result and, when it matched, the new text. */
export function run(content: string, oldString: string, newString: string, replaceAll = false): { r: FindResult; text?: string } {
  const r = findEdit(content, { oldString, newString, replaceAll });
  return { r, text: r.ok ? applyReplacements(content, r.replacements) : undefined };
}

/** Asserts the edit matched at `level` and gives `expected`. */
export function matches(content: string, oldString: string, newString: string, level: MatchLevel, expected: string, replaceAll = false): FoundEdit {
  const { r, text } = run(content, oldString, newString, replaceAll);
  assert.ok(r.ok, `expected a match, got ${JSON.stringify(r)}`);
  assert.equal(r.level, level, `level (adjustments: ${r.adjustments.join('; ')})`);
  assert.equal(r.exact, level === 'exact');
  assert.equal(text, expected);
  return r;
}

/** Asserts the edit failed for `reason`. */
export function fails(content: string, oldString: string, newString: string, reason: string, replaceAll = false): Exclude<FindResult, FoundEdit> {
  const { r } = run(content, oldString, newString, replaceAll);
  assert.equal(r.ok, false, `expected a failure, got ${JSON.stringify(r)}`);
  assert.equal((r as { reason: string }).reason, reason, JSON.stringify(r));
  return r as Exclude<FindResult, FoundEdit>;
}

/** Asserts the edit found nothing. */
export function notFound(content: string, oldString: string, newString: string, replaceAll = false): Extract<FindResult, { reason: 'not-found' }> {
  return fails(content, oldString, newString, 'not-found', replaceAll) as Extract<FindResult, { reason: 'not-found' }>;
}

/** Asserts `oldString` fits several places, at these lines. */
export function ambiguous(content: string, oldString: string, lines: number[], replaceAll = false): Extract<FindResult, { reason: 'ambiguous' }> {
  const a = fails(content, oldString, oldString + 'X', 'ambiguous', replaceAll) as Extract<FindResult, { reason: 'ambiguous' }>;
  assert.deepEqual(a.lines, lines);
  return a;
}
