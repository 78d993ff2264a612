// The op vocabulary of the graph builder. Importing it registers every backward rule.
//
// The one import cycle of the repository (tests/unit/layers.test.ts allows it here and nowhere
// else): elementwise.ts, shape.ts, matmul.ts and reduce.ts import each other. It is the price
// of writing each op's backward beside its forward (like micrograd): a backward is written in other
// ops (add's gradient sums over the broadcast axes with shape.ts's reduceSumTo; a shape op's gradient
// multiplies and casts with elementwise.ts; matmul's reshapes and transposes), so the files that
// hold the forwards import each other. It is safe because no module calls an imported op while it
// loads: `defineGrad` (rules.ts, which imports no op) only stores the backward functions, and they
// run when a graph is differentiated, after every op module has loaded.
export * from './elementwise';
export * from './reduce';
export * from './shape';
export * from './matmul';
export * from './norm';
