import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';

const root = path.resolve(__dirname, '../../..');

/** The messages of the layer rule for `code` as if it were the file `rel`. */
async function layerErrors(eslint: ESLint, rel: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, rel) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layers: what each part of src/ may import', function () {
  this.timeout(60_000);
  let eslint: ESLint;
  before(() => {
    eslint = new ESLint({ cwd: root });
  });

  const forbidden: [string, string][] = [
    ['src/core/probe.ts', "import type { Workspace } from '../host/workspace';"],
    ['src/core/edit/probe.ts', "import { runTool } from '../../services/run';"],
    ['src/core/probe.ts', "import { readTool } from '../tools/read';"],
    ['src/core/probe.ts', "import * as vscode from 'vscode';"],
    ['src/core/list/probe.ts', "import { lmTools } from '../../vscode/lmTools';"],
    ['src/core/probe.ts', "import { diffTitle } from '../approval/proposalText';"],
    ['src/core/probe.ts', "import { registerCommands } from '../commands';"],
    ['src/core/probe.ts', "import * as fs from 'node:fs';"],
    ['src/tools/probe.ts', "import * as vscode from 'vscode';"],
    ['src/tools/probe.ts', "import { diffTitle } from '../approval/proposalText';"],
    ['src/tools/probe.ts', "import { lmTools } from '../vscode/lmTools';"],
    ['src/tools/probe.ts', "import * as cp from 'node:child_process';"],
    ['src/host/probe.ts', "import { runTool } from '../services/run';"],
    ['src/host/probe.ts', "import { readTool } from '../tools/read';"],
    ['src/services/probe.ts', "import { readTool } from '../tools/read';"],
    ['src/services/probe.ts', "import * as vscode from 'vscode';"],
    ['src/services/probe.ts', "import { diffTitle } from '../approval/proposalText';"],
    ['src/host/probe.ts', "import type { Approver } from '../services/approval';"],
    ['src/mcp/probe.ts', "import * as vscode from 'vscode';"],
    ['src/mcp/probe.ts', "import { lmTools } from '../vscode/lmTools';"],
    ['src/mcp/probe.ts', "import { diffTitle } from '../approval/proposalText';"],
    ['src/mcp/probe.ts', "import * as fs from 'node:fs';"],
    ['src/tools/probe.ts', "import { serveHttp } from '../mcp/http';"],
    ['src/services/probe.ts', "import { serveHttp } from '../mcp/http';"],
    ['src/host/probe.ts', "import { serveHttp } from '../mcp/http';"],
    ['src/core/probe.ts', "import { serveHttp } from '../mcp/http';"],
  ];
  for (const [rel, code] of forbidden) {
    it(`refuses in ${rel}: ${code}`, async () => {
      const errors = await layerErrors(eslint, rel, `${code}\nexport const used = [${code.match(/\{ (?:type )?(\w+)/)?.[1] ?? code.match(/\* as (\w+)/)?.[1]}];\n`);
      assert.equal(errors.length, 1, `expected one layer error, got ${JSON.stringify(errors)}`);
    });
  }

  const allowed: [string, string][] = [
    ['src/core/probe.ts', "import { isGitName } from './paths';"],
    ['src/core/edit/probe.ts', "import { MAX_EDIT_PLACES } from '../limits';"],
    ['src/tools/probe.ts', "import type { Approver } from '../services/approval';"],
    ['src/services/probe.ts', "import type { Workspace } from '../host/workspace';"],
    ['src/tools/probe.ts', "import type { Workspace } from '../host/workspace';"],
    ['src/host/probe.ts', "import * as vscode from 'vscode';"],
    ['src/host/probe.ts', "import * as fs from 'node:fs';"],
    ['src/vscode/probe.ts', "import { runTool } from '../services/run';"],
    ['src/mcp/probe.ts', "import { invokeTool } from '../services/run';"],
    ['src/mcp/probe.ts', "import { findTool } from '../tools/registry';"],
    ['src/mcp/probe.ts', "import * as http from 'node:http';"],
    ['src/mcp/window.ts', "import * as vscode from 'vscode';"],
    ['src/mcp/window.ts', "import type { ContextFactory } from '../vscode/lmTools';"],
  ];
  for (const [rel, code] of allowed) {
    it(`allows in ${rel}: ${code}`, async () => {
      const name = code.match(/\{ (?:type )?(\w+)/)?.[1] ?? code.match(/\* as (\w+)/)?.[1];
      assert.deepEqual(await layerErrors(eslint, rel, `${code}\nexport const used = [${name}];\n`), []);
    });
  }
});

/** The lint rule that keeps the files of src/ free of import circles (eslint-rules/no-import-cycle.mjs). */
interface CycleRule {
  importGraph(dir: string): Map<string, Set<string>>;
  circles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][];
}

/** The rule's module, loaded once (it is ESM; the tests are CommonJS). */
let loaded: Promise<CycleRule> | undefined;
function cycleRule(): Promise<CycleRule> {
  return (loaded ??= import(pathToFileURL(path.join(root, 'eslint-rules/no-import-cycle.mjs')).href) as Promise<CycleRule>);
}

/** Where a file of src/core sits: its folder (`list/`), or the file itself for one at the top (`policy`). */
function coreUnit(file: string): string {
  const rel = path.relative(path.join(root, 'src/core'), file).split(path.sep);
  return rel.length > 1 ? `${rel[0]}/` : rel[0].replace(/\.ts$/, '');
}

/** Every `import ... from './x'` (and `export ... from`) of a TypeScript file, type-only ones too. */
function relativeImports(text: string): string[] {
  return [...text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+'(\.[^']*)'/gm)].map((m) => m[1]);
}

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** The import graph of src/core between its folders and top-level files, with one import behind each edge. */
function coreGraph(): { edges: Map<string, Set<string>>; why: Map<string, string> } {
  const core = path.join(root, 'src/core');
  const edges = new Map<string, Set<string>>();
  const why = new Map<string, string>();
  for (const file of tsFiles(core)) {
    for (const spec of relativeImports(fs.readFileSync(file, 'utf8'))) {
      const target = path.resolve(path.dirname(file), spec);
      const resolved = fs.existsSync(`${target}.ts`) ? `${target}.ts` : path.join(target, 'index.ts');
      if (!resolved.startsWith(core + path.sep)) {
        continue;
      }
      const [from, to] = [coreUnit(file), coreUnit(resolved)];
      if (from !== to) {
        edges.set(from, (edges.get(from) ?? new Set()).add(to));
        why.set(`${from} ${to}`, `${path.relative(core, file)} imports ${spec}`);
      }
    }
  }
  return { edges, why };
}

describe('layers: no loop between the folders of src/core', () => {
  let loops: CycleRule['circles'];
  before(async () => {
    loops = (await cycleRule()).circles;
  });

  it('the import graph between core folders (and top-level files) has no loop', () => {
    const { edges, why } = coreGraph();
    assert.ok(edges.size > 10, 'the graph was read');
    const found = loops(edges).map((g) => `${g.join(' ')}: ${g.flatMap((a) => g.map((b) => why.get(`${a} ${b}`)).filter(Boolean)).join('; ')}`);
    assert.deepEqual(found, []);
  });

  it('the loop finder sees a loop through three units, and none in a chain', () => {
    const loop = new Map([
      ['glob/', new Set(['ignore/'])],
      ['ignore/', new Set(['policy'])],
      ['policy', new Set(['glob/'])],
      ['list/', new Set(['glob/'])],
    ]);
    assert.deepEqual(loops(loop), [['glob/', 'ignore/', 'policy']]);
    assert.deepEqual(loops(new Map([['a/', new Set(['b/'])], ['b/', new Set(['c'])]])), []);
  });

  it('reads type-only and re-export imports as edges', () => {
    assert.deepEqual(relativeImports("import type { A } from './list/walk';\nexport { b } from '../paths';\nimport {\n  c,\n} from './c';\nimport x from 'diff';"), ['./list/walk', '../paths', './c']);
  });
});

describe('layers: no circle of imports between the files of src/', function () {
  this.timeout(60_000);
  let rule: CycleRule;
  let eslint: ESLint;
  before(async () => {
    rule = await cycleRule();
    eslint = new ESLint({ cwd: root });
  });

  const cycleErrors = async (rel: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, rel) });
    return result.messages.filter((m) => m.ruleId === 'local/no-import-cycle').map((m) => m.message);
  };

  it('no file of src/ reaches itself through its imports (type-only imports count)', () => {
    const src = path.join(root, 'src');
    const graph = rule.importGraph(src);
    assert.ok(graph.size > 150, `the graph was read: ${graph.size} files`);
    assert.ok(graph.get(path.join(src, 'host/nodeApply.ts'))?.has(path.join(src, 'host/syncQueue.ts')), 'edges are resolved to files');
    assert.deepEqual(rule.circles(graph).map((g) => g.map((f) => path.relative(src, f))), []);
  });

  it('lint names the circle an import would close, from the file as linted', async () => {
    const errors = await cycleErrors('src/core/errors.ts', "import { described } from '../host/applyDisk';\nexport const used = [described];\n");
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.match(errors[0], /^src\/core\/errors\.ts imports src\/host\/applyDisk\.ts, which leads back to it \(src\/core\/errors\.ts -> src\/host\/applyDisk\.ts -> src\/core\/errors\.ts\)/);
    assert.deepEqual(await cycleErrors('src/host/probe.ts', "import { SyncQueue } from './syncQueue';\nexport const used = [SyncQueue];\n"), []);
  });

  it('the circle finder sees a circle through three files and a file importing itself, and none in a chain', () => {
    const graph = new Map([
      ['a.ts', new Set(['b.ts'])],
      ['b.ts', new Set(['c.ts'])],
      ['c.ts', new Set(['a.ts'])],
      ['d.ts', new Set(['a.ts', 'd.ts'])],
      ['e.ts', new Set(['d.ts'])],
    ]);
    assert.deepEqual(rule.circles(graph), [['a.ts', 'b.ts', 'c.ts'], ['d.ts']]);
    assert.deepEqual(rule.circles(new Map([['a.ts', new Set(['b.ts'])], ['b.ts', new Set(['c.ts'])]])), []);
  });
});

describe('layers: files of one job', () => {
  it('no file under src/ is over 600 lines: a longer one holds more than one job', () => {
    const src = path.resolve(__dirname, '../../../src');
    const long: string[] = [];
    const walk = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) {
          walk(p);
        } else if (e.name.endsWith('.ts') && fs.readFileSync(p, 'utf8').split('\n').length - 1 > 600) {
          long.push(path.relative(src, p));
        }
      }
    };
    walk(src);
    assert.ok(fs.existsSync(path.join(src, 'extension.ts')), 'the sources were found');
    assert.deepEqual(long, []);
  });
});
