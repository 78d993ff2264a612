/** The experiments page's URL keys (as in the lab): `backend=auto|webgpu|wasm`, `pretrain=N`. */
import type { BackendPreference } from '../../../workers/lab.api';
import type { CellRunnerOptions } from './runner';

export function pageOptions(search: string, baseUrl: string): { runner: CellRunnerOptions; problems: string[] } {
  const q = new URLSearchParams(search);
  const problems: string[] = [];
  let prefer: BackendPreference = 'auto';
  const b = q.get('backend');
  if (b === 'auto' || b === 'webgpu' || b === 'wasm') prefer = b;
  else if (b !== null) problems.push(`backend=${b}: expected auto, webgpu or wasm`);
  const p = q.get('pretrain');
  let pretrainSteps: number | undefined;
  if (p !== null) {
    const n = Number(p);
    if (Number.isInteger(n) && n >= 1) pretrainSteps = n;
    else problems.push(`pretrain=${p}: expected a positive integer`);
  }
  return { runner: { prefer, baseUrl, ...(pretrainSteps !== undefined ? { pretrainSteps } : {}) }, problems };
}
