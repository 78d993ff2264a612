// Graph → ONNX ModelProto bytes through onnx-proto (protobufjs), IR 8 / opset 17.
import onnxProto from 'onnx-proto';
import type { Attr, ConstData, DType, Graph, Shape, Tensor } from './builder';

const { onnx } = onnxProto;
type AttributeProto = InstanceType<typeof onnx.AttributeProto>;

export const OPSET = 17;
export const IR_VERSION = 8;
export const MS_DOMAIN = 'com.microsoft';

const ELEM_TYPE: Record<DType, number> = { float32: 1, int32: 6, int64: 7, bool: 9, float64: 11 };

function valueInfo(t: Tensor) {
  return onnx.ValueInfoProto.create({
    name: t.name,
    type: { tensorType: { elemType: ELEM_TYPE[t.dtype], shape: shapeProto(t.shape) } },
  });
}

function shapeProto(shape: Shape) {
  return { dim: shape.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) };
}

function attributeProto(name: string, a: Attr): AttributeProto {
  const T = onnx.AttributeProto.AttributeType;
  switch (a.kind) {
    case 'int':
      return onnx.AttributeProto.create({ name, type: T.INT, i: a.value });
    case 'float':
      return onnx.AttributeProto.create({ name, type: T.FLOAT, f: a.value });
    case 'ints':
      return onnx.AttributeProto.create({ name, type: T.INTS, ints: a.value });
    case 'floats':
      return onnx.AttributeProto.create({ name, type: T.FLOATS, floats: a.value });
    case 'string':
      return onnx.AttributeProto.create({ name, type: T.STRING, s: new TextEncoder().encode(a.value) });
  }
}

function rawBytes(data: ConstData): Uint8Array {
  // ONNX raw_data is little-endian, as are all platforms this runs on.
  return new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
}

export function encodeModel(g: Graph): Uint8Array {
  const graph = onnx.GraphProto.create({
    name: g.name,
    node: g.nodes.map((n, i) =>
      onnx.NodeProto.create({
        name: `n${i}_${n.op}`,
        opType: n.op,
        ...(n.domain ? { domain: n.domain } : {}),
        input: n.inputs.map((t) => t.name),
        output: n.outputs.map((t) => t.name),
        attribute: Object.entries(n.attrs).map(([k, v]) => attributeProto(k, v)),
      }),
    ),
    input: g.inputs.map(valueInfo),
    output: g.outputs.map((o) => valueInfo(o.tensor)),
    initializer: g.initializers.map(({ tensor, data }) =>
      onnx.TensorProto.create({
        name: tensor.name,
        dataType: ELEM_TYPE[tensor.dtype],
        dims: tensor.shape as number[],
        rawData: rawBytes(data),
      }),
    ),
  });
  const model = onnx.ModelProto.create({
    irVersion: IR_VERSION,
    producerName: 'invariant-lab',
    // onnxruntime's contrib ops (fused LayerNorm with a residual) are version 1 of 'com.microsoft'
    opsetImport: [{ domain: '', version: OPSET }, ...(g.nodes.some((n) => n.domain === MS_DOMAIN) ? [{ domain: MS_DOMAIN, version: 1 }] : [])],
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}
