import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';
import { defaultConfig, modelCard, writeModelCard, type AuditHeadline, type Provenance } from '../../src/model/index.js';
import { tempDir } from '../helpers/tmp.js';

/** The YAML front matter of a card as key → raw value lines (enough for the flat keys and the tag list ppmlm writes). */
function frontMatter(card: string): Record<string, string | string[]> {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(card);
  if (!m) throw new Error('no front matter');
  const out: Record<string, string | string[]> = {};
  let list: string[] | undefined;
  for (const line of m[1]!.split('\n')) {
    if (line.startsWith('- ')) list!.push(JSON.parse(line.slice(2)));
    else {
      const [key, value] = line.split(/: ?(.*)/) as [string, string];
      if (value === '') out[key] = list = [];
      else out[key] = value.startsWith('"') ? JSON.parse(value) : value;
    }
  }
  return out;
}

const config = (architectures = ['BertForMaskedLM']) => defaultConfig({ vocab_size: 100, architectures });

const provenance: Provenance = { ppmlm: '0.1.0', createdAt: '2026-12-02T00:00:00Z', base: 'google-bert/bert-base-uncased', strategy: 'constrained', epochs: 3, seed: 42, maskProb: 0.15, blacklistFingerprint: '0123456789abcdef', blacklistTerms: 17, targets: 900, protectedTargets: 0 };
const headline: AuditHeadline = { privacy: { all: 0.91, ci: [0.88, 0.94], direct: 0.95, indirect: 0.9, occurrences: 210 }, membership: { unit: 'individual', lossAuc: 0.52, ci: [0.4, 0.64], calibratedAuc: 0.55 }, utility: { accuracy: 0.41 }, regurgitatedTerms: 3, auditedAt: '2026-12-02T01:00:00Z' };

describe('modelCard', () => {
  it('has the Hub front matter: license, tags, base_model, library_name, pipeline_tag', () => {
    const card = modelCard(config(['BertForMaskedLM']), provenance);
    expect(frontMatter(card)).toEqual({
      license: 'unknown',
      library_name: 'transformers',
      pipeline_tag: 'fill-mask',
      base_model: 'google-bert/bert-base-uncased',
      tags: ['ppmlm', 'privacy', 'bert', 'ppmlm-constrained'],
    });
    expect(card).toMatch(/\| blacklist \| fingerprint 0123456789abcdef, 17 terms \|/);
    expect(card).toMatch(/\| targets on protected positions \| 0 of 900 \|/);
    expect(card).toMatch(/Not audited yet/);
  });

  it('names the pipeline of a token classifier, tags DP, and gives no base_model for a local path or a random init', () => {
    const dp = { ...provenance, strategy: 'dp', base: 'models/../init', dp: { unit: 'author', epsilon: 3.2, delta: 1e-5, individuals: 40, noiseMultiplier: 1.1, clip: 1, sampleRate: 0.01, releases: 200, accountant: 'rdp', secureNoise: true } };
    const card = modelCard(config(['BertForTokenClassification']), dp);
    const front = frontMatter(card);
    expect(front).toMatchObject({ pipeline_tag: 'token-classification', tags: expect.arrayContaining(['differential-privacy', 'ppmlm-dp']) });
    expect(front.base_model).toBeUndefined();
    expect(frontMatter(modelCard(config(), { ...provenance, base: 'random-init' })).base_model).toBeUndefined();
    expect(card).toMatch(/ε = 3\.20, δ = 1\.0e-5 per author \(40 units, 200 releases/);
  });

  it("shows the audit's headline figures", () => {
    const card = modelCard(config(), provenance, headline);
    expect(card).toMatch(/privacy score, all protected occurrences .*\| 0\.910 \[0\.880, 0\.940\] over 210 occurrences \|/);
    expect(card).toMatch(/membership inference AUC per individual \(loss attack \/ calibrated; 0\.5 is chance\) \| 0\.520 \[0\.400, 0\.640\] \/ 0\.550 \|/);
    expect(card).toMatch(/fill-mask top-1 accuracy on non-blacklisted tokens \| 0\.410 \|/);
    expect(card).toMatch(/blacklisted terms predicted top-1 when masked \| 3 \|/);
  });

  it("replaces its own card but keeps a README someone else wrote", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'ppmlm.json'), JSON.stringify(provenance));
    expect(await writeModelCard(dir, config())).toBe('written');
    expect(await writeModelCard(dir, config(), headline)).toBe('written');
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toMatch(/0\.910 \[0\.880, 0\.940\]/);
    await writeFile(join(dir, 'README.md'), '# my own card\n');
    expect(await writeModelCard(dir, config(), headline)).toBe('kept-foreign-readme');
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toBe('# my own card\n');
  });
});
