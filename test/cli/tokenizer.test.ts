import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { FIXTURES, tempDir } from '../helpers/tmp.js';

describe('ppmlm tokenizer encode', () => {
  it('prints ids, tokens and code-point offsets, special tokens in the text included', async () => {
    const dir = await tempDir();
    const tok = join(dir, 'tok');
    expect((await cli('--quiet', 'tokenizer', 'train', '--type', 'bpe', '--corpus', join(FIXTURES, 'corpus', 'notes.jsonl'), '--vocab-size', '300', '--min-frequency', '1', '--out', tok)).code).toBe(0);
    const r = await cli('tokenizer', 'encode', '--model', tok, '--text', '😀 seen <mask>', '--json', '--no-special-tokens');
    expect(r.code, r.stderr).toBe(0);
    const enc = JSON.parse(r.stdout);
    expect(enc.tokens.at(-1)).toBe('<mask>');
    // The emoji is one code point (two UTF-16 units): the mask spans code points 7-13 (UTF-16 8-14), without the space it took.
    expect(enc.offset_mapping.at(-1)).toEqual([7, 13]);
    expect(enc.special_tokens_mask.at(-1)).toBe(1);
    expect(enc.input_ids).toHaveLength(enc.tokens.length);
    // By default <s> and </s> around the text, at offsets [0, 0], as Hugging Face's tokenizer gives them.
    const withSpecials = JSON.parse((await cli('tokenizer', 'encode', '--model', tok, '--text', '😀 seen <mask>', '--json')).stdout);
    expect(withSpecials.tokens).toEqual(['<s>', ...enc.tokens, '</s>']);
    expect(withSpecials.special_tokens_mask).toEqual([1, ...enc.special_tokens_mask, 1]);
    const { Tokenizer: HfTokenizer } = await import('tokenizers');
    const hf = await HfTokenizer.fromFile(join(tok, 'tokenizer.json')).encode('😀 seen <mask>');
    expect(withSpecials.input_ids).toEqual(hf.getIds());
    expect(withSpecials.offset_mapping).toEqual(hf.getOffsets());
    const plain = await cli('tokenizer', 'encode', '--model', tok, '--text', 'seen', '--no-special-tokens');
    // id, token, start, end per line; the last token ends at the end of the text.
    expect(plain.stdout.trim().split('\n').at(-1)!.split('\t').at(-1)).toBe('4');
    const missing = await cli('tokenizer', 'encode', '--model', join(dir, 'none'), '--text', 'x');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/has neither tokenizer\.json nor vocab\.txt/);
  });
});
