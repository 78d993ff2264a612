/**
 * Wait for an asynchronous condition from Node, e.g. a page.evaluate that reads IndexedDB.
 * Playwright's page.waitForFunction cannot do this: it takes the Promise an async predicate returns
 * as a truthy result and stops waiting at once (the experiments e2e reloaded before its weights
 * were stored that way). Here every check is awaited; a check that throws counts as "not yet".
 */
export async function waitUntil(check: () => Promise<boolean>, o: { timeout: number; every?: number; what: string }): Promise<void> {
  const deadline = Date.now() + o.timeout;
  let last: unknown = null;
  for (;;) {
    try {
      if (await check()) return;
      last = null;
    } catch (e) {
      last = e;
    }
    if (Date.now() >= deadline) throw new Error(`timed out after ${o.timeout} ms waiting for ${o.what}${last ? ` (last check threw: ${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, o.every ?? 250));
  }
}
