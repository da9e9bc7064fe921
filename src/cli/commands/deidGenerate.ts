import { existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { LabelResolver, TAXONOMY, generateDocuments, readAnnotatedFolder, readDatasetLabels, readReplacementLists, type ReplacementMode, type UnknownLabelPolicy } from '../../deid/index.js';
import { openAtomicWriteStream } from '../../io/index.js';
import { parseIntFlag } from '../parseFlags.js';
import type { Reporter } from '../reporter.js';

export interface DeidGenerateOptions {
  judgments: string;
  replacements: string;
  replaceMap?: string;
  replicas: string;
  replacement: ReplacementMode;
  unknownLabel: UnknownLabelPolicy;
  seed: string;
  skipBadDocs?: boolean;
  out: string;
  force?: boolean;
}

/** `ppmlm deid generate`: annotated judgments + replacement lists → surrogate-filled documents with labelled spans (JSONL). */
export async function deidGenerate(options: DeidGenerateOptions, out: Reporter): Promise<void> {
  const replicas = parseIntFlag(options.replicas, '--replicas', { min: 1, max: 1000 });
  const seed = parseIntFlag(options.seed, '--seed');
  // The Thunder-DeID layout keeps replace_map.json beside the judgments folder.
  const replaceMap = options.replaceMap ?? [join(dirname(options.judgments), 'replace_map.json')].find((p) => existsSync(p));
  const resolver = new LabelResolver(TAXONOMY, await readDatasetLabels(options.replacements, replaceMap), options.unknownLabel);
  const lists = await readReplacementLists(options.replacements);
  let skipped = 0;
  const docs = await readAnnotatedFolder(options.judgments, options.skipBadDocs ? (err) => (skipped++, out.warn(`skipped ${err.located}`)) : undefined);
  out.info(`${docs.length} judgments, ${lists.size} replacement lists${replaceMap ? `, synonyms from ${replaceMap}` : ''}`);
  const file = await openAtomicWriteStream(options.out, { force: options.force });
  let written = 0;
  let spans = 0;
  try {
    for (const doc of generateDocuments(docs, lists, resolver, { replicas, seed, mode: options.replacement })) {
      written++;
      spans += doc.spans.length;
      if (!file.stream.write(`${JSON.stringify(doc)}\n`)) await new Promise<void>((r) => file.stream.once('drain', () => r()));
      if (written % 500 === 0) out.progress(`deid generate: ${written} documents`);
    }
    await file.commit();
  } catch (err) {
    await file.abort();
    throw err;
  }
  out.progressDone();
  out.result(`wrote ${options.out}: ${written} documents (${replicas} replica(s), ${options.replacement} replacement), ${spans} labelled spans${skipped ? `; skipped ${skipped} malformed judgments` : ''}`);
}
