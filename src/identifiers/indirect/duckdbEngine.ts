import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE, writeThroughTempPath } from '../../io/index.js';
import type { DuckDBAppender, DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { ngramTerms, type ContentWord, type NgramOptions } from '../../text/index.js';
import { countTerms, type AuthorTermEngine, type EngineStats, type RareTermVisitor, type TermUsage } from './engine.js';

/**
 * The SQL of the indirect-identifier rule, over a table `pairs(author, term, n)` with one row per
 * (document, term). The same query runs unchanged on Spark SQL or BigQuery over the table that
 * `--export-pairs` writes.
 */
export const RARE_TERMS_SQL = (k: number) =>
  `SELECT term, COUNT(DISTINCT author) AS authors, SUM(n) AS occurrences FROM pairs GROUP BY term HAVING COUNT(DISTINCT author) < ${Math.floor(k)} ORDER BY term`;

/**
 * Out-of-core engine: (author, term, count) rows appended to DuckDB, which spills to a temp folder when
 * they outgrow `memoryLimit`. For corpora whose graph exceeds what graphology can hold in memory.
 */
export class DuckdbEngine implements AuthorTermEngine {
  readonly name = 'duckdb';
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    private appender: DuckDBAppender | undefined,
    private readonly tempDir: string,
    private readonly ngrams: NgramOptions,
  ) {}

  static async create(options: { memoryLimit?: string; ngrams?: NgramOptions } = {}): Promise<DuckdbEngine> {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const tempDir = await mkdtemp(join(tmpdir(), 'ppmlm-duckdb-'));
    const instance = await DuckDBInstance.create(join(tempDir, 'pairs.duckdb'), {
      memory_limit: options.memoryLimit ?? '4GB',
      temp_directory: join(tempDir, 'spill'),
      preserve_insertion_order: 'false',
    });
    const connection = await instance.connect();
    await connection.run('CREATE TABLE pairs (author VARCHAR NOT NULL, term VARCHAR NOT NULL, n INTEGER NOT NULL)');
    return new DuckdbEngine(instance, connection, await connection.createAppender('pairs'), tempDir, options.ngrams ?? {});
  }

  async add(author: string, words: readonly ContentWord[]): Promise<void> {
    for (const [term, count] of countTerms(ngramTerms(words, this.ngrams))) this.append(author, term, count);
  }

  private append(author: string, term: string, n: number): void {
    const ap = this.appender!;
    ap.appendVarchar(author);
    ap.appendVarchar(term);
    ap.appendInteger(n);
    ap.endRow();
  }

  /** Appends (author, term, n) rows directly, when another engine moves here. */
  async addRows(rows: Iterable<[string, string, number]>): Promise<void> {
    for (const [author, term, n] of rows) this.append(author, term, n);
  }

  private async flush(): Promise<void> {
    if (this.appender === undefined) return;
    this.appender.flushSync();
    this.appender.closeSync();
    this.appender = undefined;
  }

  private async rows(sql: string): Promise<TermUsage[]> {
    await this.flush();
    const reader = await this.connection.runAndReadAll(sql);
    return reader.getRowObjects().map((r) => ({ term: String(r.term), authors: Number(r.authors), occurrences: Number(r.occurrences) }));
  }

  async forEachRareTerm(k: number, visit: RareTermVisitor): Promise<void> {
    for (const u of await this.rows(RARE_TERMS_SQL(k))) visit(u.term, u.authors, u.occurrences);
  }

  async usage(terms: readonly string[]): Promise<Map<string, TermUsage>> {
    const out = new Map<string, TermUsage>(terms.map((term) => [term, { term, authors: 0, occurrences: 0 }]));
    if (terms.length === 0) return out;
    await this.flush();
    await this.connection.run('CREATE OR REPLACE TEMP TABLE wanted (term VARCHAR)');
    const ap = await this.connection.createAppender('wanted');
    for (const t of terms) {
      ap.appendVarchar(t);
      ap.endRow();
    }
    ap.flushSync();
    ap.closeSync();
    for (const u of await this.rows('SELECT p.term, COUNT(DISTINCT author) AS authors, SUM(n) AS occurrences FROM pairs p JOIN wanted w ON p.term = w.term GROUP BY p.term')) out.set(u.term, u);
    return out;
  }

  async stats(): Promise<EngineStats> {
    await this.flush();
    const r = (await this.connection.runAndReadAll('SELECT COUNT(DISTINCT author) AS a, COUNT(DISTINCT term) AS t, (SELECT COUNT(*) FROM (SELECT DISTINCT author, term FROM pairs)) AS e FROM pairs')).getRowObjects()[0]!;
    return { authors: Number(r.a), terms: Number(r.t), edges: Number(r.e) };
  }

  /**
   * Writes the aggregated (author, term, n) table as Parquet, for running the same SQL elsewhere: mode 0600
   * (it pairs individuals with their identifiers) and atomically, refusing to replace a file unless `force`.
   */
  async exportPairs(path: string, options: { force?: boolean } = {}): Promise<void> {
    await this.flush();
    await writeThroughTempPath(
      path,
      async (tmp) => {
        await this.connection.run(`COPY (SELECT author, term, SUM(n) AS n FROM pairs GROUP BY author, term ORDER BY term, author) TO '${tmp.replace(/'/g, "''")}' (FORMAT parquet)`);
      },
      { force: options.force, mode: PRIVATE_FILE_MODE },
    );
  }

  async close(): Promise<void> {
    await this.flush();
    this.connection.closeSync();
    this.instance.closeSync();
    await rm(this.tempDir, { recursive: true, force: true });
  }
}
