import { readFile, stat } from 'node:fs/promises';
import { readJsonObjects } from '../../corpus/index.js';
import { entitySpans, openModelAnalyzer, predictLabels, replaceEntities, type ReplaceStyle } from '../../deid/index.js';
import { selectBackend, type BackendRequest } from '../../engine/index.js';
import { FormatError } from '../../errors.js';
import { assertCanWriteFile, decodeUtf8Strict, fileSystemError, PRIVATE_FILE_MODE, writeFileAtomic, assertOutputsApart } from '../../io/index.js';
import { loadTokenClassifier } from '../../model/index.js';
import type { AnalyzerChoice } from '../../text/index.js';
import { predictionFlags, predictOptionsFor } from '../deidInputs.js';
import type { Reporter } from '../reporter.js';

export interface DeidApplyOptions {
  model: string;
  in: string;
  out: string;
  /** Undefined: from the extension, so that a JSONL file is never rewritten as one text, its keys and all. */
  format?: 'text' | 'jsonl';
  style: ReplaceStyle;
  spansOut?: string;
  seqLen?: string;
  stride?: string;
  piiThreshold?: string;
  analyzer: AnalyzerChoice;
  force?: boolean;
  json?: boolean;
  backend: BackendRequest;
}

/** `ppmlm deid apply`: rewrites texts with each detected entity a consistent letter or tag (mode 0600). */
export async function deidApply(options: DeidApplyOptions, out: Reporter): Promise<void> {
  await assertOutputsApart({ '--in': options.in, '--model': options.model }, { '--out': options.out, '--spans-out': options.spansOut });
  await assertCanWriteFile(options.out, options.force);
  if (options.spansOut) await assertCanWriteFile(options.spansOut, options.force);
  const flags = predictionFlags(options);
  const format = options.format ?? (/\.(jsonl|ndjson)$/i.test(options.in) ? 'jsonl' : 'text');
  await selectBackend(options.backend, { runsOnWebgpu: true });
  const { model, tokenizer, labels, provenance } = await loadTokenClassifier(options.model);
  // The flags against the model before any input is read.
  const window = predictOptionsFor(flags, model, options.model, provenance);
  const inputError = (err: unknown) => {
    throw fileSystemError(err, options.in, 'check --in');
  };
  if ((await stat(options.in).catch(inputError)).isDirectory()) inputError(Object.assign(new Error('a folder'), { code: 'EISDIR' }));
  const records: { text: string; rest?: Record<string, unknown> }[] =
    format === 'text' ? [{ text: decodeUtf8Strict(await readFile(options.in).catch(inputError), options.in) }] : await readJsonRecords(options.in);
  if (format === 'text' && records[0]!.text.trim() === '') throw new FormatError('the file has no text to de-identify; give a file with text', { file: options.in });
  const analyzer = openModelAnalyzer(provenance, options.analyzer, out.messages);
  const predictOptions = { ...window, analyzer };
  const rewritten: string[] = [];
  const allSpans: unknown[] = [];
  let entities = 0;
  try {
    for (const [i, r] of records.entries()) {
      const { encoding, predicted } = await predictLabels(model, tokenizer, labels, r.text, predictOptions);
      const result = replaceEntities(r.text, entitySpans(r.text, encoding, predicted), options.style);
      entities += result.replacements.length;
      rewritten.push(format === 'text' ? result.text : JSON.stringify({ ...r.rest, text: result.text }));
      allSpans.push({ record: i, spans: result.replacements });
    }
  } finally {
    await analyzer?.close();
  }
  // De-identified output may still hold what the model missed: private like everything derived from the input.
  await writeFileAtomic(options.out, format === 'text' ? rewritten[0]! : `${rewritten.join('\n')}\n`, { force: options.force, mode: PRIVATE_FILE_MODE });
  if (options.spansOut) await writeFileAtomic(options.spansOut, `${allSpans.map((s) => JSON.stringify(s)).join('\n')}\n`, { force: options.force, mode: PRIVATE_FILE_MODE });
  // Counts only: the spans themselves are identifiers and go to --spans-out (0600), never to stdout.
  out.summary(
    options.json,
    { out: options.out, records: records.length, entities, style: options.style, ...(options.spansOut && { spansOut: options.spansOut }) },
    (s) => `wrote ${s.out}: ${s.records} record(s), ${s.entities} entity mentions replaced${s.spansOut ? `; original spans in ${s.spansOut} (mode 0600)` : ''}`,
  );
}

/** JSONL records through the corpus reader (file:line errors, blank lines counted); other keys are kept for the output. */
async function readJsonRecords(path: string): Promise<{ text: string; rest: Record<string, unknown> }[]> {
  const records: { text: string; rest: Record<string, unknown> }[] = [];
  for await (const { value, line } of readJsonObjects(path, (err) => { throw err; })) {
    if (typeof value.text !== 'string') throw new FormatError('each line needs a "text" string', { file: path, line });
    records.push({ text: value.text, rest: value });
  }
  if (records.length === 0) throw new FormatError('no records; each line must be a JSON object with a "text" string', { file: path });
  return records;
}
