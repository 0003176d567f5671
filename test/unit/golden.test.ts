import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { call, context, rgOnPath, tempTree, withEngine } from './helpers';

/** The text with what depends on where the test runs made constant: the workspace path, and the cursor that fingerprints it. */
function portable(text: string, root: string): string {
  return text.split(root).join('<root>').replace(/"cursor":"[\w-]+"/g, '"cursor":"<cursor>"');
}

/**
 * The exact text each tool gives for its common cases (complete, continued, empty, error),
 * compared with test/fixtures/golden/<case>.txt, where the temporary workspace's path reads
 * `<root>`. Run with AFT_UPDATE_GOLDEN=1 to rewrite the files after a deliberate change,
 * then read the diff: it is what models will read.
 */
const GOLDEN_DIR = path.resolve(__dirname, '../../../test/fixtures/golden');
const UPDATE = process.env.AFT_UPDATE_GOLDEN === '1';

const CASES: { name: string; tool: string; input: Record<string, unknown> }[] = [
  { name: 'read-complete', tool: 'fs_read', input: { path: 'three-lines.txt' } },
  { name: 'read-continued', tool: 'fs_read', input: { path: 'src/app.ts', limit: 2 } },
  { name: 'read-last-page', tool: 'fs_read', input: { path: 'src/app.ts', offset: 3, limit: 2 } },
  { name: 'read-long-line', tool: 'fs_read', input: { path: 'min.js' } },
  { name: 'read-long-line-piece', tool: 'fs_read', input: { path: 'min.js', offset: 1, limit: 1, column: 2001 } },
  { name: 'read-indentation', tool: 'fs_read', input: { path: 'src/app.ts', mode: 'indentation', indentation: { anchor_line: 2 } } },
  { name: 'read-empty', tool: 'fs_read', input: { path: 'empty.txt' } },
  { name: 'read-folder', tool: 'fs_read', input: { path: 'src' } },
  { name: 'read-error-missing', tool: 'fs_read', input: { path: 'src/ap.ts' } },
  { name: 'read-error-offset', tool: 'fs_read', input: { path: 'three-lines.txt', offset: 9 } },
  { name: 'read-error-field', tool: 'fs_read', input: { path: 'three-lines.txt', line: 2 } },
  { name: 'list-complete', tool: 'fs_list', input: {} },
  { name: 'list-continued', tool: 'fs_list', input: { limit: 3 } },
  { name: 'list-folder', tool: 'fs_list', input: { path: 'src', depth: 1 } },
  { name: 'list-empty', tool: 'fs_list', input: { path: 'void' } },
  { name: 'list-error-missing', tool: 'fs_list', input: { path: 'sr' } },
  { name: 'glob-complete', tool: 'fs_glob', input: { pattern: '*.ts' } },
  { name: 'glob-continued', tool: 'fs_glob', input: { pattern: '*', limit: 2 } },
  { name: 'glob-empty', tool: 'fs_glob', input: { pattern: '*.py' } },
  { name: 'glob-error-offset', tool: 'fs_glob', input: { pattern: '*.ts', offset: 50 } },
  { name: 'grep-complete', tool: 'fs_grep', input: { pattern: 'alpha' } },
  { name: 'grep-continued', tool: 'fs_grep', input: { pattern: 'a', path: 'src', limit: 2 } },
  { name: 'grep-files', tool: 'fs_grep', input: { pattern: 'a', output: 'files' } },
  { name: 'grep-count', tool: 'fs_grep', input: { pattern: 'a', output: 'count' } },
  { name: 'grep-empty', tool: 'fs_grep', input: { pattern: 'zzzz' } },
  { name: 'grep-empty-smart-case', tool: 'fs_grep', input: { pattern: 'Alpha', path: 'src' } },
  { name: 'grep-error-regex', tool: 'fs_grep', input: { pattern: 'a(' } },
];

describe('golden output of every tool', () => {
  let tree: ReturnType<typeof tempTree>;
  before(() => {
    tree = tempTree({
      'three-lines.txt': 'alpha\nbeta\ngamma\n',
      'empty.txt': '',
      'min.js': `${'ab'.repeat(1500)}\n`,
      'src/app.ts': 'export function app() {\n  return alpha;\n}\nconst beta = 2;\n',
      'src/lib.ts': 'export const alpha = 1;\n',
      'node_modules/dep/index.js': 'alpha\n',
      '.gitignore': 'node_modules/\n',
    });
    fs.mkdirSync(path.join(tree.root, 'void'));
  });
  after(() => tree.cleanup());

  for (const c of CASES) {
    it(`${c.name}: ${c.tool} ${JSON.stringify(c.input)}`, async () => {
      const text = portable((await withEngine(rgOnPath(), async () => call(await context(tree.root), c.tool, c.input))).text, tree.root);
      const file = path.join(GOLDEN_DIR, `${c.name}.txt`);
      if (UPDATE) {
        fs.mkdirSync(GOLDEN_DIR, { recursive: true });
        fs.writeFileSync(file, `${text}\n`);
      }
      assert.equal(`${text}\n`, fs.readFileSync(file, 'utf8'), `${c.name} differs from ${file}`);
      if ((c.tool === 'fs_glob' || c.tool === 'fs_grep') && !c.name.includes('error')) {
        const js = portable((await withEngine('none', async () => call(await context(tree.root), c.tool, c.input))).text, tree.root);
        assert.equal(js, text, 'the JavaScript search says the same');
      }
    });
  }

  it('has no golden file that no case writes', () => {
    const names = new Set(CASES.map((c) => `${c.name}.txt`));
    assert.deepEqual(
      fs.readdirSync(GOLDEN_DIR).filter((f) => !names.has(f)),
      [],
    );
  });
});
