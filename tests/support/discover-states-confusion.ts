// Which found states each true kind of request of a styled corpus (discover-styles.ts) is split
// into, and why: per seed, the states NMI, then per kind its found states with their sample counts
// (and with --examples a few of each state's requests); --kind K prints, step by step, the state
// each of K's prompts got (what stays split from the first steps, what a join gathers later):
//   npx tsx tests/support/discover-states-confusion.ts [--style reasoning] [--seeds 1,2] [--steps 20] [--per-step 256] [--examples] [--kind factual]
import { discoverCorpus, nmi } from './discover-quality';
import { requestTurns } from '../../src/core/import/discover/text';
import { STYLES, makeStyledCorpus, type Style } from './discover-styles';
import type { StyledTruth } from './discover-styles';

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = process.argv[i + 1];
  if (v === undefined || v.startsWith('--')) throw new Error(`--${name} needs a value`);
  return v;
}

const count = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

/** The request a sample asks (its last user turn: the whole prompt holds the session's first), on one line. */
const requestOf = (t: StyledTruth, width: number) => (requestTurns(t.sample.prompt).at(-1) ?? '').replace(/\s+/g, ' ').slice(0, width);

async function main(): Promise<void> {
  const style = flag('style', 'reasoning') as Style;
  if (!STYLES.includes(style)) throw new Error(`--style: unknown style ${style}; expected ${STYLES.join(', ')}`);
  const seeds = flag('seeds', '1').split(',').map(Number);
  const [steps, perStep] = [Number(flag('steps', '20')), Number(flag('per-step', '256'))];
  const kind = flag('kind', '');
  for (const seed of seeds) {
    const c = await makeStyledCorpus(style, { seed, steps, perStep });
    const { states } = discoverCorpus(c.truth, true);
    console.log(`== ${style}, seed ${seed}: states NMI ${nmi(c.truth.map((t) => t.state), states).toFixed(3)}, ${new Set(states).size} found`);
    const byKind = new Map<string, Map<string, number>>();
    const examples = new Map<string, Set<string>>();
    c.truth.forEach((t, i) => {
      count(byKind.get(t.state) ?? byKind.set(t.state, new Map()).get(t.state)!, states[i]);
      const e = examples.get(`${t.state}\u0000${states[i]}`) ?? examples.set(`${t.state}\u0000${states[i]}`, new Set()).get(`${t.state}\u0000${states[i]}`)!;
      if (e.size < 4) e.add(requestOf(t, 100));
    });
    for (const [k, m] of [...byKind].sort((a, b) => a[0].localeCompare(b[0]))) {
      console.log(`-- ${k}`);
      for (const [s, n] of [...m].sort((a, b) => b[1] - a[1])) {
        console.log(`  ${String(n).padStart(5)} ${s}`);
        if (process.argv.includes('--examples')) for (const r of examples.get(`${k}\u0000${s}`)!) console.log(`          · ${r}`);
      }
    }
    if (!kind) continue;
    const rows = new Map<number, Map<string, number>>();
    c.truth.forEach((t, i) => {
      if (t.state === kind) count(rows.get(t.sample.step) ?? rows.set(t.sample.step, new Map()).get(t.sample.step)!, `${states[i]} [${requestOf(t, 24)}]`);
    });
    console.log(`-- ${kind}, step by step: state [request] samples`);
    for (const [s, m] of rows) console.log(`  ${s}: ${[...m].map(([k, n]) => `${k} ${n}`).join(' | ')}`);
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
