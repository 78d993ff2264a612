// A typed ONNX graph builder: every tensor carries its dtype and a static shape (a string dim is a
// symbolic size, e.g. the batch), every attribute carries an explicit type (JS cannot tell 1.0
// from 1). Nodes are appended in creation order, so the node list is always topologically sorted —
// the autodiff in grad.ts walks it backwards.

export type DType = 'float32' | 'float64' | 'int32' | 'int64' | 'bool';
export type Dim = number | string;
export type Shape = readonly Dim[];

export type Attr =
  | { kind: 'int'; value: number }
  | { kind: 'float'; value: number }
  | { kind: 'ints'; value: number[] }
  | { kind: 'floats'; value: number[] }
  | { kind: 'string'; value: string };

export const attr = {
  int: (value: number): Attr => ({ kind: 'int', value }),
  float: (value: number): Attr => ({ kind: 'float', value }),
  ints: (value: number[]): Attr => ({ kind: 'ints', value }),
  floats: (value: number[]): Attr => ({ kind: 'floats', value }),
  string: (value: string): Attr => ({ kind: 'string', value }),
};

export class Tensor {
  constructor(
    readonly graph: Graph,
    readonly name: string,
    readonly dtype: DType,
    readonly shape: Shape,
    /** The node that produced it (undefined for inputs and constants). */
    readonly producer?: GraphNode,
  ) {}
  get rank(): number {
    return this.shape.length;
  }
  get isFloat(): boolean {
    return this.dtype === 'float32' || this.dtype === 'float64';
  }
}

export interface GraphNode {
  readonly op: string;
  readonly inputs: Tensor[];
  readonly outputs: Tensor[];
  readonly attrs: Record<string, Attr>;
  /** Extra data a backward rule needs that is not an ONNX attribute (e.g. a non-differentiable tag). */
  readonly meta?: Record<string, unknown>;
  /** The operator set of a non-standard op (onnxruntime's 'com.microsoft'); undefined: ONNX itself. */
  readonly domain?: string;
}

export type ConstData = Float32Array | Float64Array | Int32Array | BigInt64Array | Uint8Array;

export interface Initializer {
  tensor: Tensor;
  data: ConstData;
}

export class Graph {
  readonly nodes: GraphNode[] = [];
  readonly inputs: Tensor[] = [];
  readonly outputs: { name: string; tensor: Tensor }[] = [];
  readonly initializers: Initializer[] = [];
  private counter = 0;
  private scalarCache = new Map<string, Tensor>();

  constructor(readonly name = 'graph') {}

  private fresh(prefix: string): string {
    return `${prefix}_${this.counter++}`;
  }

  input(name: string, dtype: DType, shape: Shape): Tensor {
    if (this.inputs.some((t) => t.name === name)) throw new Error(`duplicate graph input '${name}'`);
    const t = new Tensor(this, name, dtype, shape);
    this.inputs.push(t);
    return t;
  }

  /** A constant tensor stored as an initializer. */
  constant(values: ArrayLike<number> | ConstData, dtype: DType, shape: Shape, name?: string): Tensor {
    const size = shape.reduce<number>((a, d) => a * (d as number), 1);
    if (shape.some((d) => typeof d !== 'number')) throw new Error('constants need a static shape');
    if (values.length !== size) throw new Error(`constant of shape [${shape}] needs ${size} values, got ${values.length}`);
    const t = new Tensor(this, name ?? this.fresh('const'), dtype, shape);
    this.initializers.push({ tensor: t, data: toTyped(values, dtype) });
    return t;
  }

  /** A cached scalar constant of the given dtype (shape []). */
  scalar(value: number, dtype: DType = 'float32'): Tensor {
    const key = `${dtype}:${Object.is(value, -0) ? '-0' : value}`;
    let t = this.scalarCache.get(key);
    if (!t) {
      t = this.constant([value], dtype, []);
      this.scalarCache.set(key, t);
    }
    return t;
  }

  /** A cached int64 vector constant (axes, shapes, slice bounds). */
  int64s(values: number[]): Tensor {
    const key = `i64v:${values.join(',')}`;
    let t = this.scalarCache.get(key);
    if (!t) {
      t = this.constant(values, 'int64', [values.length]);
      this.scalarCache.set(key, t);
    }
    return t;
  }

  /** A tensor made once per graph and key (e.g. the ones row of a symbolic row count). */
  memo(key: string, make: () => Tensor): Tensor {
    let t = this.scalarCache.get(`memo:${key}`);
    if (!t) {
      t = make();
      this.scalarCache.set(`memo:${key}`, t);
    }
    return t;
  }

  /** Append a node; `outs` gives dtype and shape of each output (shape inference is the caller's). */
  node(
    op: string,
    inputs: Tensor[],
    outs: { dtype: DType; shape: Shape }[],
    attrs: Record<string, Attr> = {},
    meta?: Record<string, unknown>,
    domain?: string,
  ): Tensor[] {
    for (const t of inputs) if (t.graph !== this) throw new Error(`${op}: input ${t.name} belongs to another graph`);
    const outputs: Tensor[] = [];
    const node: GraphNode = { op, inputs, outputs, attrs, meta, domain };
    for (const o of outs) outputs.push(new Tensor(this, this.fresh(op.toLowerCase()), o.dtype, o.shape, node));
    this.nodes.push(node);
    return outputs;
  }

  /** Expose a tensor as a named graph output (through an Identity so names stay stable). */
  output(name: string, t: Tensor): void {
    if (this.outputs.some((o) => o.name === name)) throw new Error(`duplicate graph output '${name}'`);
    const node: GraphNode = { op: 'Identity', inputs: [t], outputs: [], attrs: {} };
    const out = new Tensor(this, name, t.dtype, t.shape, node);
    node.outputs.push(out);
    this.nodes.push(node);
    this.outputs.push({ name, tensor: out });
  }
}

function toTyped(values: ArrayLike<number> | ConstData, dtype: DType): ConstData {
  switch (dtype) {
    case 'float32':
      return values instanceof Float32Array ? values : Float32Array.from(values as ArrayLike<number>);
    case 'float64':
      return values instanceof Float64Array ? values : Float64Array.from(values as ArrayLike<number>);
    case 'int32':
      return values instanceof Int32Array ? values : Int32Array.from(values as ArrayLike<number>);
    case 'int64':
      return values instanceof BigInt64Array ? values : BigInt64Array.from(Array.from(values as ArrayLike<number>, (v) => BigInt(v)));
    case 'bool':
      return values instanceof Uint8Array ? values : Uint8Array.from(values as ArrayLike<number>, (v) => (v ? 1 : 0));
  }
}

/** Numpy broadcasting of two static/symbolic shapes. */
export function broadcastShapes(a: Shape, b: Shape): Dim[] {
  const rank = Math.max(a.length, b.length);
  const out: Dim[] = [];
  for (let i = 0; i < rank; i++) {
    const da = a[a.length - rank + i] ?? 1;
    const db = b[b.length - rank + i] ?? 1;
    if (da === db || db === 1) out.push(da);
    else if (da === 1) out.push(db);
    else throw new Error(`cannot broadcast [${a}] with [${b}]`);
  }
  return out;
}

export function numel(shape: Shape): number {
  let n = 1;
  for (const d of shape) {
    if (typeof d !== 'number') throw new Error(`numel of a symbolic shape [${shape}]`);
    n *= d;
  }
  return n;
}
