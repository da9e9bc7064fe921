import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import type { VocabularyCheck } from '../model/index.js';

/** The flags of a command that writes a model and checks its vocabulary against a blacklist. */
export interface VocabularyFlags {
  blacklist?: string;
  allowVocabularyIdentifiers?: boolean;
}

/** Declares `--blacklist` (with the command's own description) and `--allow-vocabulary-identifiers`. */
export function addVocabularyOptions(cmd: Command, blacklistDescription: string): Command {
  return cmd
    .option('--blacklist <file>', blacklistDescription)
    .option('--allow-vocabulary-identifiers', 'write the model even when vocabulary tokens are --blacklist terms (recorded in ppmlm.json; default: refuse)');
}

/** The check the flags ask for: none without `--blacklist`. */
export async function vocabularyCheckOf(flags: VocabularyFlags): Promise<VocabularyCheck | undefined> {
  if (flags.blacklist === undefined) {
    if (flags.allowVocabularyIdentifiers) throw new UsageError('--allow-vocabulary-identifiers overrides the check against --blacklist; give --blacklist FILE, or drop the flag');
    return undefined;
  }
  // Loaded here, not at start-up: main.ts declares the flags of every command.
  const [{ readBlacklist }, { BlacklistedTerms }] = await Promise.all([import('../identifiers/index.js'), import('../tokenizer/index.js')]);
  const { entries } = await readBlacklist(flags.blacklist);
  return { blacklisted: new BlacklistedTerms(entries.map((e) => e.term)), allowIdentifiers: flags.allowVocabularyIdentifiers === true };
}
