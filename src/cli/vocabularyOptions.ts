import type { Command } from 'commander';
import type { VocabularyCheck } from '../model/index.js';

/** The flags of a command that writes a model and checks its vocabulary against a blacklist. */
export interface VocabularyFlags {
  blacklist?: string;
  allowVocabularyIdentifiers?: boolean;
}

/** Declares `--blacklist` (with the command's own description) and `--allow-vocabulary-identifiers`. */
export function addVocabularyOptions(cmd: Command, blacklistDescription: string): Command {
  return cmd.option('--blacklist <file>', blacklistDescription).option('--allow-vocabulary-identifiers', ALLOW_VOCABULARY_HELP);
}

/** `--allow-vocabulary-identifiers`, as every command that writes a model or a dataset declares it. */
export const ALLOW_VOCABULARY_HELP = 'write even when the vocabulary check refuses: a tokenizer ppmlm trained on a private corpus whose tokens are --blacklist terms, or that was trained without a blacklist (recorded in ppmlm.json; default: refuse)';

/** The check the flags ask for: against `--blacklist` when given. */
export async function vocabularyCheckOf(flags: VocabularyFlags): Promise<VocabularyCheck> {
  const allowIdentifiers = flags.allowVocabularyIdentifiers === true;
  if (flags.blacklist === undefined) return { allowIdentifiers };
  // Loaded here, not at start-up: main.ts declares the flags of every command.
  const [{ readBlacklist, blacklistFingerprint }, { BlacklistedTerms }] = await Promise.all([import('../identifiers/index.js'), import('../tokenizer/index.js')]);
  const blacklist = await readBlacklist(flags.blacklist);
  return { blacklisted: new BlacklistedTerms(blacklist.entries.map((e) => e.term)), blacklistFingerprint: blacklistFingerprint(blacklist), allowIdentifiers };
}
