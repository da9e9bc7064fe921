import type { EncoderConfig, EncoderModel, Params } from '../model/index.js';
import { basePrefix, decoderWeight } from '../model/index.js';
import { ELEMENT_TYPE, float32Raw, int64Raw, type OnnxAttribute, type OnnxGraph, type OnnxNode, type OnnxTensor, type OnnxValueInfo } from './modelProto.js';

/**
 * The opset the graph is written against: 17 (ONNX 1.12) has LayerNormalization as one op; onnxruntime
 * runs it from 1.13 on, and every onnxruntime-web that transformers.js ships is newer.
 */
export const OPSET = 17;

/** Dynamic axes, named as Hugging Face's exports (optimum) name them. */
const BATCH = 'batch_size';
const SEQUENCE = 'sequence_length';

const int = (value: number): OnnxAttribute => ({ type: 'int', value });
const ints = (value: number[]): OnnxAttribute => ({ type: 'ints', value });
const float = (value: number): OnnxAttribute => ({ type: 'float', value });

/** Collects nodes and initializers; each op returns the name of its output. */
class GraphBuilder {
  readonly nodes: OnnxNode[] = [];
  readonly initializers: OnnxTensor[] = [];
  private readonly constants = new Map<string, string>();

  constructor(private readonly params: Params) {}

  op(opType: string, inputs: string[], attributes?: Record<string, OnnxAttribute>): string {
    const output = `${opType.toLowerCase()}_${this.nodes.length}`;
    this.nodes.push({ opType, inputs, outputs: [output], ...(attributes && { attributes }) });
    return output;
  }

  /** A parameter as an initializer of its Hugging Face name, in ppmlm's layout (Linear weights [in, out], as MatMul takes them). */
  param(name: string): string {
    if (!this.constants.has(name)) {
      const v = this.params.get(name);
      if (v === undefined) throw new Error(`missing parameter ${name}`);
      this.initializers.push({ name, type: 'float32', dims: [...v.shape], raw: float32Raw(v.dataSync() as Float32Array) });
      this.constants.set(name, name);
    }
    return name;
  }

  private constant(key: string, make: (name: string) => OnnxTensor): string {
    let name = this.constants.get(key);
    if (name === undefined) {
      name = `const_${this.constants.size}`;
      this.initializers.push(make(name));
      this.constants.set(key, name);
    }
    return name;
  }

  /** A float32 scalar constant. */
  scalar(value: number): string {
    return this.constant(`f:${value}`, (name) => ({ name, type: 'float32', dims: [], raw: float32Raw(Float32Array.of(value)) }));
  }

  /** An int64 constant: a 1-D tensor, or a scalar with `scalar`. */
  int64(values: number[], scalar = false): string {
    return this.constant(`i:${scalar}:${values.join(',')}`, (name) => ({ name, type: 'int64', dims: scalar ? [] : [values.length], raw: int64Raw(values) }));
  }
}

/** x·W + b for a Linear layer stored under `prefix`. */
function dense(g: GraphBuilder, prefix: string, x: string): string {
  return g.op('Add', [g.op('MatMul', [x, g.param(`${prefix}.weight`)]), g.param(`${prefix}.bias`)]);
}

function layerNorm(g: GraphBuilder, prefix: string, x: string, eps: number): string {
  return g.op('LayerNormalization', [x, g.param(`${prefix}.weight`), g.param(`${prefix}.bias`)], { axis: int(-1), epsilon: float(eps) });
}

/** The activations of model/encoder.ts, op for op: exact GELU through Erf, the tanh approximation, ReLU. */
function activation(g: GraphBuilder, kind: EncoderConfig['hidden_act'], x: string): string {
  if (kind === 'relu') return g.op('Relu', [x]);
  if (kind === 'gelu_new') {
    const cube = g.op('Mul', [x, g.op('Mul', [x, x])]);
    const inner = g.op('Mul', [g.scalar(Math.sqrt(2 / Math.PI)), g.op('Add', [x, g.op('Mul', [g.scalar(0.044715), cube])])]);
    return g.op('Mul', [g.op('Mul', [g.scalar(0.5), x]), g.op('Add', [g.scalar(1), g.op('Tanh', [inner])])]);
  }
  const cdf = g.op('Mul', [g.scalar(0.5), g.op('Add', [g.scalar(1), g.op('Erf', [g.op('Mul', [x, g.scalar(Math.SQRT1_2)])])])]);
  return g.op('Mul', [x, cdf]);
}

/**
 * Word + position + token-type embeddings and LayerNorm, [batch, seq, hidden]. Positions count from 0
 * (BERT) or, for RoBERTa, from padding_idx + 1 at non-padding tokens with padding_idx at padding, as
 * encoder.ts and Hugging Face's create_position_ids_from_input_ids do. BERT reads token_type_ids; RoBERTa
 * takes none and adds type 0.
 */
function embeddings(g: GraphBuilder, config: EncoderConfig): string {
  const b = basePrefix(config);
  const words = g.op('Gather', [g.param(`${b}.embeddings.word_embeddings.weight`), 'input_ids']);
  const table = g.param(`${b}.embeddings.position_embeddings.weight`);
  let positions: string;
  let types: string;
  if (config.model_type === 'roberta') {
    const pad = g.int64([config.pad_token_id], true);
    const notPad = g.op('Cast', [g.op('Not', [g.op('Equal', ['input_ids', pad])])], { to: int(ELEMENT_TYPE.int64) });
    const ids = g.op('Add', [g.op('Mul', [g.op('CumSum', [notPad, g.int64([1], true)]), notPad]), pad]);
    positions = g.op('Gather', [table, ids]);
    types = g.op('Gather', [g.param(`${b}.embeddings.token_type_embeddings.weight`), g.int64([0], true)]);
  } else {
    // The first seq rows of the table, [seq, hidden], broadcast over the batch.
    const seq = g.op('Shape', ['input_ids'], { start: int(1), end: int(2) });
    positions = g.op('Slice', [table, g.int64([0]), seq, g.int64([0])]);
    types = g.op('Gather', [g.param(`${b}.embeddings.token_type_embeddings.weight`), 'token_type_ids']);
  }
  return layerNorm(g, `${b}.embeddings.LayerNorm`, g.op('Add', [g.op('Add', [words, positions]), types]), config.layer_norm_eps);
}

/** The additive attention mask [batch, 1, 1, seq] of encoder.ts: 0 where attended, −1e9 at padding. */
function attentionBias(g: GraphBuilder): string {
  const mask = g.op('Cast', ['attention_mask'], { to: int(ELEMENT_TYPE.float32) });
  return g.op('Unsqueeze', [g.op('Mul', [g.op('Sub', [g.scalar(1), mask]), g.scalar(-1e9)]), g.int64([1, 2])]);
}

/** One post-LayerNorm transformer layer, [batch, seq, hidden] in and out. */
function layer(g: GraphBuilder, config: EncoderConfig, l: number, x: string, bias: string): string {
  const nh = config.num_attention_heads;
  const dh = config.hidden_size / nh;
  const p = `${basePrefix(config)}.encoder.layer.${l}`;
  // Reshape's 0 keeps the input's batch and sequence sizes, whatever they are at run time.
  const heads = (name: string, perm: number[]) => g.op('Transpose', [g.op('Reshape', [dense(g, `${p}.attention.self.${name}`, x), g.int64([0, 0, nh, dh])])], { perm: ints(perm) });
  const q = heads('query', [0, 2, 1, 3]);
  const kT = heads('key', [0, 2, 3, 1]);
  const v = heads('value', [0, 2, 1, 3]);
  const scores = g.op('Add', [g.op('Mul', [g.op('MatMul', [q, kT]), g.scalar(1 / Math.sqrt(dh))]), bias]);
  const probs = g.op('Softmax', [scores], { axis: int(-1) });
  const context = g.op('Reshape', [g.op('Transpose', [g.op('MatMul', [probs, v])], { perm: ints([0, 2, 1, 3]) }), g.int64([0, 0, config.hidden_size])]);
  const attended = layerNorm(g, `${p}.attention.output.LayerNorm`, g.op('Add', [dense(g, `${p}.attention.output.dense`, context), x]), config.layer_norm_eps);
  const inter = activation(g, config.hidden_act, dense(g, `${p}.intermediate.dense`, attended));
  return layerNorm(g, `${p}.output.LayerNorm`, g.op('Add', [dense(g, `${p}.output.dense`, inter), attended]), config.layer_norm_eps);
}

/**
 * Masked-LM logits [batch, seq, vocab] as encoder.ts's mlmLogits computes them at every position: dense,
 * exact GELU, LayerNorm, then the decoder. Gemm reads a tied decoder's embedding matrix transposed in place
 * (no second [hidden, vocab] copy in the file), on the hidden states flattened to 2-D.
 */
function mlmHead(g: GraphBuilder, config: EncoderConfig, hidden: string): string {
  const roberta = config.model_type === 'roberta';
  const t = activation(g, 'gelu', dense(g, roberta ? 'lm_head.dense' : 'cls.predictions.transform.dense', hidden));
  const normed = layerNorm(g, roberta ? 'lm_head.layer_norm' : 'cls.predictions.transform.LayerNorm', t, config.layer_norm_eps);
  const flat = g.op('Reshape', [normed, g.int64([-1, config.hidden_size])]);
  const decoder = decoderWeight(config);
  const logits = g.op('Gemm', [flat, g.param(decoder.name), g.param(roberta ? 'lm_head.bias' : 'cls.predictions.bias')], { transB: int(decoder.tied ? 1 : 0) });
  const shape = g.op('Concat', [g.op('Shape', ['input_ids']), g.int64([config.vocab_size])], { axis: int(0) });
  return g.op('Reshape', [logits, shape]);
}

/** Sequence-classification logits [batch, labels]: the first token's state through the pooler (dense + tanh) and the classifier. */
function sequenceHead(g: GraphBuilder, config: EncoderConfig, hidden: string): string {
  const first = g.op('Gather', [hidden, g.int64([0], true)], { axis: int(1) });
  return dense(g, 'classifier', g.op('Tanh', [dense(g, `${basePrefix(config)}.pooler.dense`, first)]));
}

/**
 * The encoder with its head as an ONNX graph: inputs input_ids and attention_mask (int64 [batch, seq]),
 * plus token_type_ids for BERT; output `logits`, [batch, seq, vocab | labels] or [batch, labels] for
 * sequence classification. Batch and sequence axes are dynamic. Weights are initializers under their
 * Hugging Face names.
 */
export function encoderGraph(model: EncoderModel): OnnxGraph {
  const { config, head } = model;
  const g = new GraphBuilder(model.params);
  const tokens = (name: string): OnnxValueInfo => ({ name, type: 'int64', shape: [BATCH, SEQUENCE] });
  const inputs = [tokens('input_ids'), tokens('attention_mask'), ...(config.model_type === 'roberta' ? [] : [tokens('token_type_ids')])];
  const bias = attentionBias(g);
  let hidden = embeddings(g, config);
  for (let l = 0; l < config.num_hidden_layers; l++) hidden = layer(g, config, l, hidden, bias);
  const [logits, shape]: [string, (number | string)[]] =
    head === 'mlm'
      ? [mlmHead(g, config, hidden), [BATCH, SEQUENCE, config.vocab_size]]
      : 'tokenClassification' in head
        ? [dense(g, 'classifier', hidden), [BATCH, SEQUENCE, head.tokenClassification]]
        : [sequenceHead(g, config, hidden), [BATCH, head.sequenceClassification]];
  g.nodes.push({ opType: 'Identity', inputs: [logits], outputs: ['logits'] });
  return { name: `ppmlm-${config.model_type}`, nodes: g.nodes, initializers: g.initializers, inputs, outputs: [{ name: 'logits', type: 'float32', shape }] };
}
