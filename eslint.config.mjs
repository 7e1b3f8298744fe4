// Lint: typescript-eslint's recommended rules, plus the architecture rule that the
// core and the CLI never import `vscode` (style.md: "The core knows nothing of VS Code").
import tseslint from 'typescript-eslint';

// Node's JavaScript realpath folds a link's `..` into the link's text before it resolves the
// links before it, so `a -> b/../c` with `b` a link names another folder than the kernel
// opens: a containment check made with it can pass for a path that leads elsewhere.
const KERNEL_REALPATH = {
  selector: "CallExpression > MemberExpression.callee[object.name='fs'][property.name=/^realpath(Sync)?$/]",
  message:
    'Use realPath or canonicalize (src/core/fs/safeFs.ts), or fs.realpathSync.native: the kernel resolves `..` after a link from its target.',
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'out/**',
      'node_modules/**',
      '.vscode-test/**',
      'test/fixtures/**',
      'examples/**',
      '.tmp/**',
      'media/**',
      '.stryker-tmp*/**',
      'reports/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
      'no-misleading-character-class': 'off',
    },
  },
  {
    files: ['src/core/**/*.ts', 'src/cli/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        KERNEL_REALPATH,
        {
          selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z']",
          message:
            "Import zod as a namespace (`import * as z from 'zod'`): the named import makes esbuild keep all of zod's locales (about 350 KB in dist/core.js).",
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'vscode',
              message: 'The core and the CLI must not depend on VS Code; put editor code in src/extension.',
            },
          ],
        },
      ],
    },
  },
  {
    // Also the stand-ins for VS Code's watchers and the fuzz's view of the disk: where the kernel delivers events.
    files: ['src/extension/**/*.ts', 'test/fuzz/**/*.ts', 'test/unit/helpers/vscodeStandIn.ts'],
    rules: { 'no-restricted-syntax': ['error', KERNEL_REALPATH] },
  },
  {
    files: ['src/extension/review/webview/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['vscode', 'node:*', 'fs', 'path', 'child_process'],
              message: 'Webview code runs in the browser sandbox: DOM only, no vscode, no Node.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'test/harness/**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
