import { describe, expect, it } from 'vitest';
import { KoreanNameRecognizer } from '../../src/identifiers/index.js';

const found = (text: string) => new KoreanNameRecognizer().find(text).map((d) => `${text.slice(d.start, d.end)}|${d.source}`);

describe('Korean names in context', () => {
  it('reads a name after a role, before a title, or before sex and age, without its particle', () => {
    expect(found('피해자 이채나(남, 36세)와 시비를 하던 중')).toEqual(['이채나|context:ko-role']);
    expect(found('피고인 홍길동은 2020. 6. 6. 피해자를 폭행하였다')).toEqual(['홍길동|context:ko-role']);
    expect(found('김철수 장관은 이날 말했다. 박영희씨가 왔다')).toEqual(['김철수|context:ko-title', '박영희|context:ko-title']);
    expect(found('당시 이채나(여, 40세)가 있었다')).toEqual(['이채나|context:ko-age']);
    expect(found('증인 남궁민수에게 물었다')).toEqual(['남궁민수|context:ko-role']);
  });

  it('takes no word that merely starts with a surname', () => {
    expect(found('정부는 이번에 조사를 신청한 사람에게 답했다')).toEqual([]);
    expect(found('피해자 정부는')).toEqual([]);
  });
});
