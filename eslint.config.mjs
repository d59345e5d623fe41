// `npm run lint`. Syntax rules only: no type-aware rules, so a lint of the whole tree stays fast.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  { ignores: ['dist/**', '.cache/**'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // `const { omitted: _omitted, ...rest } = x` is how the tree leaves a field out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // undici's dispatchers are required from their own modules to skip its index (src/core/transport/agents.ts);
      // those modules have no typings an `import` could use.
      '@typescript-eslint/no-require-imports': ['error', { allow: ['^undici/lib/'] }],
      // A `let` that closures read before its one assignment (src/webview/app.ts's tabs) cannot be a const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Plain CommonJS run by node as they are (build, start and host scripts): require is their import.
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['test/**'],
    languageOptions: { globals: { ...globals.mocha } },
  },
);
