/**
 * The import worker: streams dropped files (File.stream(), never read whole) through the core's
 * import pipeline, so a large log neither freezes the page nor sits in memory at once.
 */
import * as Comlink from 'comlink';
import { measureLogs, previewTitled, scanLogs, type FormatId, type ImportSource } from '../src/core/import/index';
import { openParquet } from '../src/io/hyparquet';
import { ruleRegexEngine } from '../src/io/regex/engine';
import { sharedGuard } from '../src/io/regex/guard-shared';
import type { ImportApi } from './import.api';
import { FolderFollow } from './import-follow';
import { SamplesHeld, followedRunSamples, pickedFiles, runSamples } from './import-browse';
import { compileGate } from '../src/core/gates/index';
import { handleFolder } from '../src/io/folder-handle';
import type { Discovery } from '../src/core/import/discover/step-labels';

export function fileSource(f: File): ImportSource {
  return {
    name: f.webkitRelativePath || f.name,
    size: f.size,
    async *stream() {
      const reader = f.stream().getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          yield value;
        }
      } finally {
        // an early stop (format detection reads only the first line) cancels the rest of the read
        await reader.cancel().catch(() => undefined);
      }
    },
    slice: (a, b) => f.slice(a, b).arrayBuffer(),
  };
}

let guardMemory: SharedArrayBuffer | null = null;
// one engine per call, so each import's files start with their whole budget
const regexEngine = () => ruleRegexEngine(guardMemory ? sharedGuard(guardMemory) : null);

let following: FolderFollow | null = null;
/** The samples of the run measured last, for the rollout viewer. */
const held = new SamplesHeld();

const api: ImportApi = {
  guard: (sab) => void (guardMemory = sab),
  scan: (files, opts, onProgress) => scanLogs(files.map(fileSource), { ...opts, onProgress, parquet: openParquet }),
  async measure(files, spec, opts, onProgress) {
    held.current = null;
    let format: FormatId | null = null; // told by the measure; read before any sample is shown
    let discovery: Discovery | null = null; // the measure's: it explains a discovered label when the sample is shown
    const samples = runSamples(() => format!, pickedFiles(files), () => discovery);
    // each measured step's per-sample lines (with the gate's decisions) go into the viewer's index
    const sink = samples.sink(spec.gate ? compileGate(spec.gate) : null);
    const r = await measureLogs(files.map(fileSource), spec, { ...opts, onProgress, parquet: openParquet, regex: regexEngine(), onMeasure: (m) => void (discovery = m.discovery) }, undefined, sink);
    format = r.format;
    held.current = samples;
    return r;
  },
  sampleFacets: () => held.facets(),
  samples: (q) => held.query(q),
  proposeRule: (behavior, name) => held.propose(behavior, name, regexEngine()),
  async follow(dir, spec, opts, sink) {
    if (following) throw new Error('a folder is already being followed: stop it first');
    // the followed run's samples for the viewer: indexed step by step, read from the folder when shown
    let f: FolderFollow | null = null;
    const samples = followedRunSamples(opts.format, handleFolder(dir), () => f?.discovered ?? null);
    held.current = samples;
    f = new FolderFollow(dir, { format: opts.format, spec, regex: regexEngine(), parquet: openParquet, openclawBatch: opts.openclawBatch, samples: samples.sink(spec.gate ? compileGate(spec.gate) : null) }, opts.pollMs ?? 500);
    following = f;
    try {
      await f.run(sink);
    } finally {
      following = null;
    }
  },
  stopFollow: () => following?.stop(),
  async classify(samples, states, behaviors) {
    return previewTitled(samples, states, behaviors, regexEngine());
  },
};

Comlink.expose(api);
