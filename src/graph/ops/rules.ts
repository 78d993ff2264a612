// The registry of backward rules. Each op file registers its rule next to its forward builder.
import type { GraphNode, Tensor } from '../builder';

/** Given the node and the gradient of each of its outputs, return the gradient of each input
 *  (null where the input is not differentiable or receives no gradient). */
export type GradRule = (node: GraphNode, dOut: Tensor[]) => (Tensor | null)[];

export const GRAD_RULES = new Map<string, GradRule>();

export function defineGrad(op: string, rule: GradRule): void {
  if (GRAD_RULES.has(op)) throw new Error(`grad rule for ${op} defined twice`);
  GRAD_RULES.set(op, rule);
}

/** Ops whose outputs carry no gradient (comparisons, index arithmetic, sampling helpers). */
export const NON_DIFFERENTIABLE = new Set([
  'Equal', 'Less', 'Greater', 'LessOrEqual', 'GreaterOrEqual', 'And', 'Or', 'Not', 'Shape', 'CumSum', 'StopGradient',
]);
