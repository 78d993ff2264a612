// The code version written into cell logs and bundles: package version + git commit (+ "-dirty"
// when the work tree has uncommitted changes), so a bundle says which code trained it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function codeVersion(): string {
  if (cached) return cached;
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
  let git = 'nogit';
  try {
    const opts = { cwd: new URL('../..', import.meta.url), encoding: 'utf8' as const, stdio: ['ignore', 'pipe', 'ignore'] as ('ignore' | 'pipe')[] };
    git = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], opts).trim();
    if (execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], opts).trim() !== '') git += '-dirty';
  } catch {
    /* not a git checkout (e.g. an unpacked release): the package version alone */
  }
  return (cached = `${pkg.name}@${pkg.version}+${git}`);
}
