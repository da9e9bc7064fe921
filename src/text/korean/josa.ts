/**
 * Particles (josa) and copula endings that attach to nouns, for the rule-based analyser. Each entry says
 * which stems it follows: `C` after a final consonant (batchim), `V` after a vowel, `VL` after a vowel or
 * ㄹ (으로/로), `*` after either. The agreement check rejects most false splits (나이 is not 나 + 이).
 */
const PARTICLES: [string, 'C' | 'V' | 'VL' | '*'][] = [
  ['이', 'C'], ['가', 'V'], ['은', 'C'], ['는', 'V'], ['을', 'C'], ['를', 'V'], ['과', 'C'], ['와', 'V'],
  ['으로', 'C'], ['로', 'VL'], ['으로서', 'C'], ['로서', 'VL'], ['으로써', 'C'], ['로써', 'VL'], ['으로부터', 'C'], ['로부터', 'VL'],
  ['으로는', 'C'], ['로는', 'VL'], ['으로도', 'C'], ['로도', 'VL'], ['으로의', 'C'], ['로의', 'VL'],
  ['이나', 'C'], ['이랑', 'C'], ['이라도', 'C'], ['라도', 'V'], ['이든지', 'C'], ['든지', 'V'],
  ['이라고', 'C'], ['라고', 'V'], ['이라는', 'C'], ['라는', 'V'], ['이라며', 'C'], ['라며', 'V'], ['이란', 'C'],
  ['이며', 'C'], ['이고', 'C'], ['이다', 'C'], ['이었다', 'C'], ['였다', 'V'], ['인', 'C'], ['임', 'C'],
  ['입니다', 'C'], ['이므로', 'C'], ['이지만', 'C'], ['이었고', 'C'], ['였고', 'V'], ['이었으며', 'C'], ['였으며', 'V'],
  ['의', '*'], ['에', '*'], ['에서', '*'], ['에게', '*'], ['에게서', '*'], ['한테', '*'], ['한테서', '*'], ['께서', '*'], ['께', '*'],
  ['도', '*'], ['만', '*'], ['까지', '*'], ['부터', '*'], ['마저', '*'], ['조차', '*'], ['밖에', '*'], ['처럼', '*'], ['보다', '*'],
  ['하고', '*'], ['에는', '*'], ['에서는', '*'], ['에게는', '*'], ['에도', '*'], ['에서도', '*'], ['에게도', '*'], ['에서의', '*'],
  ['까지는', '*'], ['부터는', '*'], ['만은', '*'], ['만이', '*'], ['만을', '*'], ['과는', 'C'], ['와는', 'V'], ['과의', 'C'], ['와의', 'V'],
  ['과도', 'C'], ['와도', 'V'], ['에의', '*'], ['들', '*'], ['들이', '*'], ['들은', '*'], ['들을', '*'], ['들의', '*'], ['들에게', '*'], ['들과', '*'], ['들도', '*'],
];

/**
 * Syllables that are as often the end of a noun as a particle (포도, 정도, 회의, 사만): they split off only
 * stems of two syllables or more.
 */
const AMBIGUOUS = new Set(['도', '만', '의', '들']);

const BY_LENGTH = [...PARTICLES].sort((a, b) => b[0].length - a[0].length);

/**
 * Every particle and copula ending, the longest first, without the agreement check: for patterns that ask
 * only whether the rest of a word is a particle (the recognisers' context).
 */
export const PARTICLE_FORMS: readonly string[] = [...new Set(BY_LENGTH.map(([p]) => p))];

const SYLLABLE_BASE = 0xac00;
const SYLLABLE_LAST = 0xd7a3;
/** Index of ㄹ among the final consonants. */
const RIEUL_FINAL = 8;

/** The final consonant index of a Hangul syllable (0 = none), or -1 for a non-syllable. */
export function finalConsonant(ch: string): number {
  const code = ch.codePointAt(0) ?? 0;
  if (code < SYLLABLE_BASE || code > SYLLABLE_LAST) return -1;
  return (code - SYLLABLE_BASE) % 28;
}

/** Whether a word ends in a consonant (batchim); digits and Latin letters count by how they are read. */
export function endsInConsonant(word: string): boolean {
  const last = word.at(-1) ?? '';
  const fc = finalConsonant(last);
  if (fc >= 0) return fc !== 0;
  // Digits as read in Sino-Korean: 0 영, 1 일, 3 삼, 6 육, 7 칠, 8 팔 end in a consonant; 2 이, 4 사, 5 오, 9 구 do not.
  if (/[0-9]/.test(last)) return '013678'.includes(last);
  return /[lmnrLMN]/.test(last);
}

/** Whether a word ends in ㄹ, which takes 로 like a vowel; digits 1 일, 7 칠, 8 팔 do. */
function endsInRieul(word: string): boolean {
  const last = word.at(-1) ?? '';
  return finalConsonant(last) === RIEUL_FINAL || '178'.includes(last) || /[lL]/.test(last);
}

function agrees(stem: string, rule: 'C' | 'V' | 'VL' | '*'): boolean {
  if (rule === '*') return true;
  const consonant = endsInConsonant(stem);
  if (rule === 'C') return consonant;
  if (rule === 'V') return !consonant;
  return !consonant || endsInRieul(stem);
}

/**
 * Splits an eojeol into its content stem and the particle that follows, by rule: the longest particle
 * that agrees with the stem's final consonant, leaving at least one syllable.
 *
 * @example splitParticle('홍길동이') → ['홍길동', '이']; splitParticle('나이') → ['나이', '']
 */
export function splitParticle(eojeol: string): [stem: string, particle: string] {
  for (const [particle, rule] of BY_LENGTH) {
    if (eojeol.length <= particle.length || !eojeol.endsWith(particle)) continue;
    const stem = eojeol.slice(0, -particle.length);
    if (AMBIGUOUS.has(particle) && stem.length < 2) continue;
    if (agrees(stem, rule)) return [stem, particle];
  }
  return [eojeol, ''];
}
