import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LabelResolver, TAXONOMY, readAnnotatedFolder, readDatasetLabels, readReplacementLists, type UnknownLabelPolicy } from '../deid/index.js';
import type { Reporter } from './reporter.js';

export interface DeidInputFlags {
  judgments: string;
  replacements: string;
  replaceMap?: string;
  unknownLabel: UnknownLabelPolicy;
  skipBadDocs?: boolean;
}

/** Judgments, replacement lists and the label resolver, as every deid command reads them. */
export async function readDeidInputs(flags: DeidInputFlags, out: Reporter) {
  // The Thunder-DeID layout keeps replace_map.json beside the judgments folder.
  const replaceMap = flags.replaceMap ?? [join(dirname(flags.judgments), 'replace_map.json')].find((p) => existsSync(p));
  const resolver = new LabelResolver(TAXONOMY, await readDatasetLabels(flags.replacements, replaceMap), flags.unknownLabel);
  const lists = await readReplacementLists(flags.replacements);
  let skipped = 0;
  const docs = await readAnnotatedFolder(flags.judgments, flags.skipBadDocs ? (err) => (skipped++, out.warn(`skipped ${err.located}`)) : undefined);
  out.info(`${docs.length} judgments, ${lists.size} replacement lists${replaceMap ? `, synonyms from ${replaceMap}` : ''}${skipped ? `, ${skipped} malformed skipped` : ''}`);
  return { resolver, lists, docs, skipped };
}
