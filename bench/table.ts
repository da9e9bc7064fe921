/** One measured figure, with the baseline it is compared against in the same run. */
export interface BenchRow {
  suite: string;
  case: string;
  value: number;
  unit: string;
  baseline?: { name: string; value: number };
  /** When true, a smaller value is better (seconds, bytes) and the ratio is baseline/value. */
  lowerIsBetter?: boolean;
  note?: string;
}

export interface BenchSuite {
  name: string;
  run(log: (msg: string) => void): Promise<BenchRow[]>;
}

const fmt = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toPrecision(3));

/** A Markdown table; the ratio column is always "how many times better than the baseline". */
export function renderTable(rows: BenchRow[]): string {
  const header = '| suite | case | value | baseline | ratio | note |\n|---|---|---:|---|---:|---|';
  const body = rows.map((r) => {
    const base = r.baseline ? `${r.baseline.name}: ${fmt(r.baseline.value)} ${r.unit}` : '';
    const ratio = r.baseline && r.baseline.value > 0 && r.value > 0 ? `${fmt(r.lowerIsBetter ? r.baseline.value / r.value : r.value / r.baseline.value)}x` : '';
    return `| ${r.suite} | ${r.case} | ${fmt(r.value)} ${r.unit} | ${base} | ${ratio} | ${r.note ?? ''} |`;
  });
  return [header, ...body].join('\n');
}

/** Best of `repeats` wall-clock runs in seconds, after one warm-up; the minimum is least affected by a noisy machine. */
export async function bestTime(fn: () => unknown | Promise<unknown>, repeats = 3): Promise<number> {
  await fn();
  let best = Infinity;
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    await fn();
    best = Math.min(best, (performance.now() - t0) / 1000);
  }
  return best;
}
