// URL lab keys that reached the page wrong in a workshop (issue 10 §1): views=zzz, present=yes.
import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEWS } from './views';
import { decodeUrl, encodeUrl } from './url';

const none = new Map();

describe('decodeUrl lab keys', () => {
  it('views with no known id reports and keeps the default views; known ids are kept', () => {
    const { state, errors } = decodeUrl('?views=zzz', none);
    expect(state.views).toEqual([...DEFAULT_VIEWS]);
    expect(errors.map((e) => e.field)).toEqual(['views']);
    expect(errors[0].message).toMatch(/"zzz".*default views/);
    expect(decodeUrl('?views=ratio,zzz', none).state.views).toEqual(['ratio']);
    expect(decodeUrl('?views=', none)).toMatchObject({ state: { views: [] }, errors: [] });
  });

  it('projector=1 round-trips; a bad value is reported', () => {
    const { state } = decodeUrl('?projector=1', none);
    expect(state.projector).toBe(true);
    expect(encodeUrl(state, none)).toContain('projector=1');
    expect(decodeUrl('?projector=big', none).errors[0].field).toBe('projector');
  });

  it('present takes 1/true/0/false and reports anything else', () => {
    expect(decodeUrl('?present=1', none).state.presenter.on).toBe(true);
    expect(decodeUrl('?present=0', none)).toMatchObject({ state: { presenter: { on: false } }, errors: [] });
    const yes = decodeUrl('?present=yes', none);
    expect(yes.state.presenter.on).toBe(false);
    expect(yes.errors).toEqual([{ field: 'present', message: 'expected 1 or 0, got "yes" (presenter mode stays off)' }]);
  });
});
