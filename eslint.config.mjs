import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test-host/**', '.vscode-test-runs/**', 'test/fixtures/**', 'bench/.data/**'] },
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
    // The core is pure: it must run in plain Node (CLI, unit tests, benchmarks).
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: 'src/core must not depend on vscode; go through src/host.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', 'scripts/**/*.js', 'bench/**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', URL: 'readonly', fetch: 'readonly', Buffer: 'readonly', performance: 'readonly', window: 'readonly', document: 'readonly' } },
  },
);
