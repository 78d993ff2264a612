// The registry of backward rules. Each op file registers its rule next to its forward builder.
import type { GraphNode, Tensor } from '../builder';

/** Builds one input's gradient on demand: only inputs on a path to the parameters are built. */
export type GradThunk = () => Tensor;

/** Given the node and the gradient of each of its outputs, return per input a builder of its
 *  gradient (null where the input is not differentiable). */
export type GradRule = (node: GraphNode, dOut: Tensor[]) => (GradThunk | null)[];

export const GRAD_RULES = new Map<string, GradRule>();

export function defineGrad(op: string, rule: GradRule): void {
  if (GRAD_RULES.has(op)) throw new Error(`grad rule for ${op} defined twice`);
  GRAD_RULES.set(op, rule);
}

/** Ops whose outputs carry no gradient (comparisons, index arithmetic, sampling helpers). */
export const NON_DIFFERENTIABLE = new Set([
  'Equal', 'Less', 'Greater', 'LessOrEqual', 'GreaterOrEqual', 'And', 'Or', 'Not', 'Shape', 'CumSum', 'Floor',
]);
