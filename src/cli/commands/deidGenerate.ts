import { generateDocuments, type ReplacementMode } from '../../deid/index.js';
import { deidInputPaths, readDeidInputs, type DeidInputFlags } from '../deidInputs.js';
import { assertOutputsApart, assertCanWriteFile, commitOrAbort, openAtomicWriteStream, PRIVATE_FILE_MODE } from '../../io/index.js';
import { parseIntFlag } from '../parseFlags.js';
import type { Reporter } from '../reporter.js';

export interface DeidGenerateOptions extends DeidInputFlags {
  replicas: string;
  replacement: ReplacementMode;
  seed: string;
  out: string;
  force?: boolean;
  json?: boolean;
}

/**
 * `ppmlm deid generate`: annotated judgments + replacement lists → surrogate-filled documents with labelled
 * spans (JSONL, mode 0600: the judgments' own text around the surrogates is private).
 */
export async function deidGenerate(options: DeidGenerateOptions, out: Reporter): Promise<void> {
  const replicas = parseIntFlag(options.replicas, '--replicas', { min: 1, max: 1000 });
  const seed = parseIntFlag(options.seed, '--seed');
  await assertOutputsApart(deidInputPaths(options), { '--out': options.out });
  await assertCanWriteFile(options.out, options.force);
  const { resolver, lists, docs, skipped } = await readDeidInputs(options, out);
  const file = await openAtomicWriteStream(options.out, { force: options.force, mode: PRIVATE_FILE_MODE });
  let written = 0;
  let spans = 0;
  await commitOrAbort(file, async () => {
    for (const doc of generateDocuments(docs, lists, resolver, { replicas, seed, mode: options.replacement })) {
      written++;
      spans += doc.spans.length;
      await file.write(`${JSON.stringify(doc)}\n`);
      if (written % 500 === 0) out.progress(`deid generate: ${written} documents`);
    }
  });
  out.progressDone();
  out.summary(
    options.json,
    { out: options.out, documents: written, replicas, replacement: options.replacement, spans, skipped },
    (s) => `wrote ${s.out}: ${s.documents} documents (${s.replicas} replica(s), ${s.replacement} replacement), ${s.spans} labelled spans${s.skipped ? `; skipped ${s.skipped} malformed judgments` : ''}`,
  );
}
