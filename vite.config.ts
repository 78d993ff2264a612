import { readdirSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// Threaded WASM needs cross-origin isolation (SharedArrayBuffer).
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

const page = (p: string): string => fileURLToPath(new URL(p, import.meta.url));

// Every tests/browser/*.html is a fixture page for the browser e2e tests (probe.html: the engine
// probe; engine.html: the engine check; views.html: the chart views). They are built next to the lab as dist/tests/browser/<name>.html.
const fixtures = Object.fromEntries(
  readdirSync(page('./tests/browser'))
    .filter((f) => f.endsWith('.html'))
    .map((f) => [`test-${basename(f, '.html')}`, page(`./tests/browser/${f}`)]),
);

export default defineConfig({
  base: './',
  plugins: [svelte()],
  optimizeDeps: { exclude: ['onnxruntime-web'] },
  server: { headers: isolation },
  preview: { headers: isolation },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 30000,
    rollupOptions: {
      input: {
        // The lab.
        main: page('./index.html'),
        ...fixtures,
      },
    },
  },
});
