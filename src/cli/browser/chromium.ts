/**
 * Launch Debian's Chromium (never a downloaded browser) through playwright-core.
 *
 * Two profiles:
 * - `webgpu`: SwiftShader WebGPU adapter, no GPU needed (WEBGPU_FLAGS below). Do NOT add
 *   `--use-angle=swiftshader` here: with `--use-webgpu-adapter=swiftshader` requestAdapter() hangs.
 * - `nogpu`: WebGPU disabled (`navigator.gpu` absent), to exercise the WASM fallback.
 * - `gpu`: the machine's real GPU through Vulkan (for benchmarks on a machine that has one).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { sharedBrowser, sharingBrowsers } from './shared-browser';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const BASE_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

/**
 * Chromium reads only the LAST `--disable-features=` and the last `--enable-features=` of its command
 * line, and playwright-core puts its own lists before the arguments it is given: a profile's switch
 * replaced playwright's whole list, and one more in INVLAB_CHROMIUM_ARGS would replace the profile's.
 * `withFeatureSwitches` folds them into one of each, starting from playwright-core 1.65's own lists
 * (restated here because ours replaces them; tests/e2e/browser-flags.test.ts compares them with the
 * command line the browser really got).
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades', 'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay', 'MediaRouter', 'PaintHolding', 'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin', 'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch',
  'msForceBrowserSignIn', 'msEdgeUpdateLaunchServicesPreferredVersion',
];
const PLAYWRIGHT_ENABLED_FEATURES = ['CDPScreenshotNewSurface', 'SkipListAccountsWithoutGaiaCookies'];

/**
 * The address bar's suggestion popups: Chromium 156 renders them as two WebUI pages in a renderer of
 * their own for every new window, and a browser context is one. That renderer cost about 1.7 s of CPU
 * per context, 30 % of opening a lab page (docs/testing.md); headless, nobody ever sees the popup.
 */
const OMNIBOX_POPUP_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

const DISABLE = '--disable-features=';
const ENABLE = '--enable-features=';

/** `args` with every feature switch folded into one `--disable-features` and one `--enable-features` (see above). */
export function withFeatureSwitches(args: readonly string[]): string[] {
  const listed = (prefix: string, base: string[]) => [...new Set([...base, ...args.filter((a) => a.startsWith(prefix)).flatMap((a) => a.slice(prefix.length).split(','))])].filter(Boolean);
  const disabled = listed(DISABLE, [...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUP_FEATURES]);
  const enabled = listed(ENABLE, PLAYWRIGHT_ENABLED_FEATURES).filter((f) => !disabled.includes(f));
  return [...args.filter((a) => !a.startsWith(DISABLE) && !a.startsWith(ENABLE)), DISABLE + disabled.join(','), ENABLE + enabled.join(',')];
}

export const WEBGPU_FLAGS = [
  ...BASE_FLAGS,
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-webgpu-adapter=swiftshader',
  '--enable-unsafe-swiftshader',
];

export const REAL_GPU_FLAGS = [...BASE_FLAGS, '--enable-unsafe-webgpu', '--enable-features=Vulkan', '--ignore-gpu-blocklist'];

export const NO_WEBGPU_FLAGS = [...BASE_FLAGS, '--disable-webgpu', '--disable-features=WebGPU'];

export type BrowserProfile = 'webgpu' | 'nogpu' | 'gpu';

export interface LaunchedBrowser {
  context: BrowserContext;
  page: Page;
  /** Console messages of type error, and uncaught page errors, in order. */
  errors: string[];
  /** Every console message as `type: text`. */
  console: string[];
  /** `status url` of every HTTP response with status >= 400 (favicon.ico excluded). */
  httpErrors: string[];
  /**
   * The profile directory (it names the browser's processes: process-memory.ts); '' for a context of
   * a shared browser (shared-browser.ts), whose profile is playwright's.
   */
  userDataDir: string;
  close(): Promise<void>;
}

export interface LaunchOptions {
  viewport?: { width: number; height: number };
  /** Extra Chromium flags appended after the profile's. */
  args?: string[];
  /**
   * A browser of its own even where launches share one (`INVLAB_SHARED_BROWSER=1`, shared-browser.ts):
   * for a test that crashes or restarts the browser, or reads its profile directory.
   */
  own?: boolean;
}

/**
 * Flags from `INVLAB_CHROMIUM_ARGS` (space-separated). The e2e tests set it in vitest.config.ts
 * (`--js-flags=--liftoff-only`, see docs/testing.md); benchmarks leave it unset and measure the
 * browser as users run it.
 */
function extraArgs(): string[] {
  return (process.env.INVLAB_CHROMIUM_ARGS ?? '').split(' ').filter(Boolean);
}

/**
 * A fresh context: with `INVLAB_SHARED_BROWSER=1` (the e2e tests) a new context of this process's
 * shared browser for these flags (shared-browser.ts), else (or with `own`) a persistent context with
 * a fresh user-data-dir of its own (removed on close). Either way nothing is kept from another call.
 */
export async function launchChromium(
  profile: BrowserProfile,
  opts: LaunchOptions = {},
): Promise<LaunchedBrowser> {
  const flags = { webgpu: WEBGPU_FLAGS, nogpu: NO_WEBGPU_FLAGS, gpu: REAL_GPU_FLAGS }[profile];
  const args = withFeatureSwitches([...flags, ...extraArgs(), ...(opts.args ?? [])]);
  const viewport = opts.viewport ?? { width: 1280, height: 720 };
  if (sharingBrowsers() && !opts.own) {
    const browser = await sharedBrowser(CHROMIUM_PATH, args);
    const context = await browser.newContext({ viewport });
    return watched(context, await context.newPage(), '', async () => {
      await context.close().catch(() => undefined);
    });
  }
  const userDataDir = mkdtempSync(join(tmpdir(), `invlab-chromium-${profile}-`));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      ignoreDefaultArgs: ['--headless'],
      args,
      viewport,
      timeout: 60_000,
    });
  } catch (err) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw err;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  return watched(context, page, userDataDir, async () => {
    await context.close().catch(() => undefined);
    rmSync(userDataDir, { recursive: true, force: true });
  });
}

/** The handle of a context: its first page, and the errors, console lines and HTTP errors of every page of it. */
function watched(context: BrowserContext, page: Page, userDataDir: string, close: () => Promise<void>): LaunchedBrowser {
  const errors: string[] = [];
  const consoleLines: string[] = [];
  const httpErrors: string[] = [];
  const watch = (p: Page): void => {
    p.on('console', (m) => {
      consoleLines.push(`${m.type()}: ${m.text()}`);
      if (m.type() === 'error') errors.push(m.text());
    });
    p.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    p.on('response', (r) => {
      if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) {
        httpErrors.push(`${r.status()} ${r.url()}`);
      }
    });
  };
  watch(page);
  context.on('page', watch);
  return { context, page, errors, console: consoleLines, httpErrors, userDataDir, close };
}
