// Serve the e2e build (dist-e2e/: the lab plus the fixture pages of tests/browser) and open a page
// in Debian's Chromium: used by the browser benchmarks and the e2e tests alike.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium, type BrowserProfile, type LaunchedBrowser, type LaunchOptions } from './chromium';
import { serveStatic, type StaticServer } from './static-server';

export const DIST = fileURLToPath(new URL('../../../dist-e2e', import.meta.url));

export interface OpenedPage extends LaunchedBrowser {
  server: StaticServer;
}

/** Serve dist-e2e/, launch Chromium with `profile`, navigate to `path`. `close()` stops both. */
export async function openPage(
  profile: BrowserProfile,
  path: string,
  opts: LaunchOptions = {},
): Promise<OpenedPage> {
  if (!existsSync(`${DIST}/index.html`)) throw new Error(`${DIST} not built (run vite build --mode e2e)`);
  const server = await serveStatic(DIST);
  let browser: LaunchedBrowser;
  try {
    browser = await launchChromium(profile, opts);
  } catch (err) {
    await server.close();
    throw err;
  }
  const close = async (): Promise<void> => {
    await browser.close();
    await server.close();
  };
  try {
    await browser.page.goto(server.url + path, { waitUntil: 'load' });
  } catch (err) {
    await close();
    throw err;
  }
  return { ...browser, server, close };
}
