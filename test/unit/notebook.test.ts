import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { ToolError } from '../../src/core/errors';
import { MAX_READ_BYTES } from '../../src/core/limits';
import { ERROR_MIME, STDOUT_MIME, parseNotebook, pickOutputItems, renderNotebook, type NotebookCell } from '../../src/core/read/notebook';

const PNG_BASE64 = Buffer.alloc(3000, 7).toString('base64');

/** A notebook as Jupyter writes it: multiline strings as arrays, base64 images, ANSI tracebacks. */
const NOTEBOOK = {
  nbformat: 4,
  nbformat_minor: 5,
  metadata: { kernelspec: { name: 'python3', language: 'python' }, language_info: { name: 'python', version: '3.11' } },
  cells: [
    { cell_type: 'markdown', metadata: {}, source: ['# Sales\n', '\n', 'Loads the data.'] },
    {
      cell_type: 'code',
      execution_count: 3,
      metadata: {},
      source: ['import pandas as pd\n', 'df = pd.read_csv("sales.csv")\n', 'print(len(df))'],
      outputs: [
        { output_type: 'stream', name: 'stdout', text: ['loading\r 50%\r100%\n', '42\n'] },
        {
          output_type: 'display_data',
          metadata: {},
          data: { 'image/png': PNG_BASE64 + '\n', 'text/plain': ['<Figure size 640x480 with 1 Axes>'] },
        },
        {
          output_type: 'execute_result',
          execution_count: 3,
          metadata: {},
          data: { 'text/html': ['<table>', '</table>'], 'text/plain': ['   a  b\n', '0  1  2'] },
        },
      ],
    },
    {
      cell_type: 'code',
      execution_count: 4,
      metadata: {},
      source: 'df.boom()',
      outputs: [
        {
          output_type: 'error',
          ename: 'AttributeError',
          evalue: "'DataFrame' object has no attribute 'boom'",
          traceback: ['\u001b[0;31m---------------------------------------------------------------------------\u001b[0m', '\u001b[0;31mAttributeError\u001b[0m: boom'],
        },
      ],
    },
    { cell_type: 'code', execution_count: null, metadata: { vscode: { languageId: 'sql' } }, source: [], outputs: [] },
    { cell_type: 'raw', metadata: {}, source: 'raw text' },
  ],
};

function lines(text: string): string[] {
  return text.split('\n');
}

describe('notebooks', () => {
  it('parses cells, kinds, languages, sources and outputs', () => {
    const nb = parseNotebook(JSON.stringify(NOTEBOOK));
    assert.equal(nb.language, 'python');
    assert.equal(nb.nbformat, '4.5');
    assert.deepEqual(
      nb.cells.map((c) => [c.kind, c.language, c.executionCount]),
      [
        ['markdown', 'markdown', undefined],
        ['code', 'python', 3],
        ['code', 'python', 4],
        ['code', 'sql', undefined],
        ['raw', 'raw', undefined],
      ],
    );
    assert.equal(nb.cells[1].source, 'import pandas as pd\ndf = pd.read_csv("sales.csv")\nprint(len(df))');
    assert.deepEqual(nb.cells[1].outputs, [
      { mime: STDOUT_MIME, text: 'loading\r 50%\r100%\n42\n' },
      { mime: 'image/png', bytes: 3000 },
      { mime: 'text/plain', text: '<Figure size 640x480 with 1 Axes>' },
      { mime: 'text/plain', text: '   a  b\n0  1  2' },
    ]);
    assert.equal(nb.cells[2].outputs?.[0].mime, ERROR_MIME);
  });

  it('renders the envelope: numbered source per cell, outputs summarised, no JSON', () => {
    const page = renderNotebook(parseNotebook(JSON.stringify(NOTEBOOK)), { displayPath: 'sales.ipynb', version: '0badc0de' });
    assert.deepEqual(lines(page.text), [
      '<path>sales.ipynb</path>',
      '<type>notebook</type>',
      '<meta>cells 1-5 of 5, python, nbformat 4.5, version 0badc0de</meta>',
      '<content>',
      '<cell index="1" kind="markdown" language="markdown">',
      'L1: # Sales',
      'L2: ',
      'L3: Loads the data.',
      '</cell>',
      '<cell index="2" kind="code" language="python" execution_count="3">',
      'L1: import pandas as pd',
      'L2: df = pd.read_csv("sales.csv")',
      'L3: print(len(df))',
      '<outputs>',
      '[stdout]',
      '> 100%',
      '> 42',
      '[image/png output, 2.9 KiB]',
      '[text/plain]',
      '> <Figure size 640x480 with 1 Axes>',
      '[text/plain]',
      '>    a  b',
      '> 0  1  2',
      '</outputs>',
      '</cell>',
      '<cell index="3" kind="code" language="python" execution_count="4">',
      'L1: df.boom()',
      '<outputs>',
      '[error]',
      "> AttributeError: 'DataFrame' object has no attribute 'boom'",
      '> ---------------------------------------------------------------------------',
      '> AttributeError: boom',
      '</outputs>',
      '</cell>',
      '<cell index="4" kind="code" language="sql">',
      '(empty cell)',
      '</cell>',
      '<cell index="5" kind="raw" language="raw">',
      'L1: raw text',
      '</cell>',
      '</content>',
      'End of file.',
    ]);
    assert.equal(page.nextOffset, undefined);
    assert.ok(!page.text.includes(PNG_BASE64.slice(0, 20)));
    assert.ok(!page.text.includes('"cell_type"'));
  });

  it('pages over cells with a continuation', () => {
    const nb = parseNotebook(JSON.stringify(NOTEBOOK));
    const page = renderNotebook(nb, { displayPath: 'sales.ipynb', offset: 2, limit: 2 });
    assert.deepEqual([page.first, page.last, page.nextOffset, page.stop], [2, 3, 4, 'limit']);
    assert.match(page.text, /<meta>cells 2-3 of 5, /);
    assert.ok(page.text.endsWith('\n</content>\nContinue with: fs_read {"path":"sales.ipynb","offset":4}'));
    const rest = renderNotebook(nb, { displayPath: 'sales.ipynb', offset: 4 });
    assert.deepEqual([rest.first, rest.last, rest.nextOffset], [4, 5, undefined]);
  });

  it('stops at the byte cap between cells, and cuts a single huge cell', () => {
    const big = (n: number): NotebookCell => ({ kind: 'code', language: 'python', source: Array.from({ length: n }, (_, i) => `x${i} = ${'1'.repeat(60)}`).join('\n') });
    const page = renderNotebook([big(400), big(400), big(400)], { displayPath: 'big.ipynb' });
    assert.equal(page.stop, 'bytes');
    assert.deepEqual([page.first, page.last, page.nextOffset], [1, 1, 2]);
    assert.ok(Buffer.byteLength(page.text) < MAX_READ_BYTES + 1024);
    const huge = renderNotebook([big(5000)], { displayPath: 'huge.ipynb' });
    assert.ok(Buffer.byteLength(huge.text) <= MAX_READ_BYTES + 1024);
    assert.match(huge.text, /\n… \[cell cut: [\d,]+ more lines of this cell and its outputs not shown, over the 50 KiB output cap; search them with fs_grep\]\n<\/cell>\n/);
    assert.equal(huge.nextOffset, undefined);
  });

  it('cuts long outputs to their first and last lines with a count, and long lines', () => {
    const text = Array.from({ length: 100 }, (_, i) => `row ${i + 1}`).join('\n') + '\n' + 'w'.repeat(800);
    const page = renderNotebook([{ kind: 'code', language: 'python', source: 'run()', outputs: [{ mime: STDOUT_MIME, text }] }], { displayPath: 'a.ipynb' });
    const body = lines(page.text);
    const start = body.indexOf('[stdout]');
    assert.deepEqual(body.slice(start + 1, start + 7), ['> row 1', '> row 2', '> row 3', '> row 4', '> row 5', '… 91 lines not shown (101 in all)']);
    assert.deepEqual(body.slice(start + 7, start + 11), ['> row 97', '> row 98', '> row 99', '> row 100']);
    assert.equal(body[start + 11], `> ${'w'.repeat(500)}… [800 characters]`);
  });

  it('notes outputs it does not show as text, with their size', () => {
    const cells: NotebookCell[] = [
      {
        kind: 'code',
        language: 'python',
        source: 'w',
        outputs: [
          { mime: 'application/vnd.jupyter.widget-view+json', text: '{"model_id":"abc"}' },
          { mime: 'text/html', text: '<b>hi</b>' },
          { mime: 'image/jpeg', bytes: 2048 },
          { mime: ERROR_MIME, text: 'not json' },
        ],
      },
    ];
    const text = renderNotebook(cells, { displayPath: 'w.ipynb', dirty: true }).text;
    assert.match(text, /\n\[application\/vnd\.jupyter\.widget-view\+json output, 18 characters\]\n\[text\/html output, 9 characters\]\n\[image\/jpeg output, 2\.0 KiB\]\n\[error\]\n> Error: not json\n/);
    assert.match(text, /, unsaved changes in editor<\/meta>/);
  });

  it('keeps images and readable text of one output, drops HTML next to plain text', () => {
    assert.deepEqual(
      pickOutputItems([
        { mime: 'text/html', text: '<b>' },
        { mime: 'image/png', bytes: 10 },
        { mime: 'text/plain', text: 'x' },
        { mime: 'application/javascript', text: 'y' },
      ]),
      [
        { mime: 'image/png', bytes: 10 },
        { mime: 'text/plain', text: 'x' },
      ],
    );
    assert.deepEqual(pickOutputItems([{ mime: 'text/html', text: '<b>' }]), [{ mime: 'text/html', text: '<b>' }]);
  });

  it('escapes attribute values and numbers each cell from its own line 1', () => {
    const text = renderNotebook([{ kind: 'code', language: 'c"<>', source: 'a\nb' }, { kind: 'code', language: 'r', source: 'c' }], { displayPath: 'x.ipynb' }).text;
    assert.match(text, /language="c&#34;&#60;&#62;"/);
    assert.match(text, /L1: a\nL2: b\n<\/cell>\n<cell index="2" kind="code" language="r">\nL1: c\n/);
  });

  it('an empty notebook is valid and says so; an offset past the end is an error', () => {
    const page = renderNotebook(parseNotebook('{"nbformat":4,"nbformat_minor":2,"metadata":{},"cells":[]}'), { displayPath: 'e.ipynb' });
    assert.match(page.text, /<meta>no cells, nbformat 4\.2<\/meta>\n<content>\n<\/content>\nEnd of file\.$/);
    assert.throws(
      () => renderNotebook(parseNotebook(JSON.stringify(NOTEBOOK)), { displayPath: 'sales.ipynb', offset: 6 }),
      (e: unknown) => e instanceof ToolError && e.code === 'offset-past-end' && e.message === 'offset=6 is past the end of sales.ipynb: it has 5 cells. Use an offset from 1 to 5.',
    );
    assert.throws(() => renderNotebook([], { displayPath: 'e.ipynb', offset: 0 }), (e: unknown) => e instanceof ToolError && e.code === 'invalid-input');
  });

  it('refuses invalid JSON and non-notebooks, pointing to fs_grep', () => {
    const refuses = (json: string, why: RegExp) =>
      assert.throws(
        () => parseNotebook(json, 'nb.ipynb'),
        (e: unknown) => e instanceof ToolError && why.test(e.message) && /^Cannot read nb\.ipynb as a notebook: /.test(e.message) && /fs_grep/.test(e.message),
      );
    refuses('{"cells": [', /it is not valid JSON/);
    refuses('[]', /it is not a JSON object/);
    refuses('{"nbformat": 3, "worksheets": []}', /nbformat 3, and only nbformat 4/);
    refuses('{"nbformat": 4}', /no "cells" list/);
    refuses('{"nbformat": 4, "cells": [1]}', /cell 1 is not a JSON object/);
  });

  it('never shows more cells than asked, and the continuation covers the rest', () => {
    const cellArb = fc.record({
      kind: fc.constantFrom('code' as const, 'markdown' as const, 'raw' as const),
      language: fc.constantFrom('python', 'markdown'),
      source: fc.string({ maxLength: 300 }),
    });
    fc.assert(
      fc.property(fc.array(cellArb, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 10 }), (cells, limit) => {
        let offset = 1;
        let seen = 0;
        for (;;) {
          const page = renderNotebook(cells, { displayPath: 'p.ipynb', offset, limit });
          assert.ok(page.first === offset && page.last !== undefined && page.last - page.first + 1 <= limit);
          seen += page.last - page.first + 1;
          if (page.nextOffset === undefined) {
            break;
          }
          assert.equal(page.nextOffset, page.last + 1);
          offset = page.nextOffset;
        }
        assert.equal(seen, cells.length);
      }),
    );
  });
});
