import { defineConfig } from 'vitest/config'

// End-to-end tests drive headless Chromium against a real `hermes serve`;
// scripts/e2e.sh builds the binary and passes it in HERMES_BIN.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
})
