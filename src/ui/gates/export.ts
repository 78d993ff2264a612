// The gate editor's export: the draft as a Python module for the chosen target (the core's
// exportGate, the same as `npm run export-gate`), or why it cannot be exported (a rule with a
// problem, or a field the trainer's hook cannot provide).
import { ADAPTERS } from '../../core/gates/export/adapters/index';
import { exportFileName, exportGate, type ExportTarget } from '../../core/gates/export/targets';
import { errorText } from '../../core/unknown';
import { LAB_CODE_VERSION } from '../experiment/bundle-io';

export type DraftExport = { ok: true; source: string; filename: string } | { ok: false; reason: string };

/** The draft exported to `target`, or the reason it cannot be. */
export function exportDraft(text: string, target: ExportTarget): DraftExport {
  try {
    return { ok: true, source: exportGate(text, target, { labVersion: LAB_CODE_VERSION, adapters: ADAPTERS }), filename: exportFileName(target) };
  } catch (e) {
    return { ok: false, reason: errorText(e) };
  }
}
