// ImportSource over bytes already in memory (tests, the lab's own exports, small example files).
import type { ImportSource } from './types';

export function memorySource(name: string, data: Uint8Array | string, chunk = 64 * 1024): ImportSource {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return {
    name,
    size: bytes.byteLength,
    async *stream() {
      for (let i = 0; i < bytes.byteLength; i += chunk) yield bytes.subarray(i, Math.min(bytes.byteLength, i + chunk));
    },
    async slice(a, b) {
      return bytes.slice(a, b).buffer;
    },
  };
}
