// typescript-eslint with type information over hand-written and generated code. Formatting is
// prettier's job (`npm run format:check`), so no stylistic rules here. The typed rules run over
// src/ and generated/src in one program, tsconfig.eslint.json's (tsconfig.json's options,
// @evgen/runtime seen through its sources): a second program for generated/ made a cold run
// slower, and needed the runtime's declarations built first. test/ is linted without type
// information: its imports (vitest, fast-check, ts-morph, the OpenTelemetry SDK) made the
// program much larger; its types are checked by `npm run typecheck` (tsconfig.json includes test/).
import tseslint from 'typescript-eslint';

// Buffer's per-encoding methods (utf8Slice, latin1Write…) are Node internals: not documented,
// free to change. buf.toString(encoding, start, end) and buf.write are.
const UNDOCUMENTED_BUFFER = {
  selector:
    'MemberExpression > Identifier.property[name=/^(utf8|latin1|ascii|ucs2|hex|base64|base64url)(Slice|Write)$/]',
  message: 'Undocumented Buffer method: use buf.toString(encoding, start, end) or buf.write.',
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '.bench/**',
      '.scratch/**',
      'coverage/**',
      '.build*/**',
    ],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: ['./tsconfig.eslint.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-restricted-syntax': ['error', UNDOCUMENTED_BUFFER],
    },
  },
  {
    // The packages' surfaces are named on purpose (api/*.api.md): a barrel lists its exports.
    files: ['src/runtime/**/*.ts', 'generated/src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        UNDOCUMENTED_BUFFER,
        {
          selector: 'ExportAllDeclaration',
          message: 'Named exports only: list the names (the API report shows each one).',
        },
      ],
    },
  },
  {
    // Untyped: the JavaScript files, and test/ (see the top of this file).
    files: ['**/*.js', '**/*.mjs', 'test/**/*.ts'],
    ...tseslint.configs.disableTypeChecked,
  },
);
