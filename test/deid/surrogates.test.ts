import { describe, expect, it } from 'vitest';
import { agreeParticle, GENERATED } from '../../src/deid/index.js';
import { Rng } from '../../src/engine/index.js';
import { luhnValid, rrnValid } from '../../src/identifiers/index.js';

describe('agreeParticle', () => {
  it('rewrites the particle after a value to agree with its final consonant', () => {
    expect(agreeParticle('홍길동', '는 말했다')).toBe('은 말했다');
    expect(agreeParticle('김철수', '은 말했다')).toBe('는 말했다');
    expect(agreeParticle('홍길동', '가 왔다')).toBe('이 왔다');
    expect(agreeParticle('김철수', '을')).toBe('를');
    expect(agreeParticle('홍길동', '와 함께')).toBe('과 함께');
    expect(agreeParticle('서울', '으로 갔다')).toBe('로 갔다');
    expect(agreeParticle('부산항', '로 갔다')).toBe('으로 갔다');
    expect(agreeParticle('이영희', '이랑')).toBe('랑');
  });

  it('leaves words that only start like a particle', () => {
    expect(agreeParticle('김철수', '이다')).toBe('이다');
    expect(agreeParticle('김철수', '에게')).toBe('에게');
    expect(agreeParticle('김철수', ' 씨')).toBe(' 씨');
  });
});

describe('generated surrogates', () => {
  it('are well formed: RRN check digit and date, card Luhn, phone, car plate, names', () => {
    const rng = new Rng(3);
    for (let i = 0; i < 200; i++) {
      expect(rrnValid(GENERATED['주민등록번호']!(rng))).toBe(true);
      expect(luhnValid(GENERATED['카드번호']!(rng))).toBe(true);
      expect(GENERATED['전화번호']!(rng)).toMatch(/^010-\d{4}-\d{4}$/);
      expect(GENERATED['차량번호']!(rng)).toMatch(/^\d{2}[가-힣]\d{4}$/);
      expect(GENERATED['내국인이름']!(rng)).toMatch(/^[가-힣]{3}$/);
      expect(GENERATED['계좌번호']!(rng)).toMatch(/^\d{3}-\d{6}-\d{2}-\d{3}$/);
      expect(GENERATED['주소']!(rng)).toMatch(/^[가-힣]{2} [가-힣]+구 [가-힣]+(?:로|대로|길|로\d+번길|동) \d{1,3}(?:-\d{1,2})?$/);
    }
  });
});
