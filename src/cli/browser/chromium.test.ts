import { describe, expect, it } from 'vitest';
import { NO_WEBGPU_FLAGS, WEBGPU_FLAGS, withFeatureSwitches } from './chromium';

const listOf = (args: string[], prefix: string) => {
  const switches = args.filter((a) => a.startsWith(prefix));
  expect(switches).toHaveLength(1); // Chromium reads only the last one: one of each, holding them all
  return switches[0].slice(prefix.length).split(',');
};

describe('withFeatureSwitches', () => {
  it('folds the profile switches, the extra ones and playwright-core’s lists into one of each, other flags in order', () => {
    const args = withFeatureSwitches([...NO_WEBGPU_FLAGS, '--js-flags=--liftoff-only', '--disable-features=Foo,WebGPU', '--enable-features=Bar']);
    const disabled = listOf(args, '--disable-features=');
    expect(disabled).toEqual(expect.arrayContaining(['WebGPU', 'Foo', 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'PaintHolding', 'AimEnabled']));
    expect(new Set(disabled).size).toBe(disabled.length);
    expect(listOf(args, '--enable-features=')).toEqual(expect.arrayContaining(['Bar', 'CDPScreenshotNewSurface']));
    const others = NO_WEBGPU_FLAGS.filter((a) => !a.includes('-features='));
    expect(args.filter((a) => !a.includes('-features='))).toEqual([...others, '--js-flags=--liftoff-only']);
  });

  it('keeps the WebGPU profile’s Vulkan and never enables a feature it disables', () => {
    const args = withFeatureSwitches([...WEBGPU_FLAGS, '--disable-features=Vulkan']);
    expect(listOf(withFeatureSwitches(WEBGPU_FLAGS), '--enable-features=')).toContain('Vulkan');
    expect(listOf(args, '--enable-features=')).not.toContain('Vulkan');
    expect(listOf(args, '--disable-features=')).toContain('Vulkan');
  });
});
