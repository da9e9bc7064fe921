/**
 * Thunder-DeID judgments as gold for the Korean experiments: filled with surrogates by `ppmlm deid generate`
 * (one replica, spans from the tags, malformed judgments skipped) into `out`, then read as span documents.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readSpanCorpus, type SpanDocument } from '../../src/corpus/index.js';

export interface ThunderGoldOptions {
  /** Under `thunder/judgments`: a crime type's folder, or all of them. */
  crime?: 'crime_of_violence' | 'fraud';
  /** Fill with Thunder-DeID's replacement map too, as the cross-crime recipe does. */
  replaceMap?: boolean;
  seed?: number;
}

export async function thunderGold(thunder: string, out: string, { crime, replaceMap = false, seed }: ThunderGoldOptions = {}): Promise<SpanDocument[]> {
  const judgments = crime === undefined ? join(thunder, 'judgments') : join(thunder, 'judgments', crime);
  const args = ['--judgments', judgments, '--replacements', join(thunder, 'replacement'), ...(replaceMap ? ['--replace-map', join(thunder, 'replace_map.json')] : []), ...(seed === undefined ? [] : ['--seed', String(seed)]), '--replicas', '1', '--skip-bad-docs', '--out', out];
  await promisify(execFile)(process.execPath, ['--import', 'tsx', join('src', 'cli', 'bin.ts'), '--quiet', 'deid', 'generate', ...args], { maxBuffer: 1 << 20 });
  return readSpanCorpus(out, 'jsonl');
}
