/**
 * Lesson a's text names what its default seed shows on the headline (the step of the marked drop to
 * one behavior and token entropy there as a share of step 0): this trains that seed on the
 * transformer as the page does and reads the markers with the plot's own function, so the text (its
 * measurement file) cannot drift from the plot again.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lessonMarkers } from '../support/plot-markers';
import { scaled } from '../support/speed';

const measured = JSON.parse(readFileSync(join(import.meta.dirname, '../../public/presets/measured/a-support-collapse.json'), 'utf8')) as { values: Record<string, number> };

describe('lesson a on its default seed', () => {
  it('the plot marks the drop to one behavior at the step and token-entropy share its text says', async () => {
    // the run stops once the first drop to one behavior is marked (steps 1–47 of 60 on main): the
    // markers up to it are those of the whole run (lessonMarkers), so a drop at another step fails
    const { markers } = await lessonMarkers('a-support-collapse', 1, (ms) => ms.some((m) => m.to === 1));
    const drop = markers.find((m) => m.to === 1);
    expect(drop).toBeDefined();
    expect(drop!.step).toBe(measured.values['seed1.dropStep']);
    expect(Math.floor(drop!.tokenShare * 100 + 1e-9)).toBe(measured.values['seed1.dropShare']);
    // the text calls it pink: still at least 80 % of step 0
    expect(drop!.kind).toBe('divergence');
  }, scaled(120_000));
});
