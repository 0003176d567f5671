import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import noImportCycle from './eslint-rules/no-import-cycle.mjs';

const HOST_ONLY = ['fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'child_process', 'node:child_process', 'os', 'node:os'].map((name) => ({
  name,
  message: 'Only src/host touches files and processes; go through the Workspace seam.',
}));

/** `vscode` itself, refused in a layer that must run without the editor. */
const VSCODE_MODULE = (layerDir) => ({ name: 'vscode', message: `${layerDir} must not depend on vscode; go through src/host.` });

/**
 * A relative import that climbs out of `layerDir` into one of `dirs` (the src/ folders it
 * may not use). Imports inside src/ are relative, so `../` (any number) then the folder.
 */
const layer = (layerDir, dirs) => ({
  regex: `^(\\.\\./)+(${dirs.join('|')})(/|$)`,
  message: `${layerDir} must not import src/${dirs.length === 1 ? dirs[0] : `{${dirs.join(',')}}`}: the layers are core <- host <- services <- tools <- vscode, mcp, approval, commands.`,
});

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test-host/**', '.mcp-test-clients/**', '.vscode-test-runs/**', 'test/fixtures/**', 'bench/.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      curly: 'error',
      eqeqeq: ['error', 'always'],
      'no-throw-literal': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // `import { z }` takes zod's whole namespace object, which no bundler can trim (450 KB).
      'no-restricted-syntax': [
        'error',
        { selector: "ImportDeclaration[source.value='zod'] > ImportSpecifier[imported.name='z']", message: "Use `import * as z from 'zod'` so the bundle keeps only what is used." },
      ],
    },
  },
  {
    // No circle of imports between the files of src/ (eslint-rules/no-import-cycle.mjs).
    files: ['src/**/*.ts'],
    plugins: { local: { rules: { 'no-import-cycle': noImportCycle } } },
    rules: { 'local/no-import-cycle': ['error', { root: 'src' }] },
  },
  {
    // Files and processes are reached only through the host seam (src/host), so every tool
    // runs the same on VS Code's file system, on node:fs, and in tests.
    files: ['src/**/*.ts'],
    ignores: ['src/host/**', 'src/core/**', 'src/services/**', 'src/tools/**'],
    rules: { 'no-restricted-imports': ['error', { paths: HOST_ONLY }] },
  },
  {
    // The tools run headless (CLI, tests) as well as in VS Code: the editor is reached
    // through the host seam and the Approver interface, never directly.
    files: ['src/tools/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [VSCODE_MODULE('src/tools'), ...HOST_ONLY], patterns: [layer('src/tools', ['vscode', 'mcp', 'approval', 'commands'])] },
      ],
    },
  },
  {
    // The services the tools share sit below them: they never reach a tool.
    files: ['src/services/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [VSCODE_MODULE('src/services'), ...HOST_ONLY], patterns: [layer('src/services', ['tools', 'vscode', 'mcp', 'approval', 'commands'])] },
      ],
    },
  },
  {
    // The MCP server sits in the layer of src/vscode, beside the vscode.lm adapter: it serves the
    // tools through the same run path. All of it but window.ts (the VS Code side: status bar,
    // commands, settings) is loaded by the headless CLI too, so it never reaches the editor.
    files: ['src/mcp/**/*.ts'],
    ignores: ['src/mcp/window.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [VSCODE_MODULE('src/mcp (but window.ts)'), ...HOST_ONLY], patterns: [layer('src/mcp (but window.ts)', ['vscode', 'approval', 'commands', 'history'])] },
      ],
    },
  },
  {
    // The host seam serves the tools; it never calls back into them.
    files: ['src/host/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [layer('src/host', ['services', 'tools', 'vscode', 'mcp', 'approval', 'commands'])] }] },
  },
  {
    // The core is pure: it must run in plain Node (CLI, unit tests, benchmarks). Loops
    // between its folders are caught by test/unit/layers.test.ts, which reads the graph.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [VSCODE_MODULE('src/core'), ...HOST_ONLY], patterns: [layer('src/core', ['host', 'services', 'tools', 'vscode', 'mcp', 'approval', 'commands'])] },
      ],
    },
  },
  {
    // The Agent-mode suite's Scripted Model: a CommonJS extension loaded as is by VS Code.
    files: ['test/agent/scripted-model/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', process: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.mjs', 'scripts/**/*.js', 'bench/**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', URL: 'readonly', fetch: 'readonly', Buffer: 'readonly', performance: 'readonly', window: 'readonly', document: 'readonly' } },
  },
);
