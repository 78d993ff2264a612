// What a launched Chromium holds in memory, read from /proc (Linux): every process of the browser
// (the one started with its user-data-dir, and all its descendants), by Chromium's process type
// (browser, renderer, gpu-process, utility, zygote), as resident set (RSS) and proportional set
// (PSS: shared pages split between the processes that map them, so the sum is what the browser
// holds). Workers run inside their page's renderer process: a worker's WASM memory is renderer memory.
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessMemory {
  /** MB per process type, summed over the processes of that type. */
  rss_mb: Record<string, number>;
  pss_mb: Record<string, number>;
  /** PSS of all processes of the browser. */
  total_pss_mb: number;
  processes: number;
}

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** kB of `key` in a /proc status or smaps_rollup text. */
const kb = (text: string | null, key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text ?? '')?.[1] ?? 0);

/** The memory of the Chromium started with `userDataDir`; null where /proc cannot tell (not Linux, no such process). */
export function browserProcessMemory(userDataDir: string): ProcessMemory | null {
  let pids: number[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number);
  } catch {
    return null;
  }
  const parent = new Map<number, number>();
  const cmd = new Map<number, string>();
  for (const pid of pids) {
    const stat = read(`/proc/${pid}/stat`);
    const c = read(`/proc/${pid}/cmdline`);
    if (!stat || c === null) continue;
    parent.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    cmd.set(pid, c.replaceAll('\0', ' '));
  }
  const root = [...cmd].find(([pid, c]) => c.includes(`--user-data-dir=${userDataDir}`) && !c.includes('--type=') && !String(cmd.get(parent.get(pid) ?? -1)).includes(`--user-data-dir=${userDataDir}`))?.[0];
  if (root === undefined) return null;
  const mine = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, pp] of parent) if (!mine.has(pid) && mine.has(pp)) (mine.add(pid), (grew = true));
  }
  const rss: Record<string, number> = {};
  const pss: Record<string, number> = {};
  for (const pid of mine) {
    const type = /--type=([\w-]+)/.exec(cmd.get(pid) ?? '')?.[1] ?? 'browser';
    rss[type] = (rss[type] ?? 0) + kb(read(`/proc/${pid}/status`), 'VmRSS') / 1024;
    pss[type] = (pss[type] ?? 0) + kb(read(`/proc/${pid}/smaps_rollup`), 'Pss') / 1024;
  }
  const round = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, +v.toFixed(1)]));
  return { rss_mb: round(rss), pss_mb: round(pss), total_pss_mb: +Object.values(pss).reduce((a, b) => a + b, 0).toFixed(1), processes: mine.size };
}
