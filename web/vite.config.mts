import { defineConfig } from 'vite';

/** The console is built into dist/web, which the service serves (src/http/console.ts). */
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    assetsDir: 'assets',
    // No inline scripts or data: modules: the console's CSP allows this origin's files only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    rolldownOptions: {
      // react-router marks its modules "use client" for React Server Components, which the console does not use.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  oxc: { jsx: { runtime: 'automatic' } },
});
