import { readdirSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { codeVersion } from './src/cli/code-version.ts';

// Threaded WASM needs cross-origin isolation (SharedArrayBuffer).
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/**
 * Content-Security-Policy of the built lab: no inline or foreign script (the one module script and
 * the workers come from the site), WebAssembly compilation allowed for onnxruntime-web
 * ('wasm-unsafe-eval', not 'unsafe-eval'), workers from the site only (ORT's pthreads re-load their
 * own chunk), data:/blob: images for the favicon and chart exports. Inline styles stay allowed:
 * Svelte and d3 set style attributes. Shipped as a <meta> in dist/index.html (any static host) and
 * sent as a header (CSP_HEADER) by `vite preview`; tests/e2e/csp.test.ts loads the lab under it.
 */
export const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data: blob:",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');

/**
 * The CSP as a response header: the page may not be framed (clickjacking). A <meta> CSP cannot carry
 * frame-ancestors (browsers ignore it there), so a host must send this header itself (README).
 */
export const CSP_HEADER = `${CSP}; frame-ancestors 'none'`;

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
