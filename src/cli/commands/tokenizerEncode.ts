import { codePointOffsets, loadTokenizer, withSpecialTokens } from '../../tokenizer/index.js';
import type { Reporter } from '../reporter.js';

export interface TokenizerEncodeOptions {
  model: string;
  text: string;
  /** False: the text's tokens only (`--no-special-tokens`). */
  specialTokens?: boolean;
  json?: boolean;
}

/**
 * `ppmlm tokenizer encode`: a text's tokens with ids and offsets, as Hugging Face's tokenizer gives them with
 * `return_offsets_mapping` (offsets in code points; [CLS] and [SEP], or <s> and </s>, around the text unless
 * `specialTokens` is false, at offsets [0, 0]).
 */
export async function tokenizerEncode(options: TokenizerEncodeOptions, out: Reporter): Promise<void> {
  const tokenizer = await loadTokenizer(options.model);
  const body = tokenizer.tokenize(options.text);
  const enc = options.specialTokens === false ? body : withSpecialTokens(tokenizer, body);
  const offsets = codePointOffsets(options.text, enc.offsets);
  const tokens = enc.ids.map((id) => tokenizer.tokenOf(id));
  if (options.json) return out.result(JSON.stringify({ input_ids: enc.ids, tokens, offset_mapping: offsets, special_tokens_mask: enc.special.map(Number) }));
  out.result(enc.ids.map((id, i) => `${id}\t${tokens[i]}\t${offsets[i]![0]}\t${offsets[i]![1]}`).join('\n'));
}
