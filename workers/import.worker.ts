/**
 * The import worker: streams dropped files (File.stream(), never read whole) through the core's
 * import pipeline, so a large log neither freezes the page nor sits in memory at once.
 */
import * as Comlink from 'comlink';
import { measureLogs, scanLogs, type ImportSource } from '../src/core/import/index';
import { openParquet } from '../src/io/hyparquet';
import { re2Engine } from '../src/io/re2';
import type { ImportApi } from './import.api';

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

const api: ImportApi = {
  scan: (files, opts, onProgress) => scanLogs(files.map(fileSource), { ...opts, onProgress, parquet: openParquet }),
  measure: (files, spec, opts, onProgress) => measureLogs(files.map(fileSource), spec, { ...opts, onProgress, parquet: openParquet, regex: re2Engine }),
};

Comlink.expose(api);
