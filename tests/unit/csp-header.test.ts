// Issue 16 §5: the CSP sent as a header forbids framing (frame-ancestors 'none'); the <meta> copy
// cannot carry that directive (browsers ignore it there), so it is left out of the page.
import { describe, expect, it } from 'vitest';
import config, { CSP, CSP_HEADER } from '../../vite.config';

describe('CSP header', () => {
  it("vite preview sends the CSP with frame-ancestors 'none'; the page's <meta> has the rest", () => {
    const resolved = typeof config === 'function' ? config({ mode: 'production', command: 'serve', isPreview: true }) : config;
    const header = (resolved as { preview?: { headers?: Record<string, string> } }).preview?.headers?.['Content-Security-Policy'];
    expect(header).toBe(CSP_HEADER);
    expect(header).toMatch(/(^|; )frame-ancestors 'none'$/);
    expect(header!.startsWith(CSP)).toBe(true);
    expect(CSP).not.toMatch(/frame-ancestors/);
  });
});
