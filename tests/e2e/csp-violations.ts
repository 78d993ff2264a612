// Content-Security-Policy violations a page reports, recorded from before its first script runs.
import type { BrowserContext, Page } from 'playwright-core';

/** Every page of the context records its `securitypolicyviolation` events (directive and blocked URI). */
export async function recordCspViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
}

/** The violations the page recorded so far. */
export const cspViolations = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
