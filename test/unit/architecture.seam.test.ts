import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The directions of the code (docs/architecture.md), enforced: agents live behind one
 * seam, shared layers never reach into an agent's folder, folders form no cycles.
 */
const SRC = path.resolve(__dirname, '../../src');
const SYSTEMS = path.join(SRC, 'core', 'systems');

function files(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    );
}

/** Every relative import of a file, resolved to the file it names. */
function imports(file: string): string[] {
  const out: string[] = [];
  for (const m of fs.readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const target = path.resolve(path.dirname(file), m[1] as string);
    out.push(fs.existsSync(`${target}.ts`) ? `${target}.ts` : target);
  }
  return out;
}

/** The agent folder a file belongs to (`codewhale` for systems/codewhale/formats/x.ts), or null. */
function agentOf(file: string): string | null {
  const rel = path.relative(SYSTEMS, file).split(path.sep);
  return !rel[0]?.startsWith('..') && rel.length > 1 ? (rel[0] as string) : null;
}

/**
 * The unit a file belongs to for the folder graph: its folder, an agent's folder as a
 * whole, and each file at the root of `systems/` on its own (the seam, the id list and the
 * registry are distinct roles: the registry alone imports the agents). The extension is one face: its
 * feature folders (`tree/`, `commands/`, `review/`, ...) are one unit with it, except
 * `flows/`, the logic behind ports that must never reach back into the editor code.
 */
function unitOf(file: string): string {
  const rel = path.relative(SRC, path.dirname(file)).split(path.sep).join('/');
  const agent = agentOf(file);
  if (agent) return `core/systems/${agent}`;
  if (rel === 'core/systems') return `core/systems/${path.basename(file)}`;
  if (rel.startsWith('extension/') && !rel.startsWith('extension/flows')) return 'extension';
  return rel;
}

const ALL = files(SRC);

describe('architecture: one seam for agent systems', () => {
  it('lets no agent import another agent', () => {
    for (const file of ALL.filter((f) => agentOf(f) !== null)) {
      for (const target of imports(file)) {
        const other = agentOf(target);
        assert.ok(
          other === null || other === agentOf(file),
          `${path.relative(SRC, file)} imports ${path.relative(SRC, target)}`,
        );
      }
    }
  });

  it('keeps the kernel below the agents: the vocabulary and the shared layers import nothing from systems/ but the agent id', () => {
    // The agents build on these layers; an import back up makes the vocabulary depend on the
    // layer that uses it. The one exception is the agent id's type (systems/systemId.ts): the
    // list that names every agent stays inside systems/, where agents may be named at all.
    const kernel = ['fs', 'text', 'documents', 'hashing', 'diagnostics', 'decisions', 'cache'].map((d) =>
      path.join(SRC, 'core', d),
    );
    const below = ALL.filter(
      (f) => path.dirname(f) === path.join(SRC, 'core') || kernel.some((d) => f.startsWith(d + path.sep)),
    );
    assert.ok(below.length > 40, 'the kernel is found');
    const agentId = path.join(SYSTEMS, 'systemId.ts');
    for (const file of below)
      for (const target of imports(file))
        assert.ok(
          target === agentId || !target.startsWith(SYSTEMS + path.sep),
          `${path.relative(SRC, file)} imports ${path.relative(SRC, target)}`,
        );
  });

  it('lets no shared layer or face import an agent folder (only the registry does)', () => {
    for (const file of ALL.filter((f) => agentOf(f) === null && f !== path.join(SYSTEMS, 'registry.ts'))) {
      for (const target of imports(file))
        assert.equal(agentOf(target), null, `${path.relative(SRC, file)} imports ${path.relative(SRC, target)}`);
    }
  });

  it('names no agent outside its folder: no `system ===` branch, no agent id literal', () => {
    for (const file of ALL.filter(
      (f) => agentOf(f) === null && !['registry.ts', 'systemId.ts'].includes(path.basename(f)),
    )) {
      const text = fs.readFileSync(file, 'utf8');
      assert.doesNotMatch(text, /system [!=]==|'rivumi'|'codewhale'|"rivumi"|"codewhale"/, path.relative(SRC, file));
    }
  });

  it('keeps vscode out of the extension flows', () => {
    for (const file of files(path.join(SRC, 'extension', 'flows'))) {
      assert.doesNotMatch(
        fs.readFileSync(file, 'utf8'),
        /from ['"]vscode['"]|require\(['"]vscode['"]\)/,
        path.relative(SRC, file),
      );
    }
  });

  it('has no import cycle between folders', () => {
    const edges = new Map<string, Set<string>>();
    for (const file of ALL) {
      for (const target of imports(file)) {
        const [a, b] = [unitOf(file), unitOf(target)];
        if (a !== b) edges.set(a, (edges.get(a) ?? new Set()).add(b));
      }
    }
    const reaches = (from: string, to: string): boolean => {
      const seen = new Set<string>();
      const stack = [from];
      while (stack.length > 0) {
        for (const next of edges.get(stack.pop() as string) ?? []) {
          if (next === to) return true;
          if (seen.has(next)) continue;
          seen.add(next);
          stack.push(next);
        }
      }
      return false;
    };
    const cycles = [...edges].flatMap(([a, bs]) => [...bs].filter((b) => reaches(b, a)).map((b) => `${a} → ${b}`));
    assert.deepEqual(cycles, []);
  });

  it('sees the imports it checks (the checks above cannot pass on nothing)', () => {
    const registry = imports(path.join(SYSTEMS, 'registry.ts')).map((f) => agentOf(f));
    assert.ok(registry.includes('codewhale') && registry.includes('rivumi'));
    assert.ok(ALL.length > 100);
  });
});
