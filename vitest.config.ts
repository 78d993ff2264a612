import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Timeouts follow the machine: a speed factor measured once here, passed to the test processes
// through the environment (tests/support/speed.ts `scaled(ms)` reads it), so a 3x slower or loaded
// machine gets 3x the limits. Kept in this file: Vite's native config loader wants no imports.
/** Milliseconds of `workload()` on the development machine (2 cores; min of 9 runs under load ≈ 29 ms, so about the idle time). */
const REFERENCE_MS = 25;

/** A fixed, allocation-light CPU workload (float math and array traffic, like the tabular engine). */
function workload(): number {
  const n = 160;
  const a = new Float64Array(n * n);
  const b = new Float64Array(n * n);
  for (let i = 0; i < a.length; i++) {
    a[i] = Math.sin(i);
    b[i] = Math.cos(i);
  }
  let s = 0;
  for (let i = 0; i < n; i++)
    for (let k = 0; k < n; k++) {
      const x = a[i * n + k];
      for (let j = 0; j < n; j++) s += x * b[k * n + j];
    }
  return s;
}

/** Median time of 3 runs relative to REFERENCE_MS, clamped to [1, 20]. */
function measureSpeedFactor(): number {
  workload(); // warm the JIT
  const t: number[] = [];
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    workload();
    t.push(performance.now() - t0);
  }
  t.sort((x, y) => x - y);
  return Math.min(20, Math.max(1, t[1] / REFERENCE_MS));
}

if (!process.env.INVLAB_SPEED_FACTOR) {
  process.env.INVLAB_SPEED_FACTOR = measureSpeedFactor().toFixed(2);
  if (Number(process.env.INVLAB_SPEED_FACTOR) > 1.2) console.log(`[vitest] speed factor ${process.env.INVLAB_SPEED_FACTOR}: timeouts scaled`);
}
const factor = Math.max(1, Number(process.env.INVLAB_SPEED_FACTOR) || 1);

// Files at once: one more than the machine has cores. vitest's default is cores − 1, which is one on
// this 2-core machine; two left a core idle 9 % of a quiet clean-clone run, while a file waited on a
// child process (`npm run watch` followed files that tests write with pauses), a worker's watchdog or a
// page. Three keep both cores busy (idle 1.2 %): vitest 446 s → 424 s on the same clone
// (docs/testing.md). INVLAB_TEST_WORKERS overrides it.
const workers = Number(process.env.INVLAB_TEST_WORKERS) || availableParallelism() + 1;

/**
 * Project after project (e2e, unit, unit-mocking), slowest first within each, so that the last file
 * to start is a short one. Not interleaved: vitest keeps a test process for its next file only when
 * the file at the head of the queue is of the same project (its pool's `isEqualRunner`), so with the
 * projects interleaved almost every file started a process of its own: the unit files re-imported
 * their modules and the e2e files launched their Chromium again, whatever `isolate: false` said.
 * A fresh clone has no timing cache, and vitest's own order there
 * (project by project, largest file first) started the e2e files that train for minutes last. These
 * are the files of the last measured runs that took 40 s or more, slowest first within each project
 * (order within a project is all the sequencer reads): the files that wait on child processes
 * first, then by the CPU seconds of each file run alone, every process of the run counted
 * (e2e 2026-12-05 evening at load 12–30: lesson-actions 133, lab 122, reproducible 113,
 * shipped-experiments-1 75, class-views 49; unit 2026-12-06 at load 5–26, after the CLI tests ran
 * most commands in process: fidelity-clip-higher 35, fidelity-training 34, fidelity 24, pretrain 23,
 * python gate export 16, lab 16, lesson-a-seed 15, experiment-workflow 15, hostile-inputs 15,
 * doc-commands 12, import 8; docs/testing.md). The two longest e2e files of the 992 s clean-clone
 * run, lesson-actions and class-views, were missing from the list or near its end.
 */
const SLOW_FIRST = [
  // unit
  'src/cli/watch-formats.test.ts',
  'src/engine/fidelity-clip-higher.test.ts',
  'src/engine/fidelity-training.test.ts',
  'src/engine/fidelity.test.ts',
  'src/cli/pretrain.test.ts',
  'src/cli/experiment.test.ts',
  'src/core/gates/export/python.test.ts',
  'src/cli/lab.test.ts',
  'tests/unit/lesson-a-seed.test.ts',
  'tests/unit/experiment-workflow.test.ts',
  'src/cli/hostile-inputs.test.ts',
  'src/cli/watch.test.ts',
  'tests/unit/doc-commands.test.ts',
  'tests/unit/fidelity-tabular.test.ts',
  'src/cli/lab-resume.test.ts',
  'src/engine/engine.test.ts',
  'src/core/tasks/fit.test.ts',
  'src/cli/import.test.ts',
  'tests/unit/gate-export-openclaw.test.ts',
  'src/cli/samples-out.test.ts',
  'src/cli/propose-rule.test.ts',
  'src/cli/watch-discover.test.ts',
  'src/cli/export-gate.test.ts',
  // e2e
  'tests/e2e/lesson-actions.test.ts',
  'tests/e2e/lab.test.ts',
  'tests/e2e/reproducible.test.ts',
  'tests/e2e/shipped-experiments-1.test.ts',
  'tests/e2e/class-views.test.ts',
  'tests/e2e/resume.test.ts',
  'tests/e2e/shipped-experiments-3.test.ts',
  'tests/e2e/shipped-experiments-2.test.ts',
  'tests/e2e/hostile-specs.test.ts',
  'tests/e2e/experiments.test.ts',
  'tests/e2e/probe.test.ts',
  'tests/e2e/interruptions.test.ts',
  'tests/e2e/engine.test.ts',
  'tests/e2e/fit-task.test.ts',
  'tests/e2e/gate-editor.test.ts',
  'tests/e2e/backend-choice.test.ts',
  'tests/e2e/recovery.test.ts',
  'tests/e2e/storage.test.ts',
  'tests/e2e/double-reload.test.ts',
  'tests/e2e/classroom.test.ts',
  'tests/e2e/samples-viewer.test.ts',
  'tests/e2e/task-editor.test.ts',
  'tests/e2e/task-structure.test.ts',
  'tests/e2e/import.test.ts',
  'tests/e2e/watch-served.test.ts',
  'tests/e2e/follow-folder.test.ts',
  'tests/e2e/import-kept.test.ts',
  'tests/e2e/step-back.test.ts',
  'tests/e2e/page-fits.test.ts',
];
/** The e2e files first: they are the long ones, and the many short unit files even out the end. */
const PROJECT_ORDER = ['e2e', 'unit', 'unit-mocking'];
class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.findIndex((p) => f.moduleId.endsWith(p));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    const ofProject = (name: string) =>
      sorted.map((f, i) => ({ f, i })).filter(({ f }) => f.project.name === name).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(({ f }) => f);
    const projects = [...new Set(sorted.map((f) => f.project.name))].sort((a, b) => PROJECT_ORDER.indexOf(a) - PROJECT_ORDER.indexOf(b));
    return projects.flatMap(ofProject);
  }
}

// e2e pages share one Chromium per test process (a fresh context each); INVLAB_SHARED_BROWSER=0 gives
// every page a browser of its own, and every e2e file a process of its own, as before 2026-12-06.
const sharedBrowser = process.env.INVLAB_SHARED_BROWSER !== '0';

// Unit tests (Node), the few of them that mock a module, and e2e tests (built site in Debian's
// Chromium). The e2e project's globalSetup builds dist/ once, and only runs when e2e test files are
// selected.
const MOCKING_FILES = ['src/cli/gate-args.test.ts', 'src/core/run/walk.test.ts'];
export default defineConfig({
  test: {
    testTimeout: Math.round(120_000 * factor),
    hookTimeout: Math.round(180_000 * factor),
    pool: 'forks',
    maxWorkers: workers,
    sequence: { sequencer: SlowFirstSequencer },
    // the phases' wall times at the end of every run (tests/support/phase-reporter.ts)
    reporters: ['default', './tests/support/phase-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'workers/**/*.test.ts', 'tests/unit/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...MOCKING_FILES],
          // A test process runs the unit files vitest gives it with one module graph: each file no
          // longer loads and evaluates its imports (onnxruntime-web and its WebAssembly, the core, the
          // CLI modules) afresh. Alone on the quiet machine, the unit project took 617 s of CPU and
          // 313 s of wall isolated, 447 s and 227 s so (docs/testing.md). No unit test sets onnxruntime's
          // threads or V8 flags in process, and the ones that patch globals restore them.
          isolate: false,
        },
      },
      {
        extends: true,
        // files that replace a module (vi.mock) need a module graph of their own (tests/unit/mocking-files.test.ts)
        test: { name: 'unit-mocking', include: MOCKING_FILES },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          // the files a test process runs one after another share its browsers and its static server
          // (src/cli/browser/shared-browser.ts), so the process is kept from file to file
          isolate: !sharedBrowser,
          include: ['tests/e2e/**/*.test.ts'],
          // V8 compiles ORT's 28 MB WebAssembly module with TurboFan in the background of every fresh
          // page: 33 of lab.test.ts's 70 CPU seconds, for tiny models that train in seconds.
          // Liftoff only computes the same IEEE results (the page-vs-Node bit-for-bit tests still
          // run) without that compile (docs/testing.md). An outer setting wins.
          // One Chromium per test process and set of flags, a fresh context per page
          // (src/cli/browser/shared-browser.ts): a launch cost ~2 s of CPU, a context ~0.5 s.
          env: { INVLAB_CHROMIUM_ARGS: process.env.INVLAB_CHROMIUM_ARGS ?? '--js-flags=--liftoff-only', INVLAB_SHARED_BROWSER: sharedBrowser ? '1' : '0' },
          globalSetup: ['tests/global-setup.ts'],
        },
      },
    ],
  },
});
