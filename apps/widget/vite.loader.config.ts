import { defineConfig } from 'vite'

// The loader: src/loader/loader.ts as one minified IIFE, dist/widget.js (served at /widget.js, budget 3 KB gzip).
// Library mode so nothing but the script itself is emitted; dist/frame/ (the other build) is left in place.
export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: false,
    minify: 'esbuild',
    target: 'es2020',
    copyPublicDir: false,
    lib: {
      entry: 'src/loader/loader.ts',
      formats: ['iife'],
      name: 'SwitchboardWidget',
      fileName: () => 'widget.js',
    },
  },
})
