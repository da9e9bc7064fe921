import { describe, expect, it } from 'vitest';
import { encodeWithMasks } from '../../src/model/fillMask.js';
import { BpeTokenizer, WordPieceTokenizer } from '../../src/tokenizer/index.js';
import { BYTE_TO_CHAR } from '../../src/tokenizer/byteLevel.js';

describe('encodeWithMasks', () => {
  it('lets RoBERTa\'s <mask> take the space before it, as Hugging Face encodes it', () => {
    const tok = new BpeTokenizer(['<s>', '<pad>', '</s>', '<unk>', '<mask>', ...BYTE_TO_CHAR], []);
    const { ids, maskPositions } = encodeWithMasks(tok, 'hi <mask>!');
    expect(ids.map((id) => tok.tokenOf(id))).toEqual(['<s>', 'h', 'i', '<mask>', '!', '</s>']);
    expect(maskPositions).toEqual([3]);
  });

  it('finds every [MASK] of a WordPiece text between [CLS] and [SEP]', () => {
    const tok = new WordPieceTokenizer(['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'seen', 'by']);
    const { ids, maskPositions } = encodeWithMasks(tok, 'seen by [MASK] [MASK]');
    expect(ids).toEqual([2, 5, 6, 4, 4, 3]);
    expect(maskPositions).toEqual([3, 4]);
  });
});
