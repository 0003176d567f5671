import * as assert from 'node:assert/strict';
import { compileGlob, compileGlobGeneral, compileGlobs } from '../../src/core/glob/matcher';
import { DEFAULT_SENSITIVE_GLOBS, sensitiveSet } from '../../src/core/policy';
import { DEFAULT_PROTECTED_GLOBS } from '../../src/core/writePolicy';

/**
 * The matcher's shortcuts for plain globs (`**\/name`, `**\/*.ext`, `**\/pre*`, `**\/a/b`,
 * `**\/dir/**`, `**\/*.[ab]`) against its general way (each segment by the walk alone), on the globs the settings ship and on made-up ones
 * of each shape and near them, for many paths: the same answer for every path.
 */

const SHAPES = ['**/*.{a,b}', '**/{a,b*,*.x}', '!**/*.a', '**/{a,b/c}', '**/*.a', '**/a*', '**/a/b', '**/a/*.b', '**/a/b*', '**/a/**', '**/a/b/**', '**/A.B', '**/*.A', '**/.x', '**/.x/**', '**/a/', '**/a//b', '**/**/a', '**/a/**/b', '**/*', '**/a*b', '**/*a*', 'a/**', '*/a', '**/a\\b', '**/[a]', '**/a?', '**/é', '**/a/b/c', '**/*.[ab]', '**/*?', '**/*a?', '**/*[!a]', '**/*.?', '**/*[[:alpha:]]', '**/*.{[ab],x?}', '!**/*.[ab]', '**/*\\?', 'a/*.[ab]', '**/a*[ab]', '**/*😀?', '**/*[😀]'];

const NAMES = ['a', 'A', 'b', 'B', 'c', '.a', 'x.a', 'a.x', 'ab', 'ba', 'aB', 'a.b', 'A.B', '.x', '.X', 'x', 'é', 'É', '', '**', '*', 'a*', 'a\\b', '.ssh', '.SSH', 'id_rsa', 'ID_RSA', '.env', '.env.local', '.ENV.Local', '.env.example', 'key.pem', 'x.PEM', '.aws', 'credentials', '.config', 'git', 'hub', 'secrets.json', '.git', 'package.json', '.npmrc', '.kube', 'config', '😀', 'a😀', 'x.😀', '😀.a', '\uD83Da', 'a\uD83D', '\uDE00a', 'a.\uDE00', 'x.a?', '?', 'A.a'];

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
}

/** Names the globs hold, so paths meet them. */
function namesOf(globs: readonly string[]): string[] {
  return [...new Set(globs.flatMap((g) => g.replace(/^!/, '').split(/[/{},]/)).filter((n) => n && !/[*?[\\]/.test(n)))];
}

function paths(count: number, names: readonly string[], seed: number): string[] {
  const r = random(seed);
  const out = ['', '/', 'a', 'a/', '/a', 'a//b', 'a/b/', '.ssh/', '.ssh/x', 'x/.ssh/y', 'x/.ssh', 'x/.ssh//', '.aws/credentials', 'home/u/.config/hub'];
  for (let i = 0; i < count; i++) {
    const n = 1 + Math.floor(r() * 5);
    const segs = Array.from({ length: n }, () => names[Math.floor(r() * names.length)]);
    let p = segs.join('/');
    if (r() < 0.1) {
      p = `/${p}`;
    }
    if (r() < 0.1) {
      p = `${p}/`;
    }
    out.push(p);
  }
  return out;
}

describe('glob shortcuts for plain shapes', () => {
  const shipped = [...DEFAULT_SENSITIVE_GLOBS, ...DEFAULT_PROTECTED_GLOBS];
  const all = [...shipped, ...SHAPES];
  const pool = [...new Set([...NAMES, ...namesOf(all)])];

  for (const nocase of [true, false]) {
    it(`answer as the general way does, with nocase ${nocase}, for every shipped and made-up glob`, () => {
      const ps = paths(2500, pool, nocase ? 7 : 11);
      let matched = 0;
      for (const glob of all) {
        const fast = compileGlob(glob, { nocase });
        const general = compileGlobGeneral(glob, { nocase });
        for (const p of ps) {
          const want = general(p);
          assert.equal(fast(p), want, `${glob} on ${JSON.stringify(p)} (nocase ${nocase})`);
          matched += want ? 1 : 0;
        }
      }
      // the paths reach both answers often
      assert.ok(matched > 2000, `${matched} matches`);
    });
  }

  it('keep the sensitive set exactly as it was: exemptions and all', () => {
    const set = sensitiveSet(DEFAULT_SENSITIVE_GLOBS);
    const inc = DEFAULT_SENSITIVE_GLOBS.filter((g) => !g.startsWith('!'));
    const exc = DEFAULT_SENSITIVE_GLOBS.filter((g) => g.startsWith('!')).map((g) => g.slice(1));
    const general = (p: string) => inc.some((g) => compileGlobGeneral(g, { nocase: true })(p)) && !exc.some((g) => compileGlobGeneral(g, { nocase: true })(p));
    for (const p of [...paths(3000, pool, 3), '.env', 'a/.env', '.env.example', '.ENV.EXAMPLE', 'x/.env.local', 'key.pem', 'a/B.PEM', '.ssh/id_rsa', 'src/app.ts', 'README.md']) {
      assert.equal(set.test(p), general(p), p);
    }
    assert.equal(set.test('a/.env'), true);
    assert.equal(set.test('a/.env.example'), false);
    assert.equal(compileGlobs(['**/*.pem'], { nocase: true })('x/KEY.PEM'), true);
  });
});
