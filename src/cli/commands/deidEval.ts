import { Rng } from '../../engine/random.js';
import { labelledText, openModelAnalyzer, predictLabels, alignLabels, recordedPart, tokenMetrics, type AnnotatedDocument, type LabelLevel, type SpanDocument, type SplitRecord } from '../../deid/index.js';
import { UsageError } from '../../errors.js';
import { selectBackend, type BackendRequest } from '../../engine/index.js';
import { loadTokenClassifier } from '../../model/index.js';
import type { AnalyzerChoice } from '../../text/index.js';
import { readDeidSource, predictionFlags, predictOptionsFor, type DeidSourceFlags } from '../deidInputs.js';
import { parseIntFlag } from '../parseFlags.js';
import type { Reporter } from '../reporter.js';

export interface DeidEvalOptions extends DeidSourceFlags {
  model: string;
  split: 'test' | 'dev' | 'all';
  seqLen?: string;
  stride?: string;
  piiThreshold?: string;
  seed: string;
  analyzer: AnalyzerChoice;
  json?: boolean;
  backend: BackendRequest;
}

/** `ppmlm deid eval`: binary token P/R/F1, micro F1 over labels, per-label table, most confused pairs. */
export async function deidEval(options: DeidEvalOptions, out: Reporter): Promise<void> {
  const flags = predictionFlags(options);
  const seed = parseIntFlag(options.seed, '--seed');
  await selectBackend(options.backend, { runsOnWebgpu: true });
  const { model, tokenizer, labels, provenance } = await loadTokenClassifier(options.model);
  const window = predictOptionsFor(flags, model, options.model, provenance);
  const level = (provenance?.level ?? 3) as LabelLevel;
  const input = await readDeidSource(options, out);
  const docs: { id: string }[] = input.docs;
  const record = provenance?.split as SplitRecord | Record<'train' | 'dev' | 'test', string[]> | undefined;
  const part =
    options.split === 'all' || record === undefined
      ? undefined
      : 'fingerprints' in record
        ? recordedPart(docs, record, options.split)
        : // Models trained before the split was fingerprinted list the ids themselves.
          docs.filter((d) => new Set(record[options.split as 'train' | 'dev' | 'test']).has(d.id));
  if (options.split !== 'all' && record !== undefined && (part === undefined || part.length === 0)) {
    throw new UsageError(`these ${input.unit} do not reproduce the ${options.split} split ${options.model} was trained with (other files, or other ids); pass the training inputs, or --split all`);
  }
  const evalDocs = part ?? docs;
  out.info(`evaluating ${evalDocs.length} ${input.unit} (${part ? `${options.split} split` : 'all'}) at level ${level}`);
  const analyzer = openModelAnalyzer(provenance, options.analyzer, out.messages);
  const predictOptions = { ...window, analyzer };
  const gold: string[] = [];
  const predicted: string[] = [];
  try {
    for (const [i, doc] of evalDocs.entries()) {
      // Surrogates drawn with another seed than training's, so the values themselves are unseen.
      const t = input.kind === 'spans' ? (doc as SpanDocument) : labelledText(doc as AnnotatedDocument, input.lists, input.resolver, level, new Rng(seed).fork(i), 0);
      const prediction = await predictLabels(model, tokenizer, labels, t.text, predictOptions);
      gold.push(...alignLabels(prediction.encoding, t.spans));
      predicted.push(...prediction.predicted);
      out.progress(`deid eval: ${i + 1}/${evalDocs.length}`);
    }
  } finally {
    await analyzer?.close();
  }
  out.progressDone();
  const m = tokenMetrics(gold, predicted);
  const decision = predictOptions.piiThreshold === undefined ? 'argmax' : `PII threshold ${predictOptions.piiThreshold.toFixed(4)}`;
  if (options.json) return out.json({ model: options.model, level, documents: evalDocs.length, piiThreshold: predictOptions.piiThreshold ?? 'argmax', ...m });
  const f = (x: number) => x.toFixed(4);
  out.result(
    [
      `${evalDocs.length} ${input.unit}, ${m.tokens} tokens, level ${level}, ${decision}`,
      `binary (PII or not)  P ${f(m.binary.precision)}  R ${f(m.binary.recall)}  F1 ${f(m.binary.f1)}`,
      `micro over labels    P ${f(m.micro.precision)}  R ${f(m.micro.recall)}  F1 ${f(m.micro.f1)}`,
      'per label:',
      ...Object.entries(m.perLabel).sort((a, b) => b[1].support - a[1].support).map(([l, r]) => `  ${l.padEnd(24)} P ${f(r.precision)}  R ${f(r.recall)}  F1 ${f(r.f1)}  (${r.support} tokens)`),
      'most confused (gold → predicted):',
      ...m.confusions.map((c) => `  ${c.gold} → ${c.predicted}: ${c.count}`),
    ].join('\n'),
  );
}
