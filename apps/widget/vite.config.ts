import { defineConfig } from 'vite'

// The chat app of the frame (index.html → src/app/main.tsx) into dist/frame/, served by the gateway at /widget/.
// No Preact plugin: esbuild compiles TSX with the automatic runtime and tsconfig's jsxImportSource (preact).
// base './': the frame's HTML links its assets relatively, so /widget/ works behind any prefix. Assets get content
// hashes, so the gateway serves them immutable and the HTML no-cache. The loader is built by vite.loader.config.ts.
export default defineConfig({
  base: './',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: 'dist/frame',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    // no inline <script> or module preload polyfill: the frame's CSP allows scripts from 'self' only
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
  server: { proxy: { '/api': { target: 'http://127.0.0.1:8080', ws: true }, '/public': 'http://127.0.0.1:8080' } },
})
