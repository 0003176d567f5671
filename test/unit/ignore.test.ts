import * as assert from 'node:assert/strict';
import { expandBraces } from '../../src/core/glob/braces';
import { editorGlobToLines, isPortableGlob, rebaseLines } from '../../src/core/ignore/globs';
import { IgnorePolicy, PathChecker } from '../../src/core/ignore/policy';
import { Matcher, Overrides, RuleFile, type Frame } from '../../src/core/ignore/rules';
import { openLocalFile } from '../../src/host/localFile';
import { tempTree } from './helpers';

const reader = { openFile: openLocalFile };

function frame(dir: string, parent: Frame | undefined, files: Record<string, string[]>): Frame {
  const f: Frame = { dir, files: {}, parent };
  for (const [name, lines] of Object.entries(files)) {
    f.files[name as '.gitignore'] = new RuleFile(name, lines);
  }
  return f;
}

describe('ignore policy', () => {
  it('expands braces, nested too, and leaves escaped or unclosed ones alone', () => {
    assert.deepEqual(expandBraces('*.{ts,tsx}'), ['*.ts', '*.tsx']);
    assert.deepEqual(expandBraces('{a,b{c,d}}/x'), ['a/x', 'bc/x', 'bd/x']);
    assert.deepEqual(expandBraces('\\{a,b}'), ['\\{a,b}']);
    assert.deepEqual(expandBraces('a{b'), ['a{b']);
    assert.deepEqual(expandBraces('{x}y{1,2}'), ['{x}y1', '{x}y2']);
  });

  it('anchors editor globs like VS Code does and prunes "dir/**" at the folder', () => {
    assert.deepEqual(editorGlobToLines('**/node_modules'), ['**/node_modules']);
    assert.deepEqual(editorGlobToLines('out'), ['/out']);
    assert.deepEqual(editorGlobToLines('**/dist/**'), ['**/dist']);
    assert.deepEqual(editorGlobToLines('{build,tmp}/**'), ['/build', '/tmp']);
    assert.deepEqual(editorGlobToLines('**'), ['*']);
  });

  it('rebases the rules of a folder onto the root with gitignore anchoring', () => {
    assert.deepEqual(rebaseLines(['/foo', 'bar', 'a/b', '!/keep', '# note', '', 'dir/', '**/x/y'], 'src/lib'), ['src/lib/foo', 'bar', 'src/lib/a/b', '!src/lib/keep', 'dir/', 'src/lib/**/x/y']);
    assert.deepEqual(rebaseLines(['/foo'], ''), ['/foo']);
    assert.deepEqual(rebaseLines(['x/y'], 'we[ir]d'), ['we\\[ir\\]d/x/y']);
  });

  it('hands ripgrep only globs both sides read alike', () => {
    assert.ok(isPortableGlob('src/**/*.test.ts'));
    assert.ok(!isPortableGlob('*.[jt]s'));
    assert.ok(!isPortableGlob('@(a|b)'));
    assert.ok(!isPortableGlob('a\\*b'));
  });

  it('decides like ripgrep: overrides first, then .rgignore > .ignore > .gitignore, deepest first, then parents', () => {
    const root = frame('', undefined, { '.gitignore': ['*.log', 'build/'], '.ignore': ['!keep.log'] });
    const sub = frame('pkg', root, { '.gitignore': ['!*.log', 'local.txt'] });
    const m = new Matcher(new Overrides(['!**/vendor']), new RuleFile('parents', ['*.bak']), true);
    assert.equal(m.match(root, 'a.log', false).verdict, 'ignore');
    assert.equal(m.match(root, 'keep.log', false).verdict, 'keep', '.ignore beats .gitignore');
    assert.equal(m.match(sub, 'pkg/a.log', false).verdict, 'keep', 'the deeper .gitignore wins within its kind');
    assert.equal(m.match(sub, 'pkg/local.txt', false).verdict, 'ignore');
    assert.equal(m.match(root, 'build', true).verdict, 'ignore');
    assert.equal(m.match(root, 'build', false).verdict, undefined, '"build/" only names folders');
    assert.equal(m.match(sub, 'pkg/vendor', true).by, 'override');
    assert.equal(m.match(sub, 'pkg/x.bak', false).verdict, 'ignore', 'the rules of the folders above come last');
    const off = new Matcher(new Overrides([]), undefined, false);
    assert.equal(off.match(root, 'a.log', false).verdict, undefined);
  });

  it('treats whitelist globs like ripgrep: unmatched files out, folders untouched, last glob wins per path', () => {
    const o = new Overrides(['src/**', '*.md', '!**/node_modules']);
    assert.equal(o.test('src/a/b.ts', false), 'keep');
    assert.equal(o.test('README.md', false), 'keep');
    assert.equal(o.test('other.ts', false), 'ignore');
    assert.equal(o.test('lib', true), undefined);
    assert.equal(o.test('src/a/node_modules', true), 'ignore', 'a kept folder does not keep what a later glob leaves out');
  });

  it('reads the rules of the folders between the root and the walked folder', async () => {
    const t = tempTree({ '.gitignore': '/top.txt\nsub/gen/\n*.o\n', 'sub/.ignore': '!x.o\n', 'sub/gen/a': '', 'sub/x.o': '', 'sub/y.o': '' });
    try {
      const p = await IgnorePolicy.load({ root: t.root, base: `${t.root}/sub`, respectIgnore: true, editorExcludes: [], settingGlobs: [], callGlobs: [] }, reader);
      assert.deepEqual(p.ancestorLines, ['/top.txt', 'sub/gen/', '*.o']);
      assert.equal(p.baseRel, 'sub');
      const c = new PathChecker(p);
      assert.equal(await c.isIgnored('sub/gen/a'), true);
      assert.equal(await c.isIgnored('sub/y.o'), true);
      assert.equal(await c.isIgnored('sub/x.o'), false, "sub's own .ignore re-includes it");
      const args = p.ripgrepArgs([], [], '/tmp/parents.ignore');
      assert.ok(args.includes('--ignore-file=/tmp/parents.ignore') && args.includes('--no-ignore-parent') && args[args.length - 1] === '--iglob=!.git');
      const none = await IgnorePolicy.load({ root: t.root, base: t.root, respectIgnore: false, editorExcludes: ['**/x'], settingGlobs: ['y'], callGlobs: ['z'] }, reader);
      assert.deepEqual(none.excludeGlobs, ['!z'], 'without ignore rules only the call\'s own globs apply');
      assert.ok(none.ripgrepArgs().includes('--no-ignore'));
    } finally {
      t.cleanup();
    }
  });
});
