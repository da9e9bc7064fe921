import { PRIVATE_FILE_MODE, writeFileAtomic } from '../../io/index.js';
import { UsageError } from '../../errors.js';
import type { GraphEngine } from './graphEngine.js';

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** GEXF 1.3 (Gephi) text of the author–term graph, with a `kind` node attribute and edge weights. */
export function toGexf(engine: GraphEngine): string {
  const g = engine.graph;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<gexf xmlns="http://gexf.net/1.3" version="1.3">',
    '  <graph mode="static" defaultedgetype="undirected">',
    '    <attributes class="node"><attribute id="kind" title="kind" type="string"/></attributes>',
    '    <nodes>',
  ];
  g.forEachNode((key, a) => lines.push(`      <node id="${xml(key)}" label="${xml(a.label)}"><attvalues><attvalue for="kind" value="${a.kind}"/></attvalues></node>`));
  lines.push('    </nodes>', '    <edges>');
  let id = 0;
  g.forEachEdge((_e, attrs, source, target) => lines.push(`      <edge id="${id++}" source="${xml(source)}" target="${xml(target)}" weight="${attrs.weight}"/>`));
  lines.push('    </edges>', '  </graph>', '</gexf>');
  return `${lines.join('\n')}\n`;
}

/**
 * Writes the graph as GEXF (`.gexf`) or graphology's serialised JSON (`.json`), mode 0600: author and
 * term labels are personal data.
 */
export async function writeGraph(path: string, engine: GraphEngine, options: { force?: boolean } = {}): Promise<void> {
  let text: string;
  if (path.endsWith('.gexf')) text = toGexf(engine);
  else if (path.endsWith('.json')) text = JSON.stringify(engine.graph.export());
  else throw new UsageError(`--graph-out ${path}: use a .gexf or .json file name`);
  await writeFileAtomic(path, text, { force: options.force, mode: PRIVATE_FILE_MODE });
}
