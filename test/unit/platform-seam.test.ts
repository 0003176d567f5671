import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Whether two spellings of a name are one file is asked of the volume, in one seam
 * (src/core/names.ts, the pure comparison; src/host/volume.ts, the probe and the spelling
 * on disk; src/core/nameRules.ts, the Windows name rules as pure functions of the path
 * functions). No other code decides a name question from the platform's name or by
 * folding a path's case itself. The few other uses of both, none a name question, are
 * listed here with why; a new one fails this test until it goes through the seam or is
 * listed with its reason.
 */
const SEAM = new Set(['src/core/names.ts', 'src/core/nameRules.ts', 'src/host/volume.ts']);

const ALLOWED: { file: string; line: string; why: string }[] = [
  { file: 'src/host/vscodeWorkspace.ts', line: "const exe = process.platform === 'win32' ? 'rg.exe' : 'rg';", why: "the name of VS Code's ripgrep binary on this OS" },
  { file: 'src/host/vscodeWorkspace.ts', line: "'ripgrep-universal', 'bin', `${process.platform}-${process.arch}`, exe),", why: "ripgrep-universal's folder of binaries for this OS and CPU" },
  { file: 'src/host/stdout.ts', line: "if (process.platform === 'win32' && fd === 1", why: "a Windows console shows a descriptor's bytes in its code page: the console, not a name" },
  { file: 'src/services/aliases.ts', line: '(c) => `_${c.toLowerCase()}`', why: "input field names (camelCase to snake_case), not paths" },
  { file: 'src/services/aliases.ts', line: "return name.toLowerCase().replace(/[_-]/g, '');", why: 'input field names, not paths' },
  { file: 'src/services/aliases.ts', line: 'snakeCase(name).toLowerCase()', why: 'input field names, not paths' },
  { file: 'src/tools/outline.ts', line: 'const ext = extensionOf(path).toLowerCase();', why: 'a language by its extension: `.TS` is TypeScript on every volume' },
  { file: 'src/tools/outline.ts', line: 'MARKDOWN.has(extensionOf(t.real).toLowerCase())', why: 'a language by its extension' },
  { file: 'src/tools/grep.ts', line: 'FILE_TYPES[v.toLowerCase()]', why: "a ripgrep file type's name (`TS` for `ts`), not a path" },
  { file: 'src/tools/read.ts', line: 'type.ext.toUpperCase()', why: "a file type's name as printed (PNG)" },
  { file: 'src/core/glob/charSet.ts', line: 'member(c.toLowerCase()) || member(c.toUpperCase())', why: 'one character of a bracket set in either case, for a glob compiled to fold case' },
  { file: 'src/core/edit/messages.ts', line: 'what[0].toUpperCase()', why: 'a sentence begins with a capital' },
  { file: 'src/core/process.ts', line: ".map((e) => e.toLowerCase())", why: "Windows' executable extensions (PATHEXT), matched as Windows matches them" },
  { file: 'src/core/text/binary.ts', line: 'base.slice(dot + 1).toLowerCase()', why: 'a file type by its extension' },
  { file: 'src/core/text/encoding.ts', line: '.toString(16).toUpperCase()', why: 'a code point printed as U+XXXX' },
  { file: 'src/core/search/regex.ts', line: 'return pattern !== pattern.toLowerCase();', why: "a search pattern's smart case" },
  { file: 'src/core/search/regex.ts', line: 'return s !== s.toLowerCase();', why: "a search pattern's smart case" },
  { file: 'src/core/glob/nameHint.ts', line: "return { kind: 'exact', text: p.toLowerCase() };", why: 'a pre-check that may only say "cannot match" under any case rule; the rule itself decides (see mayMatchName)' },
  { file: 'src/core/glob/nameHint.ts', line: "return { kind: 'suffix', text: rest.toLowerCase() };", why: 'the same pre-check' },
  { file: 'src/core/glob/nameHint.ts', line: "return { kind: 'prefix', text: head.toLowerCase() };", why: 'the same pre-check' },
  { file: 'src/core/outline/view.ts', line: "const lower = q.names.join('.').toLowerCase();", why: 'a symbol path (Class.method), not a file path' },
  { file: 'src/core/outline/view.ts', line: 'const last = q.names[q.names.length - 1].toLowerCase();', why: 'symbol names, not paths' },
  { file: 'src/core/outline/view.ts', line: 'const name = s.name.toLowerCase();', why: 'symbol names' },
  { file: 'src/core/outline/view.ts', line: 'd = Math.min(d, levenshteinWithin(lower, keyOf(v, i).toLowerCase(), Math.min(max, d), work));', why: 'did-you-mean among symbol names' },
  { file: 'src/approval/reviewLens.ts', line: 'const titles = reviewActionTitles(p.proposal, process.platform);', why: "the keys the lenses name (Ctrl or Cmd), not a name's comparison" },
  { file: 'src/commands/examples.ts', line: "const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();", why: 'a language by its extension (the comment syntax of an example file)' },
  { file: 'src/core/outline/syntax.ts', line: 'BY_EXTENSION[extension.toLowerCase()]', why: 'a language by its extension' },
  { file: 'src/commands/agentFile.ts', line: 'extensionId.toLowerCase()', why: "an extension's id as VS Code writes it in a tool reference" },
];

const PATTERN = /process\.platform|\.to(Locale)?(Lower|Upper)Case\(/;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('platform seam: no name question decided outside it', () => {
  const root = path.resolve(__dirname, '../../..');
  const found: { file: string; line: string; at: number }[] = [];
  for (const file of sources(path.join(root, 'src'))) {
    const rel = path.relative(root, file).split(path.sep).join('/');
    if (SEAM.has(rel)) {
      continue;
    }
    fs.readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (PATTERN.test(line) && !/^\s*(\*|\/\/)/.test(line)) {
          found.push({ file: rel, line, at: i + 1 });
        }
      });
  }

  it('every use of process.platform or of a case fold outside the seam is listed, with why it is no name question', () => {
    assert.ok(found.length > 0 && fs.existsSync(path.join(root, 'src/core/names.ts')), 'the sources were read');
    const unlisted = found.filter((f) => !ALLOWED.some((a) => a.file === f.file && f.line.includes(a.line))).map((f) => `${f.file}:${f.at}: ${f.line.trim()}`);
    assert.deepEqual(unlisted, []);
  });

  it('every listed use still exists (a list of reasons for code that is gone hides nothing)', () => {
    const stale = ALLOWED.filter((a) => !found.some((f) => f.file === a.file && f.line.includes(a.line))).map((a) => `${a.file}: ${a.line}`);
    assert.deepEqual(stale, []);
    assert.ok(ALLOWED.every((a) => a.why.length > 10));
  });

  it('the test sees a use of each kind', () => {
    assert.ok(PATTERN.test("if (process.platform === 'darwin') {"));
    assert.ok(PATTERN.test('const k = p.toLowerCase();'));
    assert.ok(PATTERN.test('const k = p.toLocaleUpperCase();'));
    assert.ok(!PATTERN.test('const k = foldCase(p);'));
  });
});
