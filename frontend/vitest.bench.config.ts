import { defineConfig } from 'vitest/config'

// The UI benchmark (bench/ui.sh): headless Chromium against a real
// `hermes serve`; it writes its figures to HERMES_BENCH_OUT.
export default defineConfig({
  test: {
    include: ['bench/**/*.perf.ts'],
    environment: 'node',
    testTimeout: 300_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
})
