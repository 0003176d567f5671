import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
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

/** The loops among `edges` (strongly connected groups of more than one unit), by Tarjan's algorithm. */
function loops(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) {
        out.push(group.sort());
      }
    }
  };
  for (const v of edges.keys()) {
    if (!index.has(v)) {
      visit(v);
    }
  }
  return out;
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
