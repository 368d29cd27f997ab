import { defineConfig } from 'vitest/config'

const api = process.env.HERMES_API ?? 'http://127.0.0.1:7777'

// React's JSX goes through esbuild's automatic runtime, so no React plugin is
// needed; the build is the same inside the Wails window and in a browser.
export default defineConfig({
  esbuild: { jsx: 'automatic' },
  base: './',
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
  server: {
    // `npm run dev` talks to a running `hermes serve` for the API, which
    // answers only to its own Host and takes changes only from its own Origin.
    proxy: { '/api': { target: api, changeOrigin: true, headers: { origin: api } } },
  },
  test: {
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
  },
})
