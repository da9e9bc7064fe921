/** A direct-identifier occurrence: characters [start, end) of a text. */
export interface Detection {
  start: number;
  end: number;
  /** PII type: EMAIL, PHONE, DATE, PERSON, ... or a DeID model's label. */
  category: string;
  /** Provenance as written in blacklists: `rule:email`, `list:names.txt`, `model:<dir>`. */
  source: string;
}

/**
 * Anything that finds direct identifiers in a text: patterns, gazetteers, a trained token classifier.
 * The DeID model plugs in through this interface (`model:<dir>`), so identifiers/ never imports it.
 */
export interface Recognizer {
  readonly name: string;
  find(text: string): Detection[] | Promise<Detection[]>;
  close?(): Promise<void>;
}
