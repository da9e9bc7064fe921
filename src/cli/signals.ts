import { removeOwnTemps } from '../io/index.js';

/**
 * Makes Ctrl-C and SIGTERM end the command as a shell expects (exit 130 and 143) after removing the temp
 * files of the writes in progress: the default end left them beside their outputs, half a corpus of
 * surrogates or silver labels, until a later write of the same path swept them.
 */
export function exitCleanlyOnSignals(): void {
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    process.once(signal, () => {
      removeOwnTemps();
      process.exit(code);
    });
  }
}
