// Preloaded (`node --import tsx --import src/bench/exit-usage.ts …`) into a benchmarked child: at exit
// it prints its own peak RSS and CPU (getrusage: every thread, the last moment included, which a
// parent polling /proc can miss) as one line on stderr, read by import-memory.ts's importPeak. Only
// where the parent asks for it (EXIT_USAGE_ENV): importPeak imports the mark from here.
import { writeSync } from 'node:fs';

export const EXIT_USAGE_MARK = 'invlab-exit-usage';
export const EXIT_USAGE_ENV = 'INVLAB_EXIT_USAGE';

if (process.env[EXIT_USAGE_ENV] === '1') process.on('exit', () => {
  const r = process.resourceUsage();
  writeSync(2, `\n${EXIT_USAGE_MARK} ${JSON.stringify({ maxRssKb: r.maxRSS, cpuUs: r.userCPUTime + r.systemCPUTime })}\n`);
});
