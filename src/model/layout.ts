// Parameter layout: every weight of the policy lives in ONE flat Float32Array (one buffer, one
// Adam for all parameters: tiny models are dispatch-bound). The layout names each slice.
import type { PolicyShape } from '../core/engine';
import { Rng } from '../core/rng';

export type InitKind = 'normal' | 'residual' | 'ones' | 'zeros';

export interface ParamSpec {
  name: string;
  shape: number[];
  offset: number;
  size: number;
  init: InitKind;
  /** AdamW weight decay applies to matrices only (not to biases, norms or embeddings). */
  decay: boolean;
}

export interface ParamLayout {
  shape: PolicyShape;
  params: ParamSpec[];
  total: number;
}

export function validateShape(s: PolicyShape): void {
  for (const [k, v] of Object.entries(s)) {
    if (!Number.isInteger(v) || v < 1) throw new Error(`model.${k} must be a positive integer, got ${v}`);
  }
  if (s.dModel % s.heads !== 0) throw new Error(`model.dModel (${s.dModel}) must be divisible by model.heads (${s.heads})`);
  if (s.context < 2) throw new Error('model.context must be at least 2');
}

export function paramLayout(shape: PolicyShape): ParamLayout {
  validateShape(shape);
  const { vocab, context, dModel: d, layers, mlp } = shape;
  const params: ParamSpec[] = [];
  let offset = 0;
  const add = (name: string, dims: number[], init: InitKind, decay = false) => {
    const size = dims.reduce((a, b) => a * b, 1);
    params.push({ name, shape: dims, offset, size, init, decay });
    offset += size;
  };
  add('tok_emb', [vocab, d], 'normal');
  add('pos_emb', [context, d], 'normal');
  for (let l = 0; l < layers; l++) {
    add(`l${l}.ln1.g`, [d], 'ones');
    add(`l${l}.ln1.b`, [d], 'zeros');
    add(`l${l}.attn.w_qkv`, [d, 3 * d], 'normal', true);
    add(`l${l}.attn.b_qkv`, [3 * d], 'zeros');
    add(`l${l}.attn.w_o`, [d, d], 'residual', true);
    add(`l${l}.attn.b_o`, [d], 'zeros');
    add(`l${l}.ln2.g`, [d], 'ones');
    add(`l${l}.ln2.b`, [d], 'zeros');
    add(`l${l}.mlp.w_in`, [d, mlp], 'normal', true);
    add(`l${l}.mlp.b_in`, [mlp], 'zeros');
    add(`l${l}.mlp.w_out`, [mlp, d], 'residual', true);
    add(`l${l}.mlp.b_out`, [d], 'zeros');
  }
  add('ln_f.g', [d], 'ones');
  add('ln_f.b', [d], 'zeros');
  add('unembed', [d, vocab], 'normal', true);
  return { shape, params, total: offset };
}

/** Deterministic GPT-2 style init from a seed (std 0.02; residual projections / √(2·layers)). */
export function initParams(layout: ParamLayout, seed: number): Float32Array {
  const rng = new Rng(seed);
  const out = new Float32Array(layout.total);
  const residualStd = 0.02 / Math.sqrt(2 * layout.shape.layers);
  for (const p of layout.params) {
    const view = out.subarray(p.offset, p.offset + p.size);
    if (p.init === 'ones') view.fill(1);
    else if (p.init === 'normal') for (let i = 0; i < p.size; i++) view[i] = 0.02 * rng.normal();
    else if (p.init === 'residual') for (let i = 0; i < p.size; i++) view[i] = residualStd * rng.normal();
  }
  return out;
}

/** 1 where AdamW decays the parameter, 0 elsewhere. */
export function decayMask(layout: ParamLayout): Float32Array {
  const m = new Float32Array(layout.total);
  for (const p of layout.params) if (p.decay) m.fill(1, p.offset, p.offset + p.size);
  return m;
}
