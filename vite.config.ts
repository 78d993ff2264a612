import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// Threaded WASM needs cross-origin isolation (SharedArrayBuffer).
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

const page = (p: string): string => fileURLToPath(new URL(p, import.meta.url));

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
        // Engine probe for browser e2e tests (tests/browser/probe.html).
        probe: page('./tests/browser/probe.html'),
        // LineChart fixture for browser e2e tests.
        charts: page('./tests/browser/charts.html'),
      },
    },
  },
});
