// Reverse-mode autodiff over the builder's graph: walk the (topologically ordered) node list
// backwards from a scalar loss and append the backward nodes to the same graph.
import type { Tensor } from './builder';
import { add } from './ops';
import { GRAD_RULES, NON_DIFFERENTIABLE } from './ops/rules';

/** Gradients of a scalar `loss` with respect to each tensor in `wrt` (zeros where unreachable). */
export function grad(loss: Tensor, wrt: Tensor[]): Tensor[] {
  if (loss.shape.length !== 0) throw new Error(`grad needs a scalar loss, got shape [${loss.shape}]`);
  return gradFrom([[loss, loss.graph.scalar(1, loss.dtype)]], wrt);
}

/**
 * Gradients of a loss w.r.t. `wrt` given the loss's gradient w.r.t. some intermediate tensors
 * (`seeds`: [tensor, its gradient, same shape]): backpropagation starts there. Used where the
 * gradient at a tensor is known in closed form (src/model/ppo-head.ts: the PPO loss w.r.t. the
 * logits), so the ops after it need no backward nodes.
 */
export function gradFrom(seeds: [Tensor, Tensor][], wrt: Tensor[]): Tensor[] {
  const g = wrt[0].graph;
  for (const [t, d] of seeds) {
    if (d.shape.length !== t.shape.length || d.shape.some((n, i) => n !== t.shape[i])) throw new Error(`gradFrom: seed shape [${d.shape}] differs from its tensor's [${t.shape}]`);
  }
  const grads = new Map<Tensor, Tensor>(seeds);

  // Only nodes on a path from `wrt` to the loss need a backward pass.
  const needed = new Set<Tensor>(wrt);
  for (const node of g.nodes) {
    if (NON_DIFFERENTIABLE.has(node.op)) continue;
    if (node.inputs.some((t) => needed.has(t))) for (const o of node.outputs) needed.add(o);
  }

  for (let i = g.nodes.length - 1; i >= 0; i--) {
    const node = g.nodes[i];
    if (NON_DIFFERENTIABLE.has(node.op) || !node.outputs.some((o) => grads.has(o))) continue;
    if (!node.inputs.some((t) => needed.has(t))) continue;
    const rule = GRAD_RULES.get(node.op);
    if (!rule) throw new Error(`no backward rule for ${node.op}`);
    const dOut = node.outputs.map((o) => grads.get(o) ?? g.scalar(0, o.dtype));
    const dIn = rule(node, dOut);
    node.inputs.forEach((input, k) => {
      const thunk = dIn[k];
      if (!thunk || !needed.has(input)) return;
      const d = thunk();
      const prev = grads.get(input);
      grads.set(input, prev ? add(prev, d) : d);
    });
  }
  return wrt.map((t) => {
    const d = grads.get(t);
    if (d) return d;
    return t.graph.node('Mul', [t, g.scalar(0, t.dtype)], [{ dtype: t.dtype, shape: t.shape }])[0];
  });
}
