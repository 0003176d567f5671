import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { call, context } from './helpers';

// Every scenario folder `NNN_name/{input/, patch.txt, expected/}` (Codex's peer suite, ours,
// and the habits of models the README lists, one folder per case): copy input/ to a temporary folder, apply the patch there with the fs_apply_patch
// tool on node:fs, and compare the whole tree, folders included, with expected/. Folders a
// move or delete leaves empty stay, as Codex leaves them (004 and 020 rely on it).

const root = path.resolve(__dirname, '../../..');
const suites = [
  { name: 'codex', dir: path.join(root, 'test/fixtures/patch-scenarios/codex/scenarios') },
  { name: 'own', dir: path.join(root, 'test/fixtures/patch-scenarios/own') },
  { name: 'habits', dir: path.join(root, 'test/fixtures/patch-scenarios/habits') },
];

/** Relative path -> file text, or `<dir>` for a folder. Texts are decoded only when lossless. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!fs.existsSync(dir)) {
    return out;
  }
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (fs.statSync(path.join(dir, r)).isDirectory()) {
        out[r] = '<dir>';
        walk(r);
      } else {
        const bytes = fs.readFileSync(path.join(dir, r));
        const text = bytes.toString('utf8');
        assert.ok(Buffer.from(text, 'utf8').equals(bytes), `${r} is not valid UTF-8; compare bytes instead`);
        out[r] = text;
      }
    }
  };
  walk('');
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Applies the scenario's patch with the fs_apply_patch tool, as the CLI with --yes does, on a copy of input/. */
async function run(scenario: string): Promise<{ before: Record<string, string>; after: Record<string, string>; error?: string }> {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'aft-patch-')));
  try {
    if (fs.existsSync(path.join(scenario, 'input'))) {
      fs.cpSync(path.join(scenario, 'input'), tmp, { recursive: true });
    }
    const before = snapshot(tmp);
    const r = await call(await context(tmp), 'fs_apply_patch', { patch: fs.readFileSync(path.join(scenario, 'patch.txt'), 'utf8') });
    assert.doesNotMatch(r.text, /failed unexpectedly/);
    return { before, after: snapshot(tmp), error: r.isError ? r.text : undefined };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

for (const suite of suites) {
  describe(`patch scenarios: ${suite.name}`, () => {
    const names = fs.readdirSync(suite.dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

    it('has its scenarios', () => {
      assert.ok(names.length >= { codex: 23, own: 18, habits: 29 }[suite.name]!, names.join(', '));
    });

    for (const name of names) {
      const dir = path.join(suite.dir, name);
      if (suite.name === 'codex' && name.startsWith('015_')) {
        it(`${name}: applies nothing (all-or-nothing by design, where Codex keeps the hunks before the failure)`, async () => {
          const r = await run(dir);
          assert.match(r.error ?? '', /does not exist|missing|not found/i, 'the update of a missing file is refused');
          assert.deepEqual(r.after, r.before);
          assert.deepEqual(r.after, {});
        });
        continue;
      }
      it(name, async () => {
        const r = await run(dir);
        const expected = snapshot(path.join(dir, 'expected'));
        assert.deepEqual(r.after, expected);
        // A scenario whose tree does not change is a refusal; every other one must apply.
        const unchanged = JSON.stringify(expected) === JSON.stringify(r.before);
        assert.equal(r.error !== undefined, unchanged, r.error ?? 'the patch applied');
      });
    }
  });
}
