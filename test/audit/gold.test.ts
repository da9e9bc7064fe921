import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alignGold, readGold, runAudit, wilsonInterval } from '../../src/audit/index.js';
import { selectBackend } from '../../src/engine/index.js';
import type { Blacklist } from '../../src/identifiers/index.js';
import { WordPieceTokenizer } from '../../src/tokenizer/index.js';
import { constantModel } from '../helpers/constantModel.js';
import { tempDir } from '../helpers/tmp.js';

const VOCAB = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'alice', 'smith', 'saw', 'bob', 'jones', 'today', '.'];
const entry = (term: string) => ({ term, kind: 'direct' as const, category: 'PERSON', authors: 1, occurrences: 1, sources: [] });
const BLACKLIST: Blacklist = { header: { version: 1, extra: {} }, entries: [entry('alice smith'), entry('jones')] };
const TEXT = 'alice smith saw bob jones today .';
const members = [{ id: '1', author: 'a', text: TEXT }, { id: '2', author: 'b', text: 'bob saw alice smith .' }];
const nonMembers = [{ id: '3', author: 'c', text: 'bob saw alice today .' }];

describe('gold identifiers', () => {
  it('gives the blacklist\'s recall of gold occurrences and the privacy score on those it missed (hand-made case)', async () => {
    await selectBackend('wasm');
    const tokenizer = new WordPieceTokenizer(VOCAB);
    // Gold: "alice smith" (doc 1, protected), "bob jones" (doc 1: only "jones" protected, so missed),
    // "bob" and "alice smith" (doc 2: the first missed, the second protected). Recall 2 of 4.
    const gold = [
      { doc: 0, start: 0, end: 11, label: 'PTName' },
      { doc: 0, start: 16, end: 25, label: 'PTName' },
      { doc: 1, start: 0, end: 3, label: 'RelativeProxyName' },
      { doc: 1, start: 8, end: 19, label: 'PTName' },
    ];
    const report = await runAudit({ target: { name: 'bob', model: constantModel('bob', tokenizer), tokenizer }, members, nonMembers, blacklist: BLACKLIST, seqLen: 16, gold });
    expect(report.gold).toMatchObject({ occurrences: 4, recall: 0.5, byLabel: { PTName: { occurrences: 3, recall: 2 / 3 }, RelativeProxyName: { occurrences: 1, recall: 0 } } });
    // A model always saying "bob" recovers the missed "bob" whole, and "bob jones" only half: 1 of 2
    // missed occurrences recovered, 2 of 3 subwords.
    expect(report.gold!.missed).toMatchObject({ occurrences: 2, tokens: 3, score: 0.5, individuals: 2 });
    expect(report.gold!.missed.subword.score).toBeCloseTo(1 / 3, 10);
    // Each individual has one gold occurrence found and one missed: every resample of individuals gives 1/2,
    // and Wilson's interval on the four occurrences keeps the interval from collapsing there.
    expect(report.gold!.ci).toEqual(wilsonInterval(2, 4));
  });

  it('reads span JSONL, deid generate output and PhysioNet, and aligns them to the members by id', async () => {
    const dir = await tempDir();
    const jsonl = join(dir, 'gold.jsonl');
    await writeFile(jsonl, `${JSON.stringify({ id: '1', text: TEXT, spans: [{ start: 0, end: 11, label: 'NAME' }] })}\n${JSON.stringify({ id: 'x', text: 'not a member', spans: [] })}\n`);
    expect(alignGold(await readGold(jsonl), members, jsonl)).toEqual([{ doc: 0, start: 0, end: 11, label: 'NAME' }]);
    // deid generate writes the label path instead of a label.
    await writeFile(jsonl, `${JSON.stringify({ id: '2', text: members[1]!.text, spans: [{ start: 0, end: 3, level1: 'direct', level2: 'name', level3: '내국인이름' }] })}\n`);
    expect(alignGold(await readGold(jsonl), members, jsonl)).toEqual([{ doc: 1, start: 0, end: 3, label: '내국인이름' }]);
    // PhysioNet: offsets count from after the record's header line; corpora keep the note trimmed, as patient-note.
    const physionet = join(dir, 'physionet');
    await mkdir(physionet);
    await writeFile(join(physionet, 'id.text'), `START_OF_RECORD=7||||1||||\n  ${TEXT}\n||||END_OF_RECORD\n`);
    await writeFile(join(physionet, 'id-phi.phrase'), '7 1 2 13 PTName alice smith\n');
    const trimmed = [{ id: '7-1', author: 'patient-7', text: TEXT }];
    expect(alignGold(await readGold(join(physionet, 'id-phi.phrase')), trimmed, 'gold')).toEqual([{ doc: 0, start: 0, end: 11, label: 'PTName' }]);
    // The folder's id.text names the folder, as its id-phi.phrase does.
    expect(await readGold(join(physionet, 'id.text'))).toEqual(await readGold(physionet));
    expect(() => alignGold([{ id: '7-1', author: 'patient-7', text: 'other text', spans: [] }], trimmed, 'g.jsonl')).toThrow('gold document 1 (in file order): its text differs from the member document of its id; give gold spans over the same texts');
    expect(() => alignGold([{ id: 'zz', author: 'x', text: TEXT, spans: [] }], trimmed, 'g.jsonl')).toThrow(/no gold document has the id of a member document/);
  });

  it('reads Presidio JSON, whose documents are named by their place from 0, and CoNLL columns, whose sentences are named by their first line', async () => {
    const dir = await tempDir();
    const presidio = join(dir, 'synth.json');
    await writeFile(presidio, JSON.stringify([{ full_text: TEXT, spans: [{ entity_type: 'PERSON', start_position: 16, end_position: 25 }] }]));
    expect(alignGold(await readGold(presidio), [{ id: '0', author: 'a', text: TEXT }], presidio)).toEqual([{ doc: 0, start: 16, end: 25, label: 'PERSON' }]);
    // CoNLL's tokens are joined by one space: the members must hold them so.
    const conll = join(dir, 'gold.conll');
    await writeFile(conll, 'alice\tB-PER\nsmith\tI-PER\nsaw\tO\nbob\tB-PER\njones\tI-PER\ntoday\tO\n.\tO\n');
    expect(alignGold(await readGold(conll), members, conll)).toEqual([{ doc: 0, start: 0, end: 11, label: 'PER' }, { doc: 0, start: 16, end: 25, label: 'PER' }]);
  });
});
