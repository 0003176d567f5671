import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliApprover } from '../../src/services/cliApprover';
import { call, context, rgOnPath, tempTree, withEngine } from './helpers';

/** The text with what depends on where the test runs made constant: the workspace path, and the cursor that fingerprints it. */
function portable(text: string, root: string): string {
  return text.split(root).join('<root>').replace(/"cursor":"[\w-]+"/g, '"cursor":"<cursor>"');
}

/**
 * The exact text each tool gives for its common cases (complete, continued, empty, error;
 * for the tools that change files: exact, loose, refused, stale, waiting for approval),
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
  { name: 'glob-last-page', tool: 'fs_glob', input: { pattern: '*', limit: 2, offset: 5 } },
  { name: 'grep-error-fields', tool: 'fs_grep', input: { pattern: 'a', type: 'ts', mode: 1, sort: 'path', case_sensitiv: true } },
];

/** What a step before the call does to the fresh tree or to the session (a read, a change behind the model's back). */
type Setup = (root: string, ctx: Awaited<ReturnType<typeof context>>) => Promise<void>;

const readThenChange = (file: string, text: string): Setup => async (root, ctx) => {
  await call(ctx, 'fs_read', { path: file });
  fs.writeFileSync(path.join(root, file), text);
};

const readFirst = (file: string): Setup => async (_root, ctx) => {
  await call(ctx, 'fs_read', { path: file });
};

/** The tools that change files, each on a fresh copy of the tree: success exact and loose, refusals, and a change that waits for approval. */
const CHANGE_CASES: { name: string; tool: string; input: Record<string, unknown>; setup?: Setup; approve?: boolean }[] = [
  { name: 'edit-exact', tool: 'fs_edit', input: { path: 'src/app.ts', old_string: '  return alpha;', new_string: '  return alpha + 1;' } },
  { name: 'edit-loose', tool: 'fs_edit', input: { path: 'src/app.ts', old_string: 'return alpha;  ', new_string: 'return alpha + 1;' } },
  { name: 'edit-list', tool: 'fs_edit', input: { path: 'three-lines.txt', edits: [{ old_string: 'alpha', new_string: 'ALPHA' }, { old_string: 'gamma  ', new_string: 'GAMMA' }] } },
  { name: 'edit-not-found', tool: 'fs_edit', input: { path: 'src/app.ts', old_string: '  return beta;', new_string: '  return 1;' } },
  { name: 'edit-ambiguous', tool: 'fs_edit', input: { path: 'twice.txt', old_string: 'x = 1', new_string: 'x = 2' } },
  { name: 'edit-stale', tool: 'fs_edit', input: { path: 'src/app.ts', old_string: 'return alpha;  ', new_string: 'return 1;' }, setup: readThenChange('src/app.ts', 'export function app() {\n  return alpha;\n}\nconst beta = 3;\n') },
  { name: 'edit-create', tool: 'fs_edit', input: { path: 'src/new.ts', old_string: '', new_string: 'export const n = 1;\n' } },
  { name: 'edit-unchanged', tool: 'fs_edit', input: { path: 'three-lines.txt', old_string: 'beta', new_string: 'beta', replace_all: true } },
  { name: 'edit-refused', tool: 'fs_edit', input: { path: '.git/config', old_string: 'a', new_string: 'b' } },
  { name: 'edit-needs-approval', tool: 'fs_edit', input: { path: 'src/app.ts', old_string: '  return alpha;', new_string: '  return alpha + 1;' }, approve: false },
  { name: 'write-create', tool: 'fs_write', input: { path: 'docs/new.md', content: '# New\n' } },
  { name: 'write-overwrite', tool: 'fs_write', input: { path: 'three-lines.txt', content: 'alpha\nBETA\ngamma\ndelta\n' }, setup: readFirst('three-lines.txt') },
  { name: 'write-unread', tool: 'fs_write', input: { path: 'three-lines.txt', content: 'x\n' } },
  { name: 'write-same', tool: 'fs_write', input: { path: 'three-lines.txt', content: 'alpha\nbeta\ngamma\n' } },
  { name: 'write-stale', tool: 'fs_write', input: { path: 'three-lines.txt', content: 'x\n' }, setup: readThenChange('three-lines.txt', 'alpha\n') },
  { name: 'patch-success', tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Update File: src/app.ts\n@@ export function app() {\n-  return alpha;\n+  return beta;\n }\n*** Add File: docs/new.md\n+# New\n*** Delete File: empty.txt\n*** Update File: src/lib.ts\n*** Move to: src/base.ts\n@@\n-export const alpha = 1;\n+export const alpha = 2;\n*** End Patch' } },
  { name: 'patch-loose', tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Update File: src/app.ts\n@@\n-  return alpha;   \n+  return beta;\n*** End Patch' } },
  { name: 'patch-not-found', tool: 'fs_apply_patch', input: { patch: '*** Begin Patch\n*** Update File: src/app.ts\n@@\n-  return gamma;\n+  return beta;\n*** End Patch' } },
  { name: 'patch-malformed', tool: 'fs_apply_patch', input: { patch: 'Update File: src/app.ts' } },
];

const TREE: Record<string, string> = {
  'three-lines.txt': 'alpha\nbeta\ngamma\n',
  'empty.txt': '',
  'min.js': `${'ab'.repeat(1500)}\n`,
  'src/app.ts': 'export function app() {\n  return alpha;\n}\nconst beta = 2;\n',
  'src/lib.ts': 'export const alpha = 1;\n',
  'node_modules/dep/index.js': 'alpha\n',
  '.gitignore': 'node_modules/\n',
};

function check(name: string, text: string): void {
  const file = path.join(GOLDEN_DIR, `${name}.txt`);
  if (UPDATE) {
    fs.mkdirSync(GOLDEN_DIR, { recursive: true });
    fs.writeFileSync(file, `${text}\n`);
  }
  assert.equal(`${text}\n`, fs.readFileSync(file, 'utf8'), `${name} differs from ${file}`);
}

describe('golden output of every tool', () => {
  let tree: ReturnType<typeof tempTree>;
  before(() => {
    tree = tempTree(TREE);
    fs.mkdirSync(path.join(tree.root, 'void'));
  });
  after(() => tree.cleanup());

  for (const c of CASES) {
    it(`${c.name}: ${c.tool} ${JSON.stringify(c.input)}`, async () => {
      const text = portable((await withEngine(rgOnPath(), async () => call(await context(tree.root), c.tool, c.input))).text, tree.root);
      check(c.name, text);
      if ((c.tool === 'fs_glob' || c.tool === 'fs_grep') && !c.name.includes('error')) {
        const js = portable((await withEngine('none', async () => call(await context(tree.root), c.tool, c.input))).text, tree.root);
        assert.equal(js, text, 'the JavaScript search says the same');
      }
    });
  }

  for (const c of CHANGE_CASES) {
    it(`${c.name}: ${c.tool} ${JSON.stringify(c.input)}`, async () => {
      const t = tempTree({ ...TREE, 'twice.txt': 'x = 1\ny = 2\nx = 1\n', '.git/config': '[core]\n' });
      try {
        const ctx = await context(t.root, {}, cliApprover({ yes: c.approve !== false, allowOutside: false }));
        await c.setup?.(t.root, ctx);
        const text = portable((await call(ctx, c.tool, c.input)).text, t.root);
        check(c.name, text);
      } finally {
        t.cleanup();
      }
    });
  }

  it('has no golden file that no case writes', () => {
    const names = new Set([...CASES, ...CHANGE_CASES].map((c) => `${c.name}.txt`));
    assert.deepEqual(
      fs.readdirSync(GOLDEN_DIR).filter((f) => !names.has(f)),
      [],
    );
  });
});
