/**
 * Precision and recall of the direct-identifier recognisers per entity type, against public gold spans:
 *   npx tsx bench/experiments/recognizers.ts ../shared/data
 * Presidio's synthetic sentences (synth_dataset_v2.json) and the PhysioNet nursing notes (id-phi.phrase).
 * A detection counts as correct when it overlaps a gold span of the same type; recall counts gold spans
 * overlapped by a detection of their type. Only the types ppmlm has recognisers for are scored.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GazetteerRecognizer, detectDirect, patternRecognizers, readGazetteer, type Recognizer } from '../../src/identifiers/index.js';

interface Gold {
  text: string;
  spans: { start: number; end: number; type: string }[];
}

const PRESIDIO: Record<string, string> = {
  PERSON: 'PERSON', PHONE_NUMBER: 'PHONE', EMAIL_ADDRESS: 'EMAIL', CREDIT_CARD: 'CREDIT_CARD', IBAN_CODE: 'IBAN', US_SSN: 'SSN',
  IP_ADDRESS: 'IP', DATE_TIME: 'DATE', AGE: 'AGE', DOMAIN_NAME: 'URL', GPE: 'LOCATION', STREET_ADDRESS: 'LOCATION',
};
const PHYSIONET: Record<string, string> = {
  Date: 'DATE', DateYear: 'DATE', Phone: 'PHONE', Age: 'AGE', HCPName: 'PERSON', PTName: 'PERSON', RelativeProxyName: 'PERSON', PTNameInitial: 'PERSON', Location: 'LOCATION',
};

async function presidio(dir: string): Promise<Gold[]> {
  const rows = JSON.parse(await readFile(join(dir, 'presidio-synth', 'synth_dataset_v2.json'), 'utf8')) as { full_text: string; spans: { entity_type: string; start_position: number; end_position: number }[] }[];
  return rows.map((r) => ({ text: r.full_text, spans: r.spans.filter((s) => PRESIDIO[s.entity_type]).map((s) => ({ start: s.start_position, end: s.end_position, type: PRESIDIO[s.entity_type]! })) }));
}

async function physionet(dir: string): Promise<Gold[]> {
  const raw = await readFile(join(dir, 'physionet-deid', 'id.text'), 'utf8');
  const notes = new Map<string, string>();
  for (const m of raw.matchAll(/START_OF_RECORD=(\d+)\|\|\|\|(\d+)\|\|\|\|\n([\s\S]*?)\|\|\|\|END_OF_RECORD/g)) notes.set(`${m[1]}/${m[2]}`, m[3]!);
  const gold = new Map<string, Gold['spans']>();
  for (const line of (await readFile(join(dir, 'physionet-deid', 'id-phi.phrase'), 'utf8')).split('\n')) {
    const [p, n, s, e, type] = line.split(' ');
    if (type === undefined || !PHYSIONET[type]) continue;
    const key = `${p}/${n}`;
    gold.set(key, [...(gold.get(key) ?? []), { start: Number(s), end: Number(e), type: PHYSIONET[type]! }]);
  }
  return [...notes].map(([key, text]) => ({ text, spans: gold.get(key) ?? [] }));
}

async function score(name: string, data: Gold[], recognizers: Recognizer[]): Promise<string[]> {
  const t: Record<string, { tp: number; pred: number; found: number; gold: number }> = {};
  const row = (type: string) => (t[type] ??= { tp: 0, pred: 0, found: 0, gold: 0 });
  for (const doc of data) {
    const det = await detectDirect(doc.text, recognizers);
    const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && b.start < a.end;
    for (const d of det) {
      const r = row(d.category);
      r.pred++;
      if (doc.spans.some((g) => g.type === d.category && overlaps(g, d))) r.tp++;
    }
    for (const g of doc.spans) {
      const r = row(g.type);
      r.gold++;
      if (det.some((d) => d.category === g.type && overlaps(g, d))) r.found++;
    }
  }
  return Object.entries(t)
    .filter(([, r]) => r.gold > 0 && r.pred > 0)
    .sort((a, b) => b[1].gold - a[1].gold)
    .map(([type, r]) => `| ${name} | ${type} | ${r.gold} | ${(r.tp / r.pred).toFixed(3)} | ${(r.found / r.gold).toFixed(3)} |`);
}

const dir = process.argv[2] ?? '../shared/data';
const lists = join(dir, 'physionet-deid', 'lists');
const names = [...(await readGazetteer(join(lists, 'female_names_unambig.txt'))), ...(await readGazetteer(join(lists, 'male_names_unambig.txt'))), ...(await readGazetteer(join(lists, 'last_names_unambig.txt')))];
const places = await readGazetteer(join(lists, 'locations_unambig.txt'));
const rows = ['| corpus | type | gold spans | precision | recall |', '|---|---|---:|---:|---:|'];
rows.push(
  ...(await score('presidio-synth', await presidio(dir), [
    ...patternRecognizers(),
    new GazetteerRecognizer(names, { category: 'PERSON', source: 'list:names' }),
    new GazetteerRecognizer(places, { category: 'LOCATION', source: 'list:places' }),
  ])),
);
// The nursing notes are mostly upper case, so capitalisation says nothing there.
rows.push(
  ...(await score('physionet-deid', await physionet(dir), [
    ...patternRecognizers(),
    new GazetteerRecognizer(names, { category: 'PERSON', source: 'list:names', requireCapitalized: false }),
    new GazetteerRecognizer(places, { category: 'LOCATION', source: 'list:places', requireCapitalized: false }),
  ])),
);
console.log(rows.join('\n'));
