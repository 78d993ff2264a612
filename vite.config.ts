import { readdirSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { codeVersion } from './src/cli/code-version.ts';
import { CSP, CSP_HEADER } from './src/cli/csp.ts';

// Threaded WASM needs cross-origin isolation (SharedArrayBuffer).
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

// The lab's Content-Security-Policy (src/cli/csp.ts): a <meta> in the built page, a header from `vite preview`.
export { CSP, CSP_HEADER };

/** The CSP <meta> in the built lab page only (the dev server injects its own client script). */
const cspMeta = (): Plugin => ({
  name: 'invlab-csp',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler: (html, ctx) => (ctx.filename.endsWith('/index.html') && !ctx.filename.includes('/tests/') ? html.replace('<head>', `<head>\n    <meta http-equiv="Content-Security-Policy" content="${CSP}" />`) : html),
  },
});

const page = (p: string): string => fileURLToPath(new URL(p, import.meta.url));

// Every tests/browser/*.html is a fixture page for the browser e2e tests (probe.html: the engine
// probe; engine.html: the engine check; views.html: the chart views). Only the e2e build
// (`vite build --mode e2e`, run by tests/global-setup.ts) includes them, next to the lab as
// dist-e2e/tests/browser/<name>.html; the shipped dist/ holds the lab alone.
export const E2E_MODE = 'e2e';
export const E2E_OUT_DIR = 'dist-e2e';
const fixtures = () =>
  Object.fromEntries(
    readdirSync(page('./tests/browser'))
      .filter((f) => f.endsWith('.html'))
      .map((f) => [`test-${basename(f, '.html')}`, page(`./tests/browser/${f}`)]),
  );

export default defineConfig(({ mode }) => ({
  base: './',
  plugins: [svelte(), cspMeta()],
  // bundles the page writes name the code that trained them (package version + git commit)
  define: { 'import.meta.env.VITE_CODE_VERSION': JSON.stringify(codeVersion()) },
  optimizeDeps: { exclude: ['onnxruntime-web'] },
  server: { headers: isolation },
  preview: { headers: { ...isolation, 'Content-Security-Policy': CSP_HEADER } },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: mode === E2E_MODE ? E2E_OUT_DIR : 'dist',
    chunkSizeWarningLimit: 30000,
    rollupOptions: {
      input: {
        // The lab.
        main: page('./index.html'),
        ...(mode === E2E_MODE ? fixtures() : {}),
      },
    },
  },
}));
