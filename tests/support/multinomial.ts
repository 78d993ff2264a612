// The exact multinomial goodness-of-fit test: P(an outcome at most as likely as the observed one)
// under probabilities q, by enumerating every outcome of n draws (small n and few cells only).
function logFactorial(n: number): number {
  let s = 0;
  for (let i = 2; i <= n; i++) s += Math.log(i);
  return s;
}

function logPmf(x: readonly number[], q: readonly number[]): number {
  let s = logFactorial(x.reduce((a, b) => a + b, 0));
  for (let i = 0; i < x.length; i++) {
    if (x[i] === 0) continue;
    if (q[i] <= 0) return -Infinity;
    s += x[i] * Math.log(q[i]) - logFactorial(x[i]);
  }
  return s;
}

/** p-value of the observed counts under q (q sums to 1); at most ~1e6 outcomes. */
export function exactMultinomialP(observed: readonly number[], q: readonly number[]): number {
  const n = observed.reduce((a, b) => a + b, 0);
  const k = observed.length;
  const obs = logPmf(observed, q);
  let p = 0;
  const x = new Array<number>(k).fill(0);
  const walk = (i: number, left: number): void => {
    if (i === k - 1) {
      x[i] = left;
      const l = logPmf(x, q);
      if (l <= obs + 1e-9) p += Math.exp(l);
      return;
    }
    for (let c = 0; c <= left; c++) {
      x[i] = c;
      walk(i + 1, left - c);
    }
  };
  walk(0, n);
  return Math.min(1, p);
}
