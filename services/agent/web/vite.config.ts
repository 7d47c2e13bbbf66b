/**
 * Builds the chat page (web/) into dist/web, which `src/http.ts` serves at `/`.
 * `base: './'` keeps every asset URL relative, so the page works behind any path prefix.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
  },
});
