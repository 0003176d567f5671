import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { inputPathProblem, isShortNameOf, looksLikeShortName, nameProblemMessage, relativePathProblem, windowsNameProblem } from '../../src/core/nameRules';
import { CASE_FOLDING_NAMES, EXACT_NAMES, FOLDING_NAMES, foldCase, isWithinAs, nameKey, otherSpelling, sameName, uriPathKey, type NameComparison, type PathApi } from '../../src/core/names';
import { isAbsoluteInput, locate, resolveInputPath } from '../../src/core/paths';
import { globMatcher, globSeparators, normalizeGlob } from '../../src/core/search/glob';

// The rules are pure functions of a name or path and the platform's path functions: each
// is tested here for Windows (path.win32), Linux (path.posix, a strict volume) and macOS
// (path.posix, a volume that folds case and normalisation), whatever this machine is.
const PLATFORMS: { name: string; api: PathApi; names: NameComparison }[] = [
  { name: 'Windows', api: path.win32, names: CASE_FOLDING_NAMES },
  { name: 'Linux', api: path.posix, names: EXACT_NAMES },
  { name: 'macOS', api: path.posix, names: FOLDING_NAMES },
];

const NFC = 'caf\u00e9.txt';
const NFD = 'cafe\u0301.txt';

describe('name rules: names Windows does not keep as written', () => {
  const reserved = ['CON', 'con', 'Con', 'PRN', 'AUX', 'NUL', 'nul.txt', 'NUL.tar.gz', 'com1.log', 'COM9', 'lpt1', 'LPT9.txt', 'CONIN$', 'conout$', 'CONOUT$.txt', 'CON .txt', 'nul.', 'COM\u00b9'];
  for (const name of reserved) {
    it(`${JSON.stringify(name)} is a reserved device name`, () => {
      assert.equal(windowsNameProblem(name)?.rule, 'reserved-name');
    });
  }
  for (const name of ['CONSOLE', 'com10', 'COM0', 'lpt', 'icon.png', 'null', 'auxiliary.ts', 'CONIN', 'prn-notes.md', 'a.con']) {
    it(`${JSON.stringify(name)} is an ordinary name`, () => {
      assert.equal(windowsNameProblem(name), undefined);
    });
  }
  it('a colon names an alternate data stream, with its file', () => {
    assert.equal(windowsNameProblem('a.txt:x')?.rule, 'stream');
    assert.equal(windowsNameProblem('a.txt::$DATA')?.rule, 'stream');
    assert.match(windowsNameProblem('App.ts:evil')!.why, /stream of App\.ts/);
  });
  it('a trailing dot or space is a name Windows changes', () => {
    assert.equal(windowsNameProblem('b.txt.')?.rule, 'trailing-dot-or-space');
    assert.equal(windowsNameProblem('c.txt ')?.rule, 'trailing-dot-or-space');
    assert.equal(windowsNameProblem('dir.')?.rule, 'trailing-dot-or-space');
    assert.equal(windowsNameProblem('.hidden'), undefined);
    assert.equal(windowsNameProblem('.'), undefined);
    assert.equal(windowsNameProblem('..'), undefined);
  });
  it('<>"|?* and control characters are refused, each named', () => {
    for (const c of ['<', '>', '"', '|', '?', '*']) {
      const p = windowsNameProblem(`a${c}b`);
      assert.equal(p?.rule, 'character', c);
      assert.ok(p!.why.includes(`"${c}"`));
    }
    assert.match(windowsNameProblem('a\u0001b')!.why, /U\+0001/);
    assert.match(windowsNameProblem('a\tb')!.why, /U\+0009/);
  });
  it('a relative path is refused at its first such name, with either separator on Windows', () => {
    assert.equal(relativePathProblem('src/CON/a.ts', path.posix)?.part, 'CON');
    assert.equal(relativePathProblem('src\\nul.txt', path.win32)?.part, 'nul.txt');
    assert.equal(relativePathProblem('src/app.ts', path.win32), undefined);
    // on POSIX a backslash is part of the name, which Windows would not keep
    assert.equal(relativePathProblem('src\\nul.txt', path.posix)?.rule, undefined);
  });
  it('the refusal names the path, the part and the rule, and what to do', () => {
    const p = windowsNameProblem('CON')!;
    assert.equal(
      nameProblemMessage('src/CON', p, true),
      'src/CON is refused: CON is a reserved device name on Windows (CON, PRN, AUX, NUL, COM1-COM9, LPT1-LPT9, CONIN$ and CONOUT$, with or without an extension, in any case): there it names a device, not a file. No tool reads or writes such a path there. Use another name.',
    );
    assert.match(nameProblemMessage('src/CON', p, false), /No tool creates a file so named: a repository is shared with Windows users/);
  });
});

describe('name rules: paths as the model gives them', () => {
  for (const input of ['\\\\?\\C:\\repo\\a.ts', '\\\\.\\PhysicalDrive0', '//?/C:/x', '//./pipe/x', '\\??\\C:\\x']) {
    it(`${input} is a device path on Windows, an ordinary path elsewhere`, () => {
      assert.equal(inputPathProblem(input, path.win32)?.rule, 'device-path');
      assert.equal(inputPathProblem(input, path.posix), undefined);
    });
  }
  it('a drive-relative path is refused on Windows, never guessed', () => {
    assert.equal(inputPathProblem('C:foo', path.win32)?.rule, 'drive-relative');
    assert.equal(inputPathProblem('c:', path.win32)?.rule, 'drive-relative');
    assert.match(inputPathProblem('C:foo\\bar', path.win32)!.why, /current folder of drive C:/);
    assert.equal(inputPathProblem('C:/foo', path.win32), undefined);
    assert.equal(inputPathProblem('C:\\foo', path.win32), undefined);
    assert.equal(inputPathProblem('C:foo', path.posix), undefined);
  });
  it('a path rooted on the current drive is refused on Windows; a Git Bash /c/... path gets its whole form', () => {
    const p = inputPathProblem('/c/Users/me/app.ts', path.win32)!;
    assert.equal(p.rule, 'drive-relative');
    assert.match(p.why, /C:\/Users\/me\/app\.ts/);
    assert.equal(inputPathProblem('\\src\\a.ts', path.win32)?.rule, 'drive-relative');
    assert.equal(inputPathProblem('/c/Users/me/app.ts', path.posix), undefined);
  });
  it('UNC paths are absolute on Windows: outside the workspace, asked about, not refused', () => {
    assert.equal(inputPathProblem('\\\\server\\share\\a.ts', path.win32), undefined);
    assert.equal(isAbsoluteInput('\\\\server\\share\\a.ts', path.win32), true);
    const roots = [{ name: 'repo', path: 'C:\\repo', names: CASE_FOLDING_NAMES }];
    assert.equal(locate('\\\\server\\share\\a.ts', roots, path.win32).root, undefined);
  });
  it('a drive letter is absolute on Windows only', () => {
    assert.equal(isAbsoluteInput('C:\\repo\\a.ts', path.win32), true);
    assert.equal(isAbsoluteInput('C:/repo/a.ts', path.win32), true);
    assert.equal(isAbsoluteInput('C:\\repo\\a.ts', path.posix), false);
  });
  it('an 8.3 short name that resolves to another entry is told apart from a name in another case', () => {
    const same = (a: string, b: string) => sameName(CASE_FOLDING_NAMES, a, b);
    assert.equal(looksLikeShortName('PROGRA~1'), true);
    assert.equal(looksLikeShortName('APPTS~1.TS'), true);
    assert.equal(looksLikeShortName('app.ts'), false);
    assert.equal(isShortNameOf('PROGRA~1', 'Program Files', same), true);
    assert.equal(isShortNameOf('NOTES~1.MD', 'notes~1.md', same), false);
    assert.equal(isShortNameOf('app.ts', 'App.ts', same), false);
  });
});

describe('paths: resolved as each platform reads them', () => {
  it('on Windows either separator separates, and a mixed path resolves under the folder', () => {
    const roots = [{ name: 'repo', path: 'C:\\repo', names: CASE_FOLDING_NAMES }];
    assert.equal(resolveInputPath('src/a\\b.ts', roots, path.win32), 'C:\\repo\\src\\a\\b.ts');
    assert.equal(resolveInputPath('C:/repo/src\\a.ts', roots, path.win32), 'C:\\repo\\src\\a.ts');
  });
  it('on POSIX a backslash is a separator, or part of the name when asked for the literal reading', () => {
    const roots = [{ name: 'repo', path: '/repo' }];
    assert.equal(resolveInputPath('a\\b.txt', roots, path.posix), '/repo/a/b.txt');
    assert.equal(resolveInputPath('a\\b.txt', roots, path.posix, true), '/repo/a\\b.txt');
    assert.equal(resolveInputPath('/repo/a\\b.txt', roots, path.posix, true), '/repo/a\\b.txt');
    assert.equal(resolveInputPath('/repo/a\\b.txt', roots, path.posix), '/repo/a/b.txt');
  });
  it('every printed path uses "/", inside the workspace and outside it on Windows', () => {
    const roots = [{ name: 'repo', path: 'C:\\repo', names: CASE_FOLDING_NAMES }];
    assert.equal(locate('C:\\repo\\src\\a.ts', roots, path.win32).display, 'src/a.ts');
    assert.equal(locate('c:\\REPO\\Src\\a.ts', roots, path.win32).display, 'Src/a.ts');
    assert.equal(locate('D:\\other\\a.ts', roots, path.win32).display, 'D:/other/a.ts');
    assert.equal(locate('/other/a\\b.ts', [{ name: 'repo', path: '/repo' }], path.posix).display, '/other/a\\b.ts');
  });
  for (const pl of PLATFORMS) {
    it(`${pl.name}: a folder contains another spelling of its files only where the volume folds`, () => {
      const root = pl.api === path.win32 ? 'C:\\Repo' : '/Repo';
      const child = pl.api === path.win32 ? 'c:\\repo\\SRC\\App.ts' : '/repo/SRC/App.ts';
      // path.win32 compares without regard to case by itself; a POSIX volume as its comparison says
      assert.equal(isWithinAs(pl.names, root, child, pl.api), pl.names.foldsCase);
      assert.equal(isWithinAs(pl.names, root, pl.api.join(root, '..x', 'a'), pl.api), true);
      assert.equal(isWithinAs(pl.names, root, pl.api.join(root, '..', 'a'), pl.api), false);
    });
  }
});

describe('names: one key for two spellings of one entry', () => {
  it('a strict volume keeps every spelling apart', () => {
    assert.notEqual(nameKey(EXACT_NAMES, 'App.ts'), nameKey(EXACT_NAMES, 'app.ts'));
    assert.notEqual(nameKey(EXACT_NAMES, NFC), nameKey(EXACT_NAMES, NFD));
  });
  it('NTFS folds case, not normalisation', () => {
    assert.equal(nameKey(CASE_FOLDING_NAMES, 'Src/App.ts'), nameKey(CASE_FOLDING_NAMES, 'SRC/app.TS'));
    assert.notEqual(nameKey(CASE_FOLDING_NAMES, NFC), nameKey(CASE_FOLDING_NAMES, NFD));
  });
  it('APFS folds both', () => {
    assert.equal(nameKey(FOLDING_NAMES, 'Caf\u00e9.TXT'), nameKey(FOLDING_NAMES, NFD));
    assert.equal(sameName(FOLDING_NAMES, NFC, NFD), true);
    assert.equal(otherSpelling(FOLDING_NAMES, 'App.ts', 'app.ts'), true);
    assert.equal(otherSpelling(FOLDING_NAMES, 'App.ts', 'App.ts'), false);
    assert.equal(otherSpelling(FOLDING_NAMES, 'App.ts', 'Main.ts'), false);
  });
  it('folding keeps the length of every name (ß stays ß, İ stays whole)', () => {
    for (const s of ['Stra\u00dfe', '\u0130stanbul', 'ABC', '\u03a3\u03a3']) {
      assert.equal(foldCase(s).length, s.length, s);
    }
    assert.equal(foldCase('\u03a3A'), '\u03c3a');
  });
  it('a question the key does not need is not asked of the volume', () => {
    let asked = 0;
    const lazy: NameComparison = {
      foldsCase: true,
      get foldsNormalization() {
        asked++;
        return true;
      },
    };
    nameKey(lazy, 'src/app.ts');
    assert.equal(asked, 0);
    nameKey(lazy, NFC);
    assert.equal(asked, 1);
  });
  it('a document URI matches whatever the case of its drive letter, and its path as the volume compares', () => {
    assert.equal(uriPathKey(EXACT_NAMES, '/C:/Repo/App.ts'), uriPathKey(EXACT_NAMES, '/c:/Repo/App.ts'));
    assert.notEqual(uriPathKey(EXACT_NAMES, '/c:/Repo/App.ts'), uriPathKey(EXACT_NAMES, '/c:/repo/app.ts'));
    assert.equal(uriPathKey(CASE_FOLDING_NAMES, '/C:/Repo/App.ts'), uriPathKey(CASE_FOLDING_NAMES, '/c:/repo/app.ts'));
  });
});

describe('globs: as each platform reads them', () => {
  it('on Windows a backslash separates before * and ?, which no name there holds, and escapes what a name can hold', () => {
    assert.equal(normalizeGlob('Src\\*.ts', path.win32), 'Src/*.ts');
    assert.equal(normalizeGlob('src\\sub\\?.TS', path.win32), 'src/sub/?.TS');
    assert.equal(normalizeGlob('pages\\\\[id\\].tsx', path.win32), 'pages/\\[id\\].tsx');
  });
  it('a Windows path written with backslashes in a setting (allowedOutsidePaths) is a glob of / there, and stays escapes on POSIX', () => {
    assert.equal(globSeparators('C:\\Users\\me\\notes\\**', path.win32), 'C:/Users/me/notes/**');
    assert.equal(globSeparators('/home/me/notes/\\*', path.posix), '/home/me/notes/\\*');
  });
  it('on POSIX a backslash before a glob character escapes it, and separates elsewhere', () => {
    assert.equal(normalizeGlob('Src\\*.ts', path.posix), '**/Src\\*.ts');
    assert.equal(normalizeGlob('src\\sub\\a.ts', path.posix), 'src/sub/a.ts');
  });
  for (const pl of PLATFORMS) {
    it(`${pl.name}: **/app.TS finds Src/App.ts only where the volume folds case; an NFC glob finds the NFD name only where it folds normalisation`, () => {
      assert.equal(globMatcher('**/app.TS', pl.names)('Src/App.ts'), pl.names.foldsCase);
      assert.equal(globMatcher(`**/${NFC}`, pl.names)(`docs/${NFD}`), pl.names.foldsNormalization);
      assert.equal(globMatcher(`**/${NFD}`, pl.names)(`docs/${NFC}`), pl.names.foldsNormalization);
      assert.equal(globMatcher('**/App.ts', pl.names)('Src/App.ts'), true);
    });
  }
});
