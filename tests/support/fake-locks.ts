/**
 * An in-memory Web Locks manager for Node tests: exclusive locks by name, `ifAvailable` only (what
 * src/ui/storage/writer-lock.ts uses). One instance shared by two "tabs" stands for one browser.
 */
import type { Locks } from '../../src/ui/storage/writer-lock';

export function fakeLocks(): Locks & { held: Set<string> } {
  const held = new Set<string>();
  return {
    held,
    async request(name, _options, callback) {
      if (held.has(name)) return callback(null);
      held.add(name);
      try {
        return await callback({ name });
      } finally {
        held.delete(name);
      }
    },
    async query() {
      return { held: [...held].map((name) => ({ name })) };
    },
  };
}
