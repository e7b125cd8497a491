// ESLint (flat config): typescript-eslint's recommended rules over the product and its tests.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test/vscode-host/**', 'shared/validators/**', '.data/**', 'out/**', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.mjs', '**/*.cjs'],
    rules: {
      // Unused names are already errors in tsc (noUnusedLocals/Parameters); `_name` marks one kept on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // A `let` read by a closure before its one assignment (the client and its status) must stay a `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Rooms small enough to read whole: a function over 80 lines of code is split into named steps.
    // A spec's describe() body is a list of cases, not a room, so specs are left out.
    files: ['shared/**/*.ts', 'quota-api/**/*.ts', 'server/**/*.ts', 'cli/**/*.ts', 'client/**/*.ts', 'scripts/**/*.{ts,mjs,cjs}'],
    ignores: ['**/*.test.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }] },
  },
  {
    // vscode-languageserver's values come from server/lsp.ts: the bundler copies the CommonJS package once per importing module.
    files: ['server/**/*.ts'],
    ignores: ['server/lsp.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode-languageserver', message: "Import its values from server/lsp.ts (add them there); types may come from 'vscode-languageserver'.", allowTypeImports: true }] },
      ],
    },
  },
  {
    // The bin stubs and CommonJS scripts load their targets with require(): that is their job.
    files: ['**/*.cjs', 'bin/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', process: 'readonly' } },
  },
);
