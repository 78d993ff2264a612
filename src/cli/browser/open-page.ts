// Serve the e2e build (dist-e2e/: the lab plus the fixture pages of tests/browser) and open a page
// in Debian's Chromium: used by the browser benchmarks and the e2e tests alike.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium, type BrowserProfile, type LaunchedBrowser, type LaunchOptions } from './chromium';
import { sharingBrowsers } from './shared-browser';
import { serveStatic, type StaticServer } from './static-server';

export const DIST = fileURLToPath(new URL('../../../dist-e2e', import.meta.url));

export interface OpenedPage extends LaunchedBrowser {
  server: StaticServer;
}

const SERVER = Symbol.for('invlab.sharedStaticServer');

/**
 * Where launches share a browser (shared-browser.ts), one server of dist-e2e/ per process too, kept
 * open for the next file (unref'd: it never keeps the process alive); `close()` leaves it running.
 */
async function serveDist(shared: boolean): Promise<{ server: StaticServer; stop: () => Promise<void> }> {
  if (!shared) {
    const server = await serveStatic(DIST);
    return { server, stop: () => server.close() };
  }
  const g = globalThis as { [SERVER]?: Promise<StaticServer> };
  g[SERVER] ??= serveStatic(DIST, 0, {}, { unref: true });
  g[SERVER].catch(() => (g[SERVER] = undefined));
  return { server: await g[SERVER], stop: async () => undefined };
}

/** Serve dist-e2e/, launch Chromium with `profile`, navigate to `path`. `close()` stops both. */
export async function openPage(
  profile: BrowserProfile,
  path: string,
  opts: LaunchOptions = {},
): Promise<OpenedPage> {
  if (!existsSync(`${DIST}/index.html`)) throw new Error(`${DIST} not built (run vite build --mode e2e)`);
  const { server, stop } = await serveDist(sharingBrowsers() && !opts.own);
  let browser: LaunchedBrowser;
  try {
    browser = await launchChromium(profile, opts);
  } catch (err) {
    await stop();
    throw err;
  }
  const close = async (): Promise<void> => {
    await browser.close();
    await stop();
  };
  try {
    await browser.page.goto(server.url + path, { waitUntil: 'load' });
  } catch (err) {
    await close();
    throw err;
  }
  return { ...browser, server, close };
}
