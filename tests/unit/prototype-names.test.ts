// Issue 16 §1: names that are not yours. Every config / URL / bundle / variant entry point is fed the
// names of Object.prototype (and `__proto__`), as keys and as values: each is refused with a message
// (or, where it is free text, kept as text) and never reaches a prototype or a JS internal.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkField, configFromJson, configFromQuery, defaultConfig, fixesRun, isConfigKey, makeConfig, parseField, settingOfUrlKey } from '../../src/core/config';
import { parseFrame } from '../../src/core/experiment/bundle';
import { parseExperimentSpec } from '../../src/core/experiment/spec';
import { parsePreset } from '../../src/core/presets';
import { parsePatch } from '../../src/ui/experiment/form';
import { decodeUrl, describeErrors } from '../../src/ui/state/url';
import type { FieldError } from '../../src/core/config';

const NAMES = Object.getOwnPropertyNames(Object.prototype); // __proto__, constructor, toString, hasOwnProperty, …
const name = fc.constantFrom(...NAMES);
/** A value of any JSON shape, the prototype names among the strings. */
const value = fc.oneof(fc.jsonValue(), name);
const internals = /function|native code|\[object /;

describe('Object.prototype names at every entry point', () => {
  it('the schema: no setting, no run-fixing flag, no URL key', () => {
    fc.assert(fc.property(name, value, (k, v) => {
      expect(isConfigKey(k)).toBe(false);
      expect(fixesRun(k)).toBe(false);
      expect(settingOfUrlKey(k)).toBeNull();
      expect(checkField(k, v)).toBe('unknown setting');
      expect(() => parseField(k, typeof v === 'string' ? v : JSON.stringify(v))).toThrow(`config.${k}: unknown setting`);
    }));
  });

  it('JSON configs, presets and patches refuse them as keys', () => {
    fc.assert(fc.property(name, value, (k, v) => {
      const text = `{${JSON.stringify(k)}:${JSON.stringify(v)}}`;
      expect(() => configFromJson(text)).toThrow(`config.${k}: unknown setting`);
      expect(() => makeConfig(JSON.parse(text))).toThrow(`config.${k}: unknown setting`);
      expect(() => parsePreset('p', { title: 't', explanation: 'x'.repeat(50), config: JSON.parse(text) })).toThrow(`config.${k}: unknown setting`);
      const errors: string[] = [];
      expect(Object.getPrototypeOf(parsePatch(`${k}=1`, 'base', errors))).toBe(Object.prototype);
      expect(errors).toEqual([`base: config.${k}: unknown setting`]);
    }));
  });

  it('as values of enum and text settings they are values, checked as such', () => {
    fc.assert(fc.property(name, (v) => {
      expect(checkField('task', v)).toMatch(/^expected one of/);
      expect(checkField('method', v)).toMatch(/^expected one of/);
      expect(() => makeConfig({ task: v })).toThrow(/config\.task: expected one of/);
    }));
  });

  it('URLs: an unknown setting, an unknown lesson, view, hidden setting or state; defaults kept', () => {
    fc.assert(fc.property(name, (k) => {
      const { config, errors } = configFromQuery(`${encodeURIComponent(k)}=1`);
      expect(config).toEqual(defaultConfig());
      expect(errors).toEqual([{ field: k, message: 'unknown setting' }]);
      const q = `?${encodeURIComponent(k)}=1&lesson=${encodeURIComponent(k)}&views=${encodeURIComponent(k)}&hide=${encodeURIComponent(k)}&state=${encodeURIComponent(k)}&backend=${encodeURIComponent(k)}`;
      const url = decodeUrl(q, new Map());
      expect(url.state.config).toEqual(defaultConfig());
      expect(url.state.lesson).toBeNull();
      expect(url.state.presenter.hide).toEqual([]);
      expect(url.state.viewState).toBe('mean');
      expect(url.state.backend).toBe('auto');
      expect(describeErrors(url.errors, url.state.config).join('\n')).not.toMatch(internals);
    }));
  });

  it('experiment variants: a patch or base key is refused naming its path; a variant name is text', () => {
    fc.assert(fc.property(name, value, (k, v) => {
      const spec = (base: object, patch: object) => () => parseExperimentSpec({ version: 1, name: 'x', base, variants: [{ name: k, patch }], seeds: [1], steps: 1 });
      expect(spec(JSON.parse(`{${JSON.stringify(k)}:${JSON.stringify(v)}}`), {})).toThrow(new RegExp(`base\\.${k.replace(/[_]/g, '_')}: unknown setting`));
      expect(spec({}, JSON.parse(`{${JSON.stringify(k)}:${JSON.stringify(v)}}`))).toThrow(`variants[0].patch.${k}: unknown setting`);
      expect(spec({}, {})().variants[0].name).toBe(k);
    }));
  });

  it('bundles: a metric value "toString" / "__proto__" is not a number; such a key is not a metric and replaces no prototype', () => {
    fc.assert(fc.property(name, (k) => {
      const errors: FieldError[] = [];
      const frame = (scalars: string, series: string) =>
        parseFrame(JSON.parse(`{"step":1,"version":1,"scalars":${scalars},"series":${series},"ratioEdges":[],"perf":{}}`), 'f', errors);
      const asValue = frame(`{"train/loss":${JSON.stringify(k)}}`, `{"support/pass_at_k":[${JSON.stringify(k)}]}`);
      expect(errors.map((e) => e.field).sort()).toEqual(['f.scalars.train/loss', 'f.series.support/pass_at_k[0]']);
      expect(typeof asValue.scalars['train/loss']).not.toBe('function');
      errors.length = 0;
      const asKey = frame(`{${JSON.stringify(k)}:1,"train/loss":2}`, `{${JSON.stringify(k)}:[1,2]}`);
      expect(errors).toHaveLength(2);
      expect(errors).toContainEqual({ field: `f.scalars.${k}`, message: 'not a metric name (a name of Object.prototype)' });
      expect(errors).toContainEqual({ field: `f.series.${k}`, message: 'not a metric name (a name of Object.prototype)' });
      expect(Object.getPrototypeOf(asKey.series)).toBe(Object.prototype);
      expect(Object.getPrototypeOf(asKey.scalars)).toBe(Object.prototype);
      expect(Object.keys(asKey.scalars)).toEqual(['train/loss']);
    }));
  });
});
