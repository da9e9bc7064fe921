import { selectBackend, type BackendRequest } from '../../engine/index.js';
import { fillMask, loadMaskedLm } from '../../model/index.js';
import { UsageError } from '../../errors.js';
import { parseIntFlag } from '../parseFlags.js';
import type { Reporter } from '../reporter.js';

export interface FillMaskOptions {
  model: string;
  text: string;
  topK: string;
  json?: boolean;
  backend: BackendRequest;
}

/** `ppmlm fill-mask`: the top-k tokens for each mask token; --json in the shape of Hugging Face's fill-mask pipeline. */
export async function fillMaskCommand(options: FillMaskOptions, out: Reporter): Promise<void> {
  await selectBackend(options.backend, { runsOnWebgpu: true });
  const topK = parseIntFlag(options.topK, '--top-k', { min: 1, max: 1000 });
  const { model, tokenizer } = await loadMaskedLm(options.model);
  if (!options.text.includes(tokenizer.specials.mask)) {
    throw new UsageError(`--text has no ${tokenizer.specials.mask} token; write it where the model should fill in`);
  }
  const result = await fillMask(model, tokenizer, options.text, topK);
  // As the pipeline returns it: one list of candidates for one mask, a list per mask for several.
  out.summary(options.json, result.length === 1 ? result[0]! : result, () =>
    result.map((cands, i) => [`${tokenizer.specials.mask} #${i + 1}:`, ...cands.map((c) => `  ${c.score.toFixed(4)}  ${c.token_str}`)].join('\n')).join('\n'),
  );
}
