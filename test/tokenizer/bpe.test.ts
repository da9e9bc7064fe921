import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { BpeTokenizer, bpeToTokenizerJson, fromTokenizerJson, trainBpe } from '../../src/tokenizer/index.js';
import { BYTE_TO_CHAR } from '../../src/tokenizer/byteLevel.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES, tempDir } from '../helpers/tmp.js';

const specials = ['<s>', '<pad>', '</s>', '<unk>', '<mask>'];
const merges: [string, string][] = [['h', 'e'], ['l', 'l'], ['he', 'll'], ['hell', 'o'], ['Ġ', 'w'], ['o', 'r'], ['Ġw', 'or'], ['l', 'd'], ['Ġwor', 'ld']];
const vocab = [...specials, ...BYTE_TO_CHAR, 'he', 'll', 'hell', 'hello', 'Ġw', 'or', 'Ġwor', 'ld', 'Ġworld'];
const tok = new BpeTokenizer(vocab, merges);

describe('BpeTokenizer (byte-level)', () => {
  it('applies merges by rank and gives offsets without the leading space', () => {
    const text = 'hello world';
    const enc = tok.tokenize(text);
    expect(enc.ids.map((id) => tok.tokenOf(id))).toEqual(['hello', 'Ġworld']);
    expect(enc.offsets).toEqual([[0, 5], [6, 11]]);
    expect(tok.decode(enc.ids)).toBe(text);
  });

  it('gives a lone Ġ an empty span and lets <mask> take the space before it, as Hugging Face does', () => {
    const two = tok.tokenize('hello  world');
    expect(two.ids.map((id) => tok.tokenOf(id))).toEqual(['hello', 'Ġ', 'Ġworld']);
    expect(two.offsets).toEqual([[0, 5], [6, 6], [7, 12]]);
    const masked = tok.tokenize('hello <mask>');
    expect(masked.ids.map((id) => tok.tokenOf(id))).toEqual(['hello', '<mask>']);
    expect(masked.offsets).toEqual([[0, 5], [6, 12]]);
    expect(masked.special).toEqual([false, true]);
  });

  it('decodes an added token outside the vocabulary as its own text', () => {
    const withPhone = new BpeTokenizer([...vocab, '[PHONE]'], merges, { addPrefixSpace: false, specials: { unk: '<unk>', cls: '<s>', sep: '</s>', pad: '<pad>', mask: '<mask>' }, addedTokens: [...tok.addedTokens, { id: vocab.length, content: '[PHONE]', special: false, normalized: false, lstrip: false, rstrip: false, singleWord: false }] });
    const enc = withPhone.tokenize('hello [PHONE] world');
    expect(enc.ids).toContain(vocab.length);
    expect(withPhone.decode(enc.ids)).toBe('hello [PHONE] world');
  });

  it('is lossless on any text, multi-byte characters included', async () => {
    const trained = await trainBpe(['홍길동이 2019. 9. 5. 서울에서 café 🎉 왔다', 'the patient was seen today'], { vocabSize: 300, minFrequency: 1 });
    for (const text of ['홍길동을 만났다 🎉', 'naïve café, 2019!', '  spaces  ']) {
      const enc = trained.tokenize(text);
      expect(trained.decode(enc.ids)).toBe(text);
      for (const [s, e] of enc.offsets) expect(e).toBeGreaterThan(s - 1);
    }
  });

  it('round-trips through tokenizer.json in RoBERTa\'s layout', () => {
    const json = bpeToTokenizerJson(tok);
    expect(json.model.type).toBe('BPE');
    const back = fromTokenizerJson(JSON.parse(JSON.stringify(json)), 'tokenizer.json');
    expect(back.tokenize('hello world').ids).toEqual(tok.tokenize('hello world').ids);
  });
});

describe('ppmlm with a byte-level BPE tokenizer', () => {
  it('trains a BPE tokenizer, initialises a RoBERTa model, fine-tunes and fills masks', async () => {
    const dir = await tempDir();
    const corpus = join(FIXTURES, 'corpus', 'notes.jsonl');
    expect((await cli('--quiet', 'tokenizer', 'train', '--type', 'bpe', '--corpus', corpus, '--vocab-size', '300', '--min-frequency', '1', '--public-corpus', '--out', join(dir, 'tok'))).code).toBe(0);
    const m = await cli('model', 'init', '--vocab', join(dir, 'tok'), '--out', join(dir, 'init'), '--hidden', '16', '--layers', '1', '--heads', '2', '--intermediate', '32', '--max-positions', '64');
    expect(m.code, m.stderr).toBe(0);
    expect(m.stdout).toMatch(/RoBERTa/);
    const config = JSON.parse(await readFile(join(dir, 'init', 'config.json'), 'utf8'));
    expect(config).toMatchObject({ model_type: 'roberta', architectures: ['RobertaForMaskedLM'], pad_token_id: 1, max_position_embeddings: 66 });
    expect(JSON.parse(await readFile(join(dir, 'init', 'tokenizer_config.json'), 'utf8')).tokenizer_class).toBe('RobertaTokenizer');
    const f = await cli('--quiet', 'finetune', '--model', join(dir, 'init'), '--corpus', corpus, '--strategy', 'standard', '--epochs', '1', '--seq-len', '32', '--out', join(dir, 'ft'));
    expect(f.code, f.stderr).toBe(0);
    const fm = await cli('fill-mask', '--model', join(dir, 'ft'), '--text', 'Alice<mask> seen', '--json');
    expect(fm.code, fm.stderr).toBe(0);
    expect(JSON.parse(fm.stdout)).toHaveLength(5);
  });
});
