/**
 * KMOU-NER (kmounlp/NER), read once for every experiment. A sentence opens with a run of `## ` header
 * lines, its number (missing before the first sentence of some files), its raw text and its tagged text
 * (`<오에 겐자부로:PER>는 ...`; a span may hold a colon, `<탄: 끝없는 전장:POH>`), then one line per morpheme.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SpanDocument } from '../../src/corpus/index.js';

/** A sentence: its raw text, and as a span document (the tagged line's text, its tags as spans; id `FILE:N`, its own author). */
export interface KmouSentence {
  raw: string;
  doc: SpanDocument;
}

const TAG = /<([^<>]+):([A-Z]{2,3})>/g;

export async function readKmou(dir: string, files: readonly string[]): Promise<KmouSentence[]> {
  const out: KmouSentence[] = [];
  for (const file of files) {
    const lines = (await readFile(join(dir, file), 'utf8')).split('\n');
    let n = 0;
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i]!.startsWith('## ')) continue;
      let j = i;
      while (j + 1 < lines.length && lines[j + 1]!.startsWith('## ')) j++;
      // The last header line is the tagged text, the one before it the raw text.
      if (j > i) out.push({ raw: lines[j - 1]!.slice(3), doc: tagged(`${file}:${n++}`, lines[j]!.slice(3)) });
      i = j;
    }
  }
  return out;
}

function tagged(id: string, line: string): SpanDocument {
  let text = '';
  const spans: SpanDocument['spans'] = [];
  let at = 0;
  for (const m of line.matchAll(TAG)) {
    text += line.slice(at, m.index);
    spans.push({ start: text.length, end: text.length + m[1]!.length, label: m[2]! });
    text += m[1];
    at = m.index + m[0].length;
  }
  return { id, author: id, text: text + line.slice(at), spans };
}
