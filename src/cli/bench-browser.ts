// Placeholder replaced below once the browser harness lands.
export async function runBrowserBench(_opts: { reps: number; leakSteps: number }): Promise<unknown> {
  throw new Error('--browser: not wired yet');
}
