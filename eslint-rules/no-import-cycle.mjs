// Lint rule: no circle of imports between the files of a folder (src/). Two files that import
// each other, directly or around a longer circle, are one job split in two or a seam drawn the
// wrong way; the layer rules hold the folders, this holds the files inside them.
//
// A local rule rather than a plugin's (import/no-cycle): it needs no dependency, resolves the
// imports the way this project writes them (relative, without an extension), and counts a
// type-only import as an edge, as the layers test does for src/core's folders.
//
// The linted file's imports come from its syntax tree (so a text linted as a file, as the tests
// do, is judged as that file); every other file's from the disk, read once per process and
// read again when it changes.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The .ts file a relative import of `from` names, or undefined (a package, or no such file). */
export function resolveImport(from, spec) {
  if (!spec.startsWith('.')) {
    return undefined;
  }
  const target = path.resolve(path.dirname(from), spec.replace(/\.js$/, ''));
  for (const candidate of [`${target}.ts`, path.join(target, 'index.ts'), target]) {
    if (candidate.endsWith('.ts') && fs.existsSync(candidate)) {
      return candidate;
    }
  }
  return undefined;
}

/** Every relative import of a TypeScript text (import, import type, export from, import(), import = require). */
export function importsOf(text) {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName).filter((s) => s.startsWith('.'));
}

function tsFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? tsFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** Per file of a folder: its modification time and the files it imports. */
const known = new Map();

/** The import graph of every .ts file under `dir` (file -> the files it imports), from the disk. */
export function importGraph(dir) {
  const graph = new Map();
  for (const file of tsFiles(dir)) {
    const mtime = fs.statSync(file).mtimeMs;
    let entry = known.get(file);
    if (!entry || entry.mtime !== mtime) {
      const targets = importsOf(fs.readFileSync(file, 'utf8')).map((s) => resolveImport(file, s)).filter(Boolean);
      entry = { mtime, targets: new Set(targets) };
      known.set(file, entry);
    }
    graph.set(file, entry.targets);
  }
  return graph;
}

/** The shortest way from `start` back to `goal` through `graph` (the files on it, `start` first), or undefined. */
export function pathBack(graph, start, goal) {
  const before = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length) {
    const at = queue.shift();
    for (const next of graph.get(at) ?? []) {
      if (next === goal) {
        const way = [at];
        for (let p = before.get(at); p !== undefined; p = before.get(p)) {
          way.unshift(p);
        }
        return way;
      }
      if (!before.has(next)) {
        before.set(next, at);
        queue.push(next);
      }
    }
  }
  return undefined;
}

/** Every circle among the files of `graph`: the groups of files that reach each other (Tarjan's algorithm), each sorted. */
export function circles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const out = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v) === index.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || graph.get(v)?.has(v)) {
        out.push(group.sort());
      }
    }
  };
  for (const v of graph.keys()) {
    if (!index.has(v)) {
      visit(v);
    }
  }
  return out;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Files of a folder import in one direction: no circle of imports.' },
    schema: [{ type: 'object', properties: { root: { type: 'string' } }, additionalProperties: false }],
    messages: { circle: '{{file}} imports {{target}}, which leads back to it ({{way}}): files import in one direction; move what both need to a third file, or pass it in.' },
  },
  create(context) {
    const root = path.resolve(context.cwd, context.options[0]?.root ?? 'src');
    const file = context.filename;
    if (!file.startsWith(root + path.sep)) {
      return {};
    }
    const rel = (p) => path.relative(context.cwd, p).split(path.sep).join('/');
    const check = (node, source) => {
      if (typeof source !== 'string') {
        return;
      }
      const target = resolveImport(file, source);
      if (target === undefined) {
        return;
      }
      const graph = importGraph(root);
      const way = target === file ? [] : pathBack(graph, target, file);
      if (way !== undefined) {
        context.report({ node, messageId: 'circle', data: { file: rel(file), target: rel(target), way: [file, ...way, file].map(rel).join(' -> ') } });
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
      TSImportEqualsDeclaration: (node) => node.moduleReference.type === 'TSExternalModuleReference' && check(node, node.moduleReference.expression.value),
    };
  },
};
