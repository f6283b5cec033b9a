import { defineConfig } from 'vite'

// No React plugin: Vite 7's esbuild compiles TSX with the automatic runtime (the plugin's newest versions need
// Vite 8). Assets get content hashes, so the gateway can serve them immutable and the HTML no-cache.
export default defineConfig({
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    // no inline <script> or module preload polyfill: the gateway's CSP allows scripts from 'self' only
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    rollupOptions: {
      // TanStack's 'use client' directives mean nothing without server components
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning)
      },
    },
  },
  server: { proxy: { '/api': { target: 'http://127.0.0.1:8080', ws: true } } },
})
