/**
 * The feature switches the browser really got (its command line, as chrome://version shows it):
 * Chromium reads only the last `--disable-features` / `--enable-features`, so the last of each must
 * hold every feature an earlier one named (playwright-core's lists come first) and the profile's own.
 * And no context starts the address bar's popup pages, a renderer that cost 1.7 s of CPU per context.
 */
import { describe, expect, it } from 'vitest';
import { launchChromium, type BrowserProfile } from '../../src/cli/browser/chromium';

const features = (commandLine: string[], prefix: string) => commandLine.filter((a) => a.startsWith(prefix)).map((a) => a.slice(prefix.length).split(','));

describe.each<[BrowserProfile, string[], string[]]>([
  ['nogpu', ['WebGPU'], []],
  ['webgpu', [], ['Vulkan']],
])('%s profile', (profile, disabled, enabled) => {
  it('the last feature switches hold every feature named before them, and no context starts the omnibox popup', async () => {
    const h = await launchChromium(profile);
    try {
      await h.page.goto('chrome://version');
      const commandLine = (await h.page.locator('#command_line').innerText()).split(/\s+/);
      for (const [prefix, own] of [['--disable-features=', [...disabled, 'WebUIOmniboxPopup']], ['--enable-features=', enabled]] as const) {
        const lists = features(commandLine, prefix);
        expect(lists.length).toBeGreaterThan(1); // playwright-core's and ours
        expect(lists.at(-1)).toEqual(expect.arrayContaining([...new Set([...lists.flat(), ...own])]));
      }
      const cdp = await h.context.newCDPSession(h.page); // a persistent context (INVLAB_SHARED_BROWSER=0) has no Browser to ask
      const { targetInfos } = await cdp.send('Target.getTargets');
      await cdp.detach();
      expect(targetInfos.filter((t) => t.type !== 'page').map((t) => t.url)).toEqual([]);
    } finally {
      await h.close();
    }
  }, 120_000);
});
