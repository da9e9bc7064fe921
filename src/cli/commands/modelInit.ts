import { assertOutputsApart } from '../../io/index.js';
import { checkVocabulary, defaultConfig, disposeParams, initParams, parameterShapes, readProvenance, saveModelDir, vocabularyProvenance } from '../../model/index.js';
import { loadTokenizer } from '../../tokenizer/index.js';
import { selectBackend, type BackendRequest } from '../../engine/index.js';
import { PACKAGE_VERSION } from '../../version.js';
import { parseEncoderShape, parseIntFlag } from '../parseFlags.js';
import type { Reporter } from '../reporter.js';
import { vocabularyCheckOf, type VocabularyFlags } from '../vocabularyOptions.js';

export interface ModelInitOptions extends VocabularyFlags {
  vocab: string;
  out: string;
  hidden: string;
  layers: string;
  heads: string;
  intermediate: string;
  maxPositions: string;
  seed: string;
  force?: boolean;
  json?: boolean;
  backend: BackendRequest;
}

/** `ppmlm model init`: a randomly initialised BERT masked LM (std 0.02 as Hugging Face) for a tokenizer. */
export async function modelInit(options: ModelInitOptions, out: Reporter): Promise<void> {
  await assertOutputsApart({ '--vocab': options.vocab, '--blacklist': options.blacklist }, { '--out': options.out });
  await selectBackend(options.backend);
  const tokenizer = await loadTokenizer(options.vocab);
  // The vocabulary ships with the model: checked, by how tokenizer train made it, before anything is written.
  const origin = (await readProvenance(options.vocab))?.vocabulary;
  const vocabulary = vocabularyProvenance(origin, checkVocabulary(tokenizer, origin, await vocabularyCheckOf(options), (line) => out.info(line)));
  // A byte-level BPE tokenizer means RoBERTa: position ids start after the padding id, one token type.
  const roberta = tokenizer.type === 'bpe';
  const maxPositions = parseIntFlag(options.maxPositions, '--max-positions', { min: 8 });
  const shape = parseEncoderShape(options);
  const config = defaultConfig({
    ...(roberta && { model_type: 'roberta' as const, architectures: ['RobertaForMaskedLM'], type_vocab_size: 1, layer_norm_eps: 1e-5 }),
    vocab_size: tokenizer.vocabSize,
    hidden_size: shape.hidden,
    num_hidden_layers: shape.layers,
    num_attention_heads: shape.heads,
    intermediate_size: shape.intermediate,
    max_position_embeddings: roberta ? maxPositions + tokenizer.idOf(tokenizer.specials.pad)! + 1 : maxPositions,
    pad_token_id: tokenizer.idOf(tokenizer.specials.pad)!,
  });
  const seed = parseIntFlag(options.seed, '--seed');
  const params = initParams(parameterShapes(config), config, seed);
  try {
    await saveModelDir(options.out, { config, params, head: 'mlm' }, tokenizer, { ppmlm: PACKAGE_VERSION, createdAt: new Date().toISOString(), base: 'random-init', seed, ...vocabulary }, { force: options.force });
  } finally {
    disposeParams(params);
  }
  const count = [...parameterShapes(config).values()].reduce((a, s) => a + s.reduce((x, d) => x * d, 1), 0);
  const summary = { out: options.out, modelType: config.model_type, layers: config.num_hidden_layers, hidden: config.hidden_size, heads: config.num_attention_heads, intermediate: config.intermediate_size, vocabSize: config.vocab_size, maxPositions: config.max_position_embeddings, parameters: count, seed };
  out.summary(options.json, summary, (s) => `wrote ${s.out}: ${roberta ? 'RoBERTa' : 'BERT'} ${s.layers} layers, hidden ${s.hidden}, ${s.heads} heads, vocab ${s.vocabSize} (${(s.parameters / 1e6).toFixed(2)}M parameters)`);
}
