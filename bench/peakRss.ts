import { readFileSync } from 'node:fs';

/**
 * This process's own peak resident memory in MB: VmHWM of /proc/self/status where there is one.
 * `process.resourceUsage().maxRSS` is not that for a spawned child: Linux carries the parent's peak
 * across fork and exec, so a bench child measured after a large suite reported the parent's memory.
 */
export function peakRssMB(): number {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]) / 1024;
  } catch {
    // Not Linux: the rusage figure, which may include the parent's.
  }
  return process.resourceUsage().maxRSS / 1024;
}
