import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import { Indexer } from '../../../src/core/index/indexer';

/**
 * Run as a process of its own by memory.sharedParts.test.ts: indexes the workspace in
 * argv[2], then looks in a heap snapshot of itself for the strings of one Codewhale part
 * and its bundle that every report writes, and one made by a template literal (the
 * probe's control). Prints, as JSON, whether each is one flat string in the heap: V8
 * lists a string built from pieces as a "concatenated string" node over them instead.
 */
const { items } = new Indexer({ workspaces: [process.argv[2] as string], codewhaleHome: null }).indexAll();
const part = items.find((i) => i.system === 'codewhale' && i.parent !== null);
const bundle = items.find((i) => i.id === part?.parent);
if (!part || !bundle?.reviewToken) throw new Error('no Codewhale bundle with a part and a review token');
const probed = [part.id, part.qualifiedName, bundle.id, bundle.reviewToken, `${bundle.id}#${items.length}`];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-strings-'));
try {
  const snapshot = JSON.parse(fs.readFileSync(v8.writeHeapSnapshot(path.join(dir, 'h.heapsnapshot')), 'utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const {
    node_fields: fields,
    node_types: [types],
  } = snapshot.snapshot.meta;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const flat = new Set<string>();
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    if (types[snapshot.nodes[i + typeAt] as number] === 'string')
      flat.add(snapshot.strings[snapshot.nodes[i + nameAt] as number] as string);
  }
  process.stdout.write(JSON.stringify(probed.map((s) => flat.has(s))) + '\n');
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
