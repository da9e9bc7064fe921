import { describe, expect, it } from 'vitest';
import { unseenNonMembers } from '../../src/audit/index.js';

const doc = (id: string, author: string, text: string) => ({ id, author, text });

describe('non-members of an audit', () => {
  it('leaves out, with a warning, those that repeat a member\'s text, and refuses when none is left', () => {
    const members = [doc('1', 'a', 'Patient stable.'), doc('2', 'b', 'Seen by Dr Okonkwo.')];
    const warnings: string[] = [];
    const kept = unseenNonMembers(members, [doc('3', 'c', 'Patient stable.'), doc('4', 'd', 'Discharged home.')], (m) => warnings.push(m));
    expect(kept.map((d) => d.id)).toEqual(['4']);
    expect(warnings).toEqual(["1 of 2 non-member documents repeat a member's text and are left out: the model trained on those texts"]);
    expect(unseenNonMembers(members, [doc('4', 'd', 'Discharged home.')], (m) => warnings.push(m))).toHaveLength(1);
    expect(warnings).toHaveLength(1);
    expect(() => unseenNonMembers(members, [doc('3', 'c', 'Patient stable.')])).toThrow("every non-member document repeats a member's text; non-members must be texts the model never saw");
  });
});
