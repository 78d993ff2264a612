/**
 * One Chromium per process and per set of flags, shared by the pages the e2e tests open: each
 * `launchChromium` / `openPage` call gets a fresh `browser.newContext()` (its own storage, cookies,
 * permissions and viewport, nothing kept from another call) instead of a browser of its own. Starting
 * Chromium cost about 2 s of CPU each time, a new context about 0.5 s (docs/testing.md).
 *
 * On only where `INVLAB_SHARED_BROWSER=1` (vitest.config.ts sets it for the e2e project): benchmarks
 * launch their own browser as users run it. A test that needs a browser of its own (a profile
 * directory it reads, flags of its own, a crash) passes `own: true`.
 *
 * The browsers are kept on `globalThis`, so that the test files one vitest worker process runs one
 * after another share them (vitest re-evaluates a test's modules for each file), and closed when the
 * process exits (playwright-core also kills the browsers it launched on exit).
 */
import { chromium, type Browser } from 'playwright-core';

const KEY = Symbol.for('invlab.sharedBrowsers');

type Pool = Map<string, Promise<Browser>>;

function pool(): Pool {
  const g = globalThis as { [KEY]?: Pool };
  if (!g[KEY]) {
    const made: Pool = new Map();
    g[KEY] = made;
    // graceful close when the worker process runs out of work; playwright-core's own exit handler
    // kills whatever is left when the process exits without it
    process.once('beforeExit', () => void closeSharedBrowsers());
  }
  return g[KEY];
}

/** Whether launches share a browser (the e2e project sets `INVLAB_SHARED_BROWSER=1`). */
export function sharingBrowsers(): boolean {
  return process.env.INVLAB_SHARED_BROWSER === '1';
}

/** The shared browser launched with exactly `args` (launched on first use, relaunched if it went away). */
export function sharedBrowser(executablePath: string, args: string[]): Promise<Browser> {
  const browsers = pool();
  const key = [executablePath, ...args].join('\n');
  const known = browsers.get(key);
  if (known) return known;
  const launched = chromium.launch({ executablePath, headless: true, ignoreDefaultArgs: ['--headless'], args, timeout: 60_000 }).then((browser) => {
    browser.on('disconnected', () => {
      if (browsers.get(key) === launched) browsers.delete(key);
    });
    return browser;
  });
  launched.catch(() => {
    if (browsers.get(key) === launched) browsers.delete(key);
  });
  browsers.set(key, launched);
  return launched;
}

/** Close every shared browser of this process. */
export async function closeSharedBrowsers(): Promise<void> {
  const browsers = pool();
  const all = [...browsers.values()];
  browsers.clear();
  await Promise.all(all.map((b) => b.then((browser) => browser.close()).catch(() => undefined)));
}
