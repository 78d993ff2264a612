/**
 * Tiny ONNX models for the browser probe, encoded with onnx-proto (works in Node and in the
 * Vite build). Pure: no DOM, no onnxruntime.
 */
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

const FLOAT = onnx.TensorProto.DataType.FLOAT;

function valueInfo(name: string, dims: (number | string)[]): onnxProto.onnx.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType: FLOAT,
        shape: {
          dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })),
        },
      },
    },
  };
}

/** Bias initializer of `matmulAddModel`: b[i] = 0.1·(i+1). */
export function matmulAddBias(n: number): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => 0.1 * (i + 1));
}

/**
 * Y = X·W + B with X [batch, n] (symbolic batch), W [n, n] an input, B [n] an initializer.
 * Y has X's shape, so Y can be fed back as the next X.
 */
export function matmulAddModel(n = 4): Uint8Array {
  const bias = matmulAddBias(n);
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'invariant-lab-probe',
    opsetImport: [{ domain: '', version: 17 }],
    graph: {
      name: 'matmul_add',
      node: [
        { opType: 'MatMul', input: ['X', 'W'], output: ['XW'], name: 'mm' },
        { opType: 'Add', input: ['XW', 'B'], output: ['Y'], name: 'add' },
      ],
      initializer: [{ name: 'B', dims: [n], dataType: FLOAT, floatData: Array.from(bias) }],
      input: [valueInfo('X', ['batch', n]), valueInfo('W', [n, n])],
      output: [valueInfo('Y', ['batch', n])],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

/** Float64 reference of `matmulAddModel` applied `steps` times, feeding Y back as X. */
export function matmulAddReference(
  x: ArrayLike<number>,
  w: ArrayLike<number>,
  rows: number,
  n: number,
  steps = 1,
): number[] {
  const b = matmulAddBias(n);
  let cur = Array.from(x);
  for (let s = 0; s < steps; s++) {
    const next = new Array<number>(rows * n).fill(0);
    for (let r = 0; r < rows; r++) {
      for (let j = 0; j < n; j++) {
        let acc = b[j]!;
        for (let k = 0; k < n; k++) acc += cur[r * n + k]! * w[k * n + j]!;
        next[r * n + j] = acc;
      }
    }
    cur = next;
  }
  return cur;
}

/** Base64 of bytes, for passing models through Playwright's page.evaluate. */
export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

export function fromBase64(b64: string): Uint8Array {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}
