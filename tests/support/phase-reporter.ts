/**
 * A vitest reporter (vitest.config.ts) that ends every run with the wall time of each project's
 * phase — from its first file's start to its last file's end, with the files' summed durations and
 * the slowest files — so that each CI run (.ci/run) records where its time went. The e2e build's
 * time is printed by tests/global-setup.ts ("[e2e] vite build: N ms").
 */
import type { Reporter, TestModule } from 'vitest/node';

interface Span {
  start: number;
  end: number;
  files: { file: string; s: number }[];
}

export default class PhaseReporter implements Reporter {
  private readonly t0 = performance.now();
  private readonly started = new Map<string, number>();
  private readonly spans = new Map<string, Span>();

  onTestModuleStart(m: TestModule): void {
    this.started.set(m.moduleId, performance.now());
  }

  onTestModuleEnd(m: TestModule): void {
    const end = performance.now();
    const start = this.started.get(m.moduleId) ?? end;
    const name = m.project.name || 'default';
    const span = this.spans.get(name) ?? { start, end, files: [] };
    span.start = Math.min(span.start, start);
    span.end = Math.max(span.end, end);
    span.files.push({ file: m.relativeModuleId, s: (end - start) / 1000 });
    this.spans.set(name, span);
  }

  onTestRunEnd(): void {
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    for (const [name, sp] of this.spans) {
      const sum = sp.files.reduce((a, f) => a + f.s, 0);
      const slowest = [...sp.files].sort((a, b) => b.s - a.s).slice(0, 5).map((f) => `${f.file} ${f.s.toFixed(0)} s`).join(', ');
      console.log(`[phases] ${name}: ${s(sp.end - sp.start)} of wall (from ${s(sp.start - this.t0)} to ${s(sp.end - this.t0)} after vitest started), ${sp.files.length} files, ${sum.toFixed(0)} s of file time; slowest: ${slowest}`);
    }
    console.log(`[phases] vitest: ${s(performance.now() - this.t0)} in all`);
  }
}
