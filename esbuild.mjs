// Bundles the extension (dist/extension.js, which loads dist/extension-main.js), the headless CLI (dist/cli.js, with a bundle per tool: dist/cli-NAME.js, the MCP server's: dist/cli-mcp.js, and the input schemas: dist/cli-schemas.js), the MCP server with its SDK (dist/mcp-server.js), the task thread (dist/taskWorker.js) and the parse thread (dist/treeSitterWorker.js), and writes each tool's input schema as JSON (dist/schemas/NAME.json).
// Type-checking is separate (`npm run typecheck`); esbuild only transpiles.
import fs from 'node:fs';
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Prints errors in the form of VS Code's `$esbuild-watch` problem matcher. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

/**
 * pdf.js is most of the code but only needed once a PDF is read: the main bundles load it
 * from its own files next to them (dist/pdfjs.js, dist/pdfjs-worker.js) on first use, so
 * activation and the CLI's start stay light.
 */
const PDFJS = { 'pdfjs-dist/legacy/build/pdf.mjs': './pdfjs.js', 'pdfjs-dist/legacy/build/pdf.worker.mjs': './pdfjs-worker.js' };
const pdfjsApart = {
  name: 'pdfjs-apart',
  setup(build) {
    build.onResolve({ filter: /^pdfjs-dist\/legacy\/build\/pdf(\.worker)?\.mjs$/ }, (args) => ({ path: PDFJS[args.path], external: true }));
  },
};

/**
 * The CLI's entry holds its flags and the tools' names only; each tool's runner is its own
 * bundle beside it (src/cli/NAME.ts to dist/cli-NAME.js), loaded when that tool is called:
 * starting the CLI costs parsing what the call uses, not every tool's engine and schema.
 */
const CLI_TOOLS = ['fs_read', 'fs_list', 'fs_glob', 'fs_grep', 'fs_edit', 'fs_write', 'fs_apply_patch'];
const cliToolsApart = {
  name: 'cli-tools-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/cli\/(fs_\w+|mcp)\.js$/ }, (args) => ({ path: `./cli-${args.path.slice('./cli/'.length)}`, external: true }));
  },
};

/**
 * The MCP server and its SDK (src/mcp/serve.ts) are a bundle of their own (dist/mcp-server.js),
 * loaded when a server starts (src/mcp/load.ts): the extension's activation with the setting
 * off, and every CLI call but `mcp`, never parse them.
 */
const mcpServerApart = {
  name: 'mcp-server-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/serve\.js$/ }, (args) => (args.importer.endsWith('load.ts') ? { path: './mcp-server.js', external: true } : undefined));
  },
};

/**
 * The tools' input schemas, and zod with them, are built only for input the tool's quick
 * check does not take (src/tools/lazySchemas.ts): in the CLI they are a bundle of their own
 * (dist/cli-schemas.js), so a valid call neither parses nor builds them.
 */
const schemasApart = {
  name: 'schemas-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/schemas$/ }, (args) => (args.importer.endsWith('lazySchemas.ts') ? { path: './cli-schemas.js', external: true } : undefined));
  },
};

/**
 * file-type (naming a binary file's type) is loaded on the first binary file a CLI call
 * meets: from its own file beside the bundles (dist/file-type.js), so a call that meets
 * none does not parse it.
 */
const fileTypeApart = {
  name: 'file-type-apart',
  setup(build) {
    build.onResolve({ filter: /^file-type$/ }, () => ({ path: './file-type.js', external: true }));
  },
};

/**
 * tree-sitter (outlines where no language server answers) is loaded the same way: its
 * runtime and the grammars the outline reads are copied to dist/tree-sitter/, and the
 * bundles import the runtime from there on the first outline.
 */
const TREE_SITTER_DIR = 'node_modules/@vscode/tree-sitter-wasm/wasm';
const TREE_SITTER_FILES = ['tree-sitter.js', 'tree-sitter.wasm', ...['typescript', 'tsx', 'javascript', 'python', 'go', 'rust', 'java', 'c-sharp', 'cpp'].map((l) => `tree-sitter-${l}.wasm`)];
const treeSitterApart = {
  name: 'tree-sitter-apart',
  setup(build) {
    build.onResolve({ filter: /^@vscode\/tree-sitter-wasm$/ }, () => ({ path: './tree-sitter/tree-sitter.js', external: true }));
  },
};
function copyTreeSitter() {
  fs.mkdirSync('dist/tree-sitter', { recursive: true });
  for (const f of TREE_SITTER_FILES) fs.copyFileSync(`${TREE_SITTER_DIR}/${f}`, `dist/tree-sitter/${f}`);
}

/**
 * `vscode` is reached through one module of the bundle that re-exports it: esbuild gives
 * every module that imports an external module its own copy of that module's names, and
 * the vscode API has hundreds, so 19 copies cost the window's first call 10 to 20 ms.
 */
const vscodeOnce = {
  name: 'vscode-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) => (args.namespace === 'vscode-once' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-once' }));
    build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({ contents: 'export * from "vscode";', loader: 'js' }));
  },
};

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  plugins: watch ? [problemMatcher] : [],
};

const builds = [
  // the entry is small: it loads the extension itself through V8's cached data (src/extension.ts), and code so compiled has no import()
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { ...common, entryPoints: ['src/extensionMain.ts'], outfile: 'dist/extension-main.js', plugins: [...common.plugins, vscodeOnce, pdfjsApart, treeSitterApart, mcpServerApart], supported: { 'dynamic-import': false } },
  { ...common, entryPoints: ['src/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' }, plugins: [...common.plugins, cliToolsApart],
    // a runner is loaded with require: import() of a CommonJS file would first scan the whole bundle for its exports
    supported: { 'dynamic-import': false } },
  // import() becomes require here too: on Node 20 the CLI compiles a tool's bundle itself, from V8's cached data (src/host/compileCache.ts), and code
  // so compiled has no import(); the files the bundles load (file-type, PDF.js, tree-sitter) are CommonJS
  ...CLI_TOOLS.map((name) => ({ ...common, entryPoints: [`src/cli/${name}.ts`], outfile: `dist/cli-${name}.js`, plugins: [...common.plugins, pdfjsApart, fileTypeApart, treeSitterApart, schemasApart], supported: { 'dynamic-import': false } })),
  { ...common, entryPoints: ['src/tools/schemas.ts'], outfile: 'dist/cli-schemas.js' },
  // `agent-file-tools mcp`: every tool, and the server from dist/mcp-server.js
  { ...common, entryPoints: ['src/cli/mcp.ts'], outfile: 'dist/cli-mcp.js', plugins: [...common.plugins, pdfjsApart, fileTypeApart, treeSitterApart, schemasApart, mcpServerApart], supported: { 'dynamic-import': false } },
  { ...common, entryPoints: ['src/mcp/serve.ts'], outfile: 'dist/mcp-server.js' },
  { ...common, sourcemap: false, entryPoints: ['node_modules/file-type/index.js'], outfile: 'dist/file-type.js' },
  // The thread tasks run on (regex matches, PDF text), loaded by path next to the bundles that start it.
  { ...common, entryPoints: ['src/host/taskWorker.ts'], outfile: 'dist/taskWorker.js', plugins: [...common.plugins, pdfjsApart] },
  // The thread outlines are parsed on, started by path from the bundles that outline (src/host/treeSitter.ts).
  { ...common, entryPoints: ['src/host/treeSitterWorker.ts'], outfile: 'dist/treeSitterWorker.js', plugins: [...common.plugins, treeSitterApart] },
  { ...common, sourcemap: false, entryPoints: ['node_modules/pdfjs-dist/legacy/build/pdf.mjs'], outfile: 'dist/pdfjs.js' },
  { ...common, sourcemap: false, entryPoints: ['node_modules/pdfjs-dist/legacy/build/pdf.worker.mjs'], outfile: 'dist/pdfjs-worker.js' },
];

/**
 * Each tool's input schema, as the manifest gives it to the model, in a file of its own
 * (dist/schemas/NAME.json): the manifest's jsonValidation points the JSON language features at
 * them, so a Run a Tool input (`NAME.input.json`) is checked as the person types it.
 */
function writeInputSchemas() {
  const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8'));
  fs.mkdirSync('dist/schemas', { recursive: true });
  for (const t of manifest.contributes.languageModelTools) fs.writeFileSync(`dist/schemas/${t.name}.json`, `${JSON.stringify(t.inputSchema, null, 2)}\n`);
}

copyTreeSitter();
writeInputSchemas();
if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
