// The frontend's lint; scripts/test.sh runs it (npm run lint) and allows no
// finding. ESLint's and typescript-eslint's recommended rules with the
// type-aware ones (a promise left floating or passed where nothing awaits
// it, a value of type any spreading, an assertion that asserts nothing), and
// React's rules of hooks. Not the React Compiler's rules of the plugin's
// preset: this code is not compiled by it.
import js from '@eslint/js'
import { defineConfig } from 'eslint/config'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

export default defineConfig(
  // types.gen.ts is written by backend/api/tsgen, whose test holds it to
  // its Go source; its unions with string are on purpose (a newer backend's
  // values). tsc still checks it.
  { ignores: ['dist/', 'src/api/types.gen.ts'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // const { a, ...rest } = x is how a field is left out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  { files: ['**/*.js'], extends: [tseslint.configs.disableTypeChecked] },
)
