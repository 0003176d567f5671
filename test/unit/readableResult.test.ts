import * as assert from 'node:assert/strict';
import { readableResult } from '../../src/commands/readableResult';

describe('a result as a person reads it in Run a Tool', () => {
  it('heads a read with the path and what the read says of it, numbers its lines in a gutter, and keeps the call that continues', () => {
    const model = [
      '<path>src/greet.ts</path>',
      '<type>file</type>',
      '<meta>lines 9-10 of 12, utf-8, LF, version 12d4cb81</meta>',
      '<content>',
      'L9: export function greet(name: string): string {',
      'L10: ',
      '</content>',
      'Continue with: fs_read {"path":"src/greet.ts","offset":11}',
    ].join('\n');
    assert.equal(
      readableResult(model),
      ['src/greet.ts · lines 9-10 of 12, utf-8, LF, version 12d4cb81', '', ' 9 │ export function greet(name: string): string {', '10 │ ', '', 'Continue with: fs_read {"path":"src/greet.ts","offset":11}'].join('\n'),
    );
  });

  it('sets a diff apart between blank lines, without its tags, its lines as they are', () => {
    const model = ['Edited docs/design.md: +1 -1 lines; version 7ec0694a.', '<diff>', '--- a/docs/design.md', '+++ b/docs/design.md', '@@ -1,2 +1,2 @@', '-# Design', '+# Design notes', ' ', '</diff>', 'No new errors.'].join('\n');
    assert.equal(readableResult(model), ['Edited docs/design.md: +1 -1 lines; version 7ec0694a.', '', '--- a/docs/design.md', '+++ b/docs/design.md', '@@ -1,2 +1,2 @@', '-# Design', '+# Design notes', ' ', '', 'No new errors.'].join('\n'));
  });

  it('takes no line of a file for a tag: numbered lines and diff lines stay as they are', () => {
    const model = ['<path>a.md</path>', '<type>file</type>', '<meta>lines 1-2 of 2</meta>', '<content>', 'L1: </content>', 'L2: <diff>', '</content>', 'Edited a.md', '<diff>', ' </diff>', '-<path>x</path>', '</diff>'].join('\n');
    assert.equal(readableResult(model), ['a.md · lines 1-2 of 2', '', '1 │ </content>', '2 │ <diff>', '', 'Edited a.md', '', ' </diff>', '-<path>x</path>'].join('\n'));
  });

  it('heads notebook cells and instruction files with a rule, and drops the tags that only frame', () => {
    const model = [
      '<path>n.ipynb</path>',
      '<type>notebook</type>',
      '<meta>cells 1-1 of 1</meta>',
      '<content>',
      '<cell index="1" kind="code" language="python" execution_count="3">',
      'L1: print(1)',
      '<outputs>',
      '1',
      '</outputs>',
      '</cell>',
      '</content>',
      'End of file.',
      '<system-reminder>',
      'Instructions for n.ipynb from AGENTS.md and CLAUDE.md files in its folders.',
      '<instructions path="AGENTS.md">',
      'Use tabs.',
      '</instructions>',
      '</system-reminder>',
    ].join('\n');
    assert.equal(
      readableResult(model),
      [
        'n.ipynb · cells 1-1 of 1',
        '',
        '── cell 1 (code, python, run 3) ──',
        '1 │ print(1)',
        'outputs:',
        '1',
        '',
        'End of file.',
        '',
        '── instructions from AGENTS.md and CLAUDE.md files, added for the model ──',
        'Instructions for n.ipynb from AGENTS.md and CLAUDE.md files in its folders.',
        '── AGENTS.md ──',
        'Use tabs.',
      ].join('\n'),
    );
  });

  it('keeps an error or a rejection as it is: the editor wraps it', () => {
    const text = 'The user rejected this change; nothing was written. Their reason: not now. Do not retry it as it was; adjust it to what the user said, or ask them.';
    assert.equal(readableResult(text), text);
  });

  it('heads the page with its path wherever the additions put it, and shows an instruction file\'s own lines as they are', () => {
    const model = [
      '<system-reminder>',
      'Instructions for a.ts from AGENTS.md and CLAUDE.md files in its folders.',
      '<instructions path="AGENTS.md">',
      '<path>not a tag here</path>',
      '<diff>',
      '</instructions>',
      '</system-reminder>',
      '<path>a.ts</path>',
      '<type>file</type>',
      '<meta>lines 1-1 of 1</meta>',
      '<content>',
      'L1: x',
      '</content>',
    ].join('\n');
    assert.equal(
      readableResult(model),
      [
        '── instructions from AGENTS.md and CLAUDE.md files, added for the model ──',
        'Instructions for a.ts from AGENTS.md and CLAUDE.md files in its folders.',
        '── AGENTS.md ──',
        '<path>not a tag here</path>',
        '<diff>',
        '',
        'a.ts · lines 1-1 of 1',
        '',
        '1 │ x',
      ].join('\n'),
    );
  });
});
