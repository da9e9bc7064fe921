import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { BpeTokenizer, bpeToTokenizerJson, fromTokenizerJson, loadTokenizer, toTokenizerJson, WordPieceTokenizer } from '../../src/tokenizer/index.js';
import { ConfigError, FormatError } from '../../src/errors.js';
import { thrown } from '../helpers/errors.js';
import { tempDir } from '../helpers/tmp.js';

const WORDPIECE = toTokenizerJson(new WordPieceTokenizer(['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'alice', '##s']));
const BPE = bpeToTokenizerJson(new BpeTokenizer(['<s>', '<pad>', '</s>', '<unk>', '<mask>', 'a', 'b', 'ab'], [['a', 'b']], { addPrefixSpace: false, specials: { unk: '<unk>', cls: '<s>', sep: '</s>', pad: '<pad>', mask: '<mask>' } }));

const errorOf = (json: unknown) => thrown(() => fromTokenizerJson(json, 't/tokenizer.json'));

describe('fromTokenizerJson on malformed files', () => {
  it('names the field in a one-line FormatError', () => {
    const vocab = WORDPIECE.model.vocab as Record<string, number>;
    const cases: [unknown, string][] = [
      [null, 'tokenizer.json must be a JSON object'],
      [{ ...WORDPIECE, model: null }, '"model" must be an object with a "type" (WordPiece, BPE)'],
      [{ ...WORDPIECE, model: { type: 'WordPiece' } }, '"model.vocab" must be an object mapping tokens to ids'],
      [{ ...WORDPIECE, model: { ...WORDPIECE.model, vocab: { ...vocab, alice: -1 } } }, '"model.vocab" entry 6 has the id -1; ids must be the integers 0..6'],
      [{ ...WORDPIECE, model: { ...WORDPIECE.model, vocab: { ...vocab, alice: 2.5 } } }, '"model.vocab" entry 6 has the id 2.5; ids must be the integers 0..6'],
      [{ ...WORDPIECE, model: { ...WORDPIECE.model, vocab: { ...vocab, alice: '5' } } }, '"model.vocab" entry 6 has the id "5"; ids must be the integers 0..6'],
      [{ ...WORDPIECE, model: { ...WORDPIECE.model, vocab: { ...vocab, alice: 0 } } }, '"model.vocab" gives the id 0 twice; ids must be 0..n-1 without gaps'],
      [{ ...WORDPIECE, model: { ...WORDPIECE.model, unk_token: 1 } }, '"model.unk_token" must be a string'],
      [{ ...WORDPIECE, normalizer: 'lowercase' }, '"normalizer" must be an object or null'],
      [{ ...BPE, model: { ...BPE.model, merges: undefined } }, '"model.merges" must be an array; a BPE tokenizer needs its merges'],
      [{ ...BPE, model: { ...BPE.model, merges: ['a b c'] } }, '"model.merges"[0] must be "a b" or ["a", "b"]'],
      [{ ...WORDPIECE, added_tokens: {} }, '"added_tokens" must be an array'],
      [{ ...WORDPIECE, added_tokens: [{ content: '[PHONE]' }] }, '"added_tokens[0]" must have an integer "id" and a string "content"'],
      [{ ...WORDPIECE, added_tokens: [{ id: 7, content: '[PHONE]', lstrip: 'yes' }] }, '"added_tokens[0].lstrip" must be true or false'],
      [{ ...WORDPIECE, normalizer: { type: 'Sequence', normalizers: [{ type: 'NFC' }, 'x'] } }, '"normalizer.normalizers[1]" must be an object with a "type"'],
      [{ ...WORDPIECE, pre_tokenizer: { type: 'Punctuation', behavior: 'Sideways' } }, '"pre_tokenizer.behavior" must be one of Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous'],
    ];
    for (const [json, message] of cases) {
      const err = errorOf(json);
      expect(err, message).toBeInstanceOf(FormatError);
      expect(err.located).toBe(`t/tokenizer.json: ${message}`);
    }
  });

  it('refuses, naming the component, a BPE setting that would change the ids', () => {
    const cases: [unknown, string][] = [
      [{ ...BPE, model: { ...BPE.model, dropout: 0.1 } }, 'BPE with "model.dropout" set is not supported (byte-level BPE without it is)'],
      [{ ...BPE, model: { ...BPE.model, byte_fallback: true } }, 'BPE with "model.byte_fallback" set is not supported (byte-level BPE without it is)'],
      [{ ...BPE, pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, use_regex: false } }, 'pre_tokenizer "ByteLevel" with use_regex false is not supported (GPT-2\'s split is)'],
      [{ ...BPE, pre_tokenizer: { type: 'Metaspace' } }, 'BPE with pre_tokenizer "Metaspace" is not supported (byte-level BPE, pre_tokenizer "ByteLevel", is)'],
      [{ ...WORDPIECE, added_tokens: [{ id: 3, content: '[PHONE]' }] }, 'added token 3 has the id of another token; added tokens must reuse their own id or follow the vocabulary'],
      [{ ...WORDPIECE, added_tokens: [{ id: 9, content: '[PHONE]' }] }, 'added token 9 leaves a gap after id 6; added tokens must reuse their own id or follow the vocabulary'],
    ];
    for (const [json, message] of cases) {
      const err = errorOf(json);
      expect(err, message).toBeInstanceOf(ConfigError);
      expect(err.located).toBe(`t/tokenizer.json: ${message}`);
    }
  });

  it('refuses an id of 1e9 at once rather than allocating for it', () => {
    const vocab = { ...(WORDPIECE.model.vocab as Record<string, number>), alice: 1e9 };
    const t0 = performance.now();
    expect(errorOf({ ...WORDPIECE, model: { ...WORDPIECE.model, vocab } }).message).toMatch(/entry 6 has the id 1000000000/);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('loadTokenizer gives a one-line error without the file text for invalid JSON', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'tokenizer.json'), '{"model": {"type": "WordPiece", "vocab": {"secret": 0,}}}');
    await expect(loadTokenizer(dir)).rejects.toSatisfy((err: FormatError) => err instanceof FormatError && /not valid JSON/.test(err.message) && !err.message.includes('secret'));
  });
});

describe('fromTokenizerJson: the post-processor\'s special tokens', () => {
  const vocab = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', '[BOS]', '[EOS]', 'alice'];
  const json = toTokenizerJson(new WordPieceTokenizer(vocab));
  const template = (single: unknown[]) => ({ ...json, post_processor: { type: 'TemplateProcessing', single, pair: [], special_tokens: {} } });
  const special = (id: string) => ({ SpecialToken: { id, type_id: 0 } });
  const text = { Sequence: { id: 'A', type_id: 0 } };

  it('takes [CLS] and [SEP] from a TemplateProcessing, a BertProcessing or a Sequence holding one, as Hugging Face adds them', () => {
    expect(fromTokenizerJson(template([special('[BOS]'), text, special('[EOS]')]), 't/tokenizer.json').specials).toMatchObject({ cls: '[BOS]', sep: '[EOS]', mask: '[MASK]' });
    const bert = { ...json, post_processor: { type: 'BertProcessing', cls: ['[BOS]', 5], sep: ['[EOS]', 6] } };
    expect(fromTokenizerJson(bert, 't/tokenizer.json').specials).toMatchObject({ cls: '[BOS]', sep: '[EOS]' });
    const sequence = { ...json, post_processor: { type: 'Sequence', processors: [{ type: 'ByteLevel', trim_offsets: false }, bert.post_processor] } };
    expect(fromTokenizerJson(sequence, 't/tokenizer.json').specials).toMatchObject({ cls: '[BOS]', sep: '[EOS]' });
    expect(fromTokenizerJson({ ...json, post_processor: null }, 't/tokenizer.json').specials).toMatchObject({ cls: '[CLS]', sep: '[SEP]' });
  });

  it('refuses a template that does not put the text between two special tokens, and a malformed processor', () => {
    for (const single of [[text], [text, special('[SEP]')], [special('[CLS]'), text], [text, special('[SEP]'), special('[CLS]')]]) {
      const err = errorOf(template(single));
      expect(err).toBeInstanceOf(ConfigError);
      expect(err.located).toMatch(/^t\/tokenizer\.json: "post_processor\.single" puts other tokens around a text; ppmlm reads a text between two special tokens/);
    }
    expect(errorOf({ ...json, post_processor: { type: 'BertProcessing', cls: '[CLS]', sep: ['[SEP]', 3] } }).located).toBe('t/tokenizer.json: "post_processor.cls" must be [token, id]');
  });
});

describe('loadTokenizer with tokenizer_config.json', () => {
  const VOCAB = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'Alice', 'alice', 'Café', 'cafe'];
  const tokensOf = async (dir: string, text = 'Alice Café') => {
    const tokenizer = await loadTokenizer(dir);
    return tokenizer.tokenize(text).ids.map((id) => tokenizer.tokenOf(id));
  };

  it('reads a cased vocab.txt as its config says, as BertTokenizer does; without a config, lower case with accents stripped', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'vocab.txt'), `${VOCAB.join('\n')}\n`);
    expect(await tokensOf(dir)).toEqual(['alice', 'cafe']);
    await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify({ tokenizer_class: 'BertTokenizer', do_lower_case: false }));
    expect(await tokensOf(dir)).toEqual(['Alice', 'Café']);
    await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify({ do_lower_case: true, strip_accents: false }));
    expect(await tokensOf(dir, 'Café')).toEqual(['[UNK]']);
    // The special tokens it names are the tokenizer's, as a string or an AddedToken; special_tokens_map.json has the last word.
    await writeFile(join(dir, 'vocab.txt'), `${[...VOCAB, '[PHONE]', '<mask>'].join('\n')}\n`);
    await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify({ mask_token: { content: '[PHONE]', lstrip: false } }));
    expect((await loadTokenizer(dir)).specials).toMatchObject({ mask: '[PHONE]', cls: '[CLS]' });
    await writeFile(join(dir, 'special_tokens_map.json'), JSON.stringify({ mask_token: '<mask>' }));
    expect((await loadTokenizer(dir)).specials.mask).toBe('<mask>');
    await writeFile(join(dir, 'special_tokens_map.json'), JSON.stringify({ mask_token: 4 }));
    await expect(loadTokenizer(dir)).rejects.toMatchObject({ located: `${join(dir, 'special_tokens_map.json')}: "mask_token" must be a token (a string, or an object with "content")` });
    const { rm } = await import('node:fs/promises');
    await rm(join(dir, 'special_tokens_map.json'));
    await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify({ do_lower_case: 'no' }));
    await expect(loadTokenizer(dir)).rejects.toMatchObject({ located: `${join(dir, 'tokenizer_config.json')}: "do_lower_case" must be true or false, got "no"; fix it as the model was trained` });
  });

  it('sets its case over tokenizer.json, as the fast tokenizers do, and refuses a tokenizer.json that is a dangling link or a folder', async () => {
    const dir = await tempDir();
    // Lower case, accents kept (WordPieceTokenizer's defaults), then cased: accents follow the case.
    await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(toTokenizerJson(new WordPieceTokenizer(VOCAB))));
    expect(await tokensOf(dir)).toEqual(['alice', '[UNK]']);
    await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify({ do_lower_case: false }));
    expect(await tokensOf(dir)).toEqual(['Alice', 'Café']);
    // A broken tokenizer.json is no reason to read vocab.txt instead: that may be another tokenizer.
    const { mkdir, rm, symlink } = await import('node:fs/promises');
    await writeFile(join(dir, 'vocab.txt'), `${VOCAB.join('\n')}\n`);
    await rm(join(dir, 'tokenizer.json'));
    await symlink(join(dir, 'blobs', 'missing'), join(dir, 'tokenizer.json'));
    await expect(loadTokenizer(dir)).rejects.toThrow(`${join(dir, 'tokenizer.json')}: a link to a file that is not there (a download cut short?); download or save the model again`);
    await rm(join(dir, 'tokenizer.json'));
    await mkdir(join(dir, 'tokenizer.json'));
    await expect(loadTokenizer(dir)).rejects.toThrow(/tokenizer\.json: is a folder where a file is needed/);
  });
});
