import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parsePatch, planPatch, PatchSyntaxError, PatchVerifyError, type FileProbe, type PatchPlan } from '../../src/core/patch';

// Every scenario folder `NNN_name/{input/, patch.txt, expected/}` (Codex's peer suite and
// ours): copy input/ to a temporary folder, parse and plan the patch against it, apply
// the plan, and compare the whole tree, folders included, with expected/.

const root = path.resolve(__dirname, '../../..');
const suites = [
  { name: 'codex', dir: path.join(root, 'test/fixtures/patch-scenarios/codex/scenarios') },
  { name: 'own', dir: path.join(root, 'test/fixtures/patch-scenarios/own') },
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

/** What the tool's loader does, on node:fs: the key is the absolute path, a BOM is stripped. */
async function probe(dir: string, p: string): Promise<FileProbe> {
  const abs = path.resolve(dir, p);
  try {
    const st = await fs.promises.stat(abs);
    if (st.isDirectory()) {
      return { kind: 'directory', key: abs };
    }
    return { kind: 'file', text: (await fs.promises.readFile(abs, 'utf8')).replace(/^\uFEFF/, ''), key: abs };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') {
      return { kind: 'missing', key: abs };
    }
    throw e;
  }
}

/**
 * Applies a plan as Codex applies hunks: parent folders are created; a move writes the
 * destination and removes the source; folders a move or delete leaves empty stay (Codex
 * keeps them too: in 004 and 020 the source folder is kept, and git cannot hold an empty
 * expected folder, so no scenario needs one removed).
 */
function apply(dir: string, plan: PatchPlan): void {
  const write = (p: string, text: string): void => {
    const abs = path.resolve(dir, p);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, text);
  };
  for (const c of plan.changes) {
    if (c.kind === 'add') {
      write(c.path, c.newText);
    } else if (c.kind === 'delete') {
      fs.rmSync(path.resolve(dir, c.path));
    } else if (c.movePath !== undefined && path.resolve(dir, c.movePath) !== path.resolve(dir, c.path)) {
      write(c.movePath, c.newText);
      fs.rmSync(path.resolve(dir, c.path));
    } else {
      write(c.movePath ?? c.path, c.newText);
    }
  }
}

async function run(scenario: string): Promise<{ before: Record<string, string>; after: Record<string, string>; error?: Error }> {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'aft-patch-')));
  try {
    if (fs.existsSync(path.join(scenario, 'input'))) {
      fs.cpSync(path.join(scenario, 'input'), tmp, { recursive: true });
    }
    const before = snapshot(tmp);
    let error: Error | undefined;
    try {
      const plan = await planPatch(parsePatch(fs.readFileSync(path.join(scenario, 'patch.txt'), 'utf8')), (p) => probe(tmp, p));
      apply(tmp, plan);
    } catch (e) {
      if (!(e instanceof PatchSyntaxError || e instanceof PatchVerifyError)) {
        throw e;
      }
      error = e;
    }
    return { before, after: snapshot(tmp), error };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

for (const suite of suites) {
  describe(`patch scenarios: ${suite.name}`, () => {
    const names = fs.readdirSync(suite.dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

    it('has its scenarios', () => {
      assert.ok(names.length >= (suite.name === 'codex' ? 23 : 18), names.join(', '));
    });

    for (const name of names) {
      const dir = path.join(suite.dir, name);
      if (suite.name === 'codex' && name.startsWith('015_')) {
        it(`${name}: applies nothing (all-or-nothing by design, where Codex keeps the hunks before the failure)`, async () => {
          const r = await run(dir);
          assert.ok(r.error instanceof PatchVerifyError, 'the update of a missing file is refused');
          assert.equal(r.error.code, 'missing');
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
        assert.equal(r.error !== undefined, unchanged, r.error ? r.error.message : 'the patch applied');
      });
    }
  });
}
