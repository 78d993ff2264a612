// Where a gate can be exported: `python` (the module of python.ts alone) or a trainer, whose adapter
// (adapters/, one file per trainer) is appended to the module and calls its decide(). A gate that
// reads a field the trainer's hook cannot provide is refused for that trainer, naming the field and
// why. The CLI (npm run export-gate) and the page's gate editor both export through exportGate.
import { compileGate } from '../compile';
import { builtinGateText, binaryRlWholeSessionText, type GateKnobs } from '../builtin';
import { gateToPython, type PythonExportOptions } from './python';

export const EXPORT_TARGETS = ['python', 'slime', 'openclaw', 'openclaw-opd', 'verl', 'trl'] as const;
export type ExportTarget = (typeof EXPORT_TARGETS)[number];
export const isExportTarget = (s: string): s is ExportTarget => (EXPORT_TARGETS as readonly string[]).includes(s);

/** What the export needs of a trainer's adapter (adapters/index.ts `Adapter`). */
export interface AdapterLike {
  target: string;
  title: string;
  /** Fields the trainer's hook cannot provide, each with the reason. */
  unavailable: Readonly<Record<string, string>>;
  /** Python that calls decide(), appended to the module. */
  python: string;
}

/** A gate refused for a target: the fields it reads that the target cannot provide, with the reasons. */
export class ExportRefused extends Error {
  constructor(
    readonly target: string,
    readonly fields: readonly { field: string; reason: string }[],
  ) {
    super(`this gate cannot be exported to ${target}: ${fields.map((f) => `it reads "${f.field}", which ${target} cannot provide: ${f.reason}`).join('; ')}`);
    this.name = 'ExportRefused';
  }
}

/** The fields of the gate's text that the adapter cannot provide (in the gate's reading order), with the reasons. */
export function unavailableFields(text: string, adapter: AdapterLike): { field: string; reason: string }[] {
  return [...compileGate(text).reads].filter((f) => Object.hasOwn(adapter.unavailable, f)).map((field) => ({ field, reason: adapter.unavailable[field] }));
}

export interface ExportOptions extends PythonExportOptions {
  /** The trainers' adapters by target (adapters/index.ts ADAPTERS). */
  adapters: Readonly<Partial<Record<string, AdapterLike>>>;
}

/** The Python source of a gate for a target (throws the gate's GateError, or ExportRefused). */
export function exportGate(text: string, target: ExportTarget, o: ExportOptions): string {
  const module = gateToPython(text, o);
  if (target === 'python') return module;
  const adapter = Object.hasOwn(o.adapters, target) ? o.adapters[target] : undefined;
  if (!adapter) throw new Error(`no adapter for ${target} yet`);
  const refused = unavailableFields(text, adapter);
  if (refused.length) throw new ExportRefused(target, refused);
  return `${module}\n\n# ---- ${adapter.title}: the adapter (calls decide above) ----\n\n${adapter.python.trim()}\n`;
}

/** A file name for the exported module of a target (a Python module name: no hyphen). */
export const exportFileName = (target: ExportTarget): string => (target === 'python' ? 'gate.py' : `gate_${target.replaceAll('-', '_')}.py`);

/** Built-in gates by name: each method's gate with its knobs (the given config's, or the defaults), and the whole-session Binary RL variant. */
export function builtinGateByName(name: string, knobs: Omit<GateKnobs, 'method'>): string | null {
  if (name === 'binary-rl-whole-session') return binaryRlWholeSessionText(knobs);
  const methods = ['binary-rl', 'opd', 'combine', 'grpo', 'dr-grpo'] as const;
  const method = methods.find((m) => m === name);
  return method ? builtinGateText({ ...knobs, method }) : null;
}

export const BUILTIN_GATE_NAMES = ['binary-rl', 'binary-rl-whole-session', 'opd', 'combine', 'grpo', 'dr-grpo'] as const;
