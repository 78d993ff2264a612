/**
 * Content-Security-Policy of the built lab: no inline or foreign script (the one module script and
 * the workers come from the site), WebAssembly compilation allowed for onnxruntime-web
 * ('wasm-unsafe-eval', not 'unsafe-eval'), workers from the site only (ORT's pthreads re-load their
 * own chunk), data:/blob: images for the favicon and chart exports. Inline styles stay allowed:
 * Svelte and d3 set style attributes. Shipped as a <meta> in dist/index.html (vite.config.ts puts it
 * in any static host's copy) and sent as a header (CSP_HEADER) by `vite preview` and by `npm run
 * watch --port` (src/cli/watch/serve.ts); tests/e2e/csp.test.ts loads the lab under it. Plain
 * constants, so that the CLI reads them without loading Vite.
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
