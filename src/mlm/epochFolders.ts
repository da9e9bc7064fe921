import { rm } from 'node:fs/promises';

/** `<out>.epoch-K`: the model after epoch K (1-based) of a run with save-every-epoch. */
export const epochFolder = (out: string, epoch: number) => `${out}.epoch-${epoch}`;

/**
 * Keeps the `limit` most recent epoch folders up to epoch `latest` and removes the older ones, except epoch
 * `keep` (the best, when the run ends on it), as Hugging Face's save_total_limit does. It looks only at
 * folder names, so a resumed run prunes what the killed one left.
 */
export async function pruneEpochFolders(out: string, latest: number, limit: number, keep?: number): Promise<void> {
  for (let k = 1; k <= latest - limit; k++) if (k !== keep) await rm(epochFolder(out, k), { recursive: true, force: true });
}
