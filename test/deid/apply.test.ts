import { describe, expect, it } from 'vitest';
import { entitySpans, letterFor, replaceEntities } from '../../src/deid/index.js';

describe('replaceEntities', () => {
  it('gives each distinct entity one letter and fixes the particle after it', () => {
    const text = '피해자 홍길동은 김철수와 만났고, 홍길동이 돈을 보냈다.';
    const spans = [
      { start: 4, end: 7, label: '내국인이름' },
      { start: 9, end: 12, label: '내국인이름' },
      { start: 19, end: 22, label: '내국인이름' },
    ];
    const r = replaceEntities(text, spans);
    expect(r.text).toBe('피해자 A는 B와 만났고, A가 돈을 보냈다.');
    expect(r.replacements.map((x) => x.replacement)).toEqual(['A', 'B', 'A']);
    expect(replaceEntities(text, spans, 'tag').text).toBe('피해자 [내국인이름]은 [내국인이름]과 만났고, [내국인이름]이 돈을 보냈다.');
  });

  it('replaces every entity whatever order the spans come in', () => {
    const text = '홍길동은 김철수와 이영희를 만났다.';
    const spans = [
      { start: 10, end: 13, label: '내국인이름' },
      { start: 0, end: 3, label: '내국인이름' },
      { start: 5, end: 8, label: '내국인이름' },
    ];
    expect(replaceEntities(text, spans).text).toBe('A는 B와 C를 만났다.');
  });

  it('letters past Z as AA, AB', () => {
    expect([0, 1, 25, 26, 27, 51, 52].map(letterFor)).toEqual(['A', 'B', 'Z', 'AA', 'AB', 'AZ', 'BA']);
  });
});

describe('entitySpans', () => {
  it('merges consecutive tokens of one label, across spaces', () => {
    const text = 'Dr. Alice Smith saw Bob';
    const encoding = { ids: [0, 1, 2, 3, 4, 5, 6], offsets: [[0, 0], [0, 2], [2, 3], [4, 9], [10, 15], [16, 19], [20, 23]] as [number, number][], special: [true, false, false, false, false, false, false] };
    const spans = entitySpans(text, encoding, ['O', 'O', 'PERSON', 'PERSON', 'O', 'PERSON']);
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual(['Alice Smith', 'Bob']);
  });
});
