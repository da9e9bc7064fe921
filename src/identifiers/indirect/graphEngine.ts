import { UndirectedGraph } from 'graphology';
import { ngramTerms, type ContentWord, type NgramOptions } from '../../text/index.js';
import { countTerms, type AuthorTermEngine, type EngineStats, type RareTermVisitor, type TermUsage } from './engine.js';

type NodeAttributes = { kind: 'author' | 'term'; label: string };
type EdgeAttributes = { weight: number };
type AuthorTermGraph = UndirectedGraph<NodeAttributes, EdgeAttributes>;

const authorKey = (a: string) => `a:${a}`;
const termKey = (t: string) => `t:${t}`;

/**
 * The bipartite author–term graph of the PPmlm paper, in graphology: author nodes, term nodes, an edge
 * when an author used a term, weighted by occurrences. A term's degree is its number of distinct authors.
 * V8 caps a Map at ~16.7M entries, so this engine holds graphs up to that many edges.
 */
export class GraphEngine implements AuthorTermEngine {
  readonly name = 'graph';
  readonly graph: AuthorTermGraph = new UndirectedGraph<NodeAttributes, EdgeAttributes>({ allowSelfLoops: false });

  constructor(private readonly ngrams: NgramOptions = {}) {}

  async add(author: string, words: readonly ContentWord[]): Promise<void> {
    const terms = countTerms(ngramTerms(words, this.ngrams));
    if (terms.size === 0) return;
    const a = authorKey(author);
    this.graph.mergeNode(a, { kind: 'author', label: author });
    for (const [term, count] of terms) {
      const t = termKey(term);
      this.graph.mergeNode(t, { kind: 'term', label: term });
      // mergeEdge would overwrite the weight of an existing edge with its attributes: add to it instead.
      const edge = this.graph.edge(a, t);
      if (edge === undefined) this.graph.addEdge(a, t, { weight: count });
      else this.graph.updateEdgeAttribute(edge, 'weight', (w) => (w ?? 0) + count);
    }
  }

  private usageOf(node: string): TermUsage {
    let occurrences = 0;
    this.graph.forEachEdge(node, (_e, attrs) => void (occurrences += attrs.weight));
    return { term: this.graph.getNodeAttribute(node, 'label'), authors: this.graph.degree(node), occurrences };
  }

  async forEachRareTerm(k: number, visit: RareTermVisitor): Promise<void> {
    this.graph.forEachNode((node, attrs) => {
      if (attrs.kind !== 'term' || this.graph.degree(node) >= k) return;
      const u = this.usageOf(node);
      visit(u.term, u.authors, u.occurrences);
    });
  }

  async usage(terms: readonly string[]): Promise<Map<string, TermUsage>> {
    return new Map(terms.map((term) => [term, this.graph.hasNode(termKey(term)) ? this.usageOf(termKey(term)) : { term, authors: 0, occurrences: 0 }]));
  }

  async stats(): Promise<EngineStats> {
    let authors = 0;
    this.graph.forEachNode((_n, attrs) => void (attrs.kind === 'author' && authors++));
    return { authors, terms: this.graph.order - authors, edges: this.graph.size };
  }

  /** Every (author, term, weight) edge, for moving the graph to another engine. */
  *rows(): Generator<[author: string, term: string, weight: number]> {
    for (const { attributes, sourceAttributes, targetAttributes } of this.graph.edgeEntries()) {
      const [a, t] = sourceAttributes.kind === 'author' ? [sourceAttributes, targetAttributes] : [targetAttributes, sourceAttributes];
      yield [a.label, t.label, attributes.weight];
    }
  }

  async close(): Promise<void> {
    this.graph.clear();
  }
}
