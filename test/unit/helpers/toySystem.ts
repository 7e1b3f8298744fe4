import * as fs from 'node:fs';
import * as path from 'node:path';
import { trustGate } from '../../../src/core/decisions/gates';
import { EMPTY_TRUST } from '../../../src/core/decisions/trustView';
import { bundleKey, reviewToken } from '../../../src/core/hashing/identity';
import { sha256Hex } from '../../../src/core/hashing/framing';
import { FILE_START, type Diagnostic, type Item, type System } from '../../../src/core/model';
import type {
  AgentSystem,
  DecisionContext,
  SharedIndexOptions,
  SystemIndex,
} from '../../../src/core/systems/agentSystem';

/**
 * A test-only agent, "Toy": it loads every `.toy/<name>.md` of a workspace, with no
 * enable switch, and rejects an empty one. Registering it must be all it takes for its
 * items to reach every face (systems.extensibility.test.ts); it uses only the seam.
 */
export const TOY_ID = 'toy' as System;

interface ToyFile {
  readonly workspace: string;
  readonly file: string;
  readonly bytes: Buffer;
}

function toyFiles(workspace: string): ToyFile[] {
  const dir = path.join(workspace, '.toy');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.md'))
    .sort()
    .map((n) => ({ workspace, file: path.join(dir, n), bytes: fs.readFileSync(path.join(dir, n)) }));
}

const hashes = (bytes: Buffer) => ({
  contentHash: sha256Hex('toy-content\0', bytes),
  capabilityHash: sha256Hex('toy-capabilities\0'),
});

function toyItem(t: ToyFile, ctx: DecisionContext): { item: Item; diagnostics: Diagnostic[] } {
  const name = path.basename(t.file, '.md');
  const id = `toy:${name}`;
  const key = bundleKey(TOY_ID, 'workspace', t.file, name);
  const { contentHash, capabilityHash } = hashes(t.bytes);
  const gate = trustGate({ bundleKey: key, contentHash, capabilityHash, enableSwitch: false }, ctx);
  const empty = t.bytes.length === 0;
  const item: Item = {
    id,
    system: TOY_ID,
    kind: 'skill',
    name,
    qualifiedName: name,
    scope: 'workspace',
    workspace: t.workspace,
    path: t.file,
    location: { file: t.file, range: FILE_START },
    parent: null,
    decision: empty ? 'rejected' : 'registered',
    reasons: empty ? ['skill_invalid'] : gate.trust === 'trusted' ? ['active'] : ['loaded_unreviewed', ...gate.reasons],
    shadowedBy: null,
    trust: gate.trust,
    enabled: null,
    compatibility: null,
    contentHash,
    capabilityHash,
    reviewToken: reviewToken(contentHash, capabilityHash),
    detail: {
      bundleKey: key,
      files: [{ path: path.basename(t.file), size: t.bytes.length, sha256: sha256Hex(t.bytes), executable: false }],
    },
  };
  const diagnostics: Diagnostic[] = empty
    ? [
        {
          file: t.file,
          range: FILE_START,
          severity: 'error',
          code: 'toy.empty',
          message: 'a toy skill may not be empty',
          itemId: id,
        },
      ]
    : [];
  return { item, diagnostics };
}

class ToyIndex implements SystemIndex {
  private files: ToyFile[] = [];
  constructor(private readonly workspaces: readonly string[]) {}
  scan(): (() => void)[] {
    this.files = [];
    return this.workspaces.map((ws) => () => this.files.push(...toyFiles(ws)));
  }
  refresh(): void {
    this.files = this.workspaces.flatMap(toyFiles);
  }
  compose(ctx: DecisionContext) {
    const out = this.files.map((t) => toyItem(t, ctx));
    return { items: out.map((o) => o.item), diagnostics: out.flatMap((o) => o.diagnostics) };
  }
  watchedPaths(): string[] {
    return [];
  }
  watchedTrees(): never[] {
    return [];
  }
}

export const toySystem: AgentSystem<SharedIndexOptions> = {
  id: TOY_ID,
  label: 'Toy',
  icon: 'beaker',
  bundleIcon: 'beaker',
  workspaceRoots: ['.toy'],
  lookedFor: '.toy',
  noEnableSwitch: {
    refusal: (item) => `Toy has no enable switch for ${item.name}.`,
    notice: () => 'Toy has no enable switch.',
  },
  unitLabel: () => 'Toy skill',
  trustUnitsInWords: 'Toy skills',
  hooks: null,
  createIndex: (options) => new ToyIndex(options.workspaces),
  loads: () => true,
  readSource: (item) => {
    const t = { workspace: item.workspace as string, file: item.path, bytes: fs.readFileSync(item.path) };
    const fresh = toyItem(t, { trust: EMPTY_TRUST, workspaceTrusted: true });
    return {
      ok: true,
      source: {
        item: fresh.item,
        bundleKey: fresh.item.detail.bundleKey as string,
        root: path.dirname(item.path),
        canonicalPath: item.path,
        files: fresh.item.detail.files ?? [],
        directories: [],
        capabilities: { system: TOY_ID, skills: [{ name: fresh.item.name, path: path.basename(item.path) }] },
        parts: [],
        notCovered: [],
        applicable: true,
        diagnostics: fresh.diagnostics,
        rehashCopy: (copy) => hashes(fs.readFileSync(path.join(copy, path.basename(item.path)))).contentHash,
      },
    };
  },
  readInvalid: () => undefined,
  hashTarget: () => null,
  hashTargetHint: 'a .toy/*.md file',
  agentTrustCommand: () => null,
  reviewAgainHint: () => 'review it again',
  reviewContract: (item) => ({
    title: 'Toy contract',
    rows: [{ label: 'greets', value: item.name === 'hello' ? 'yes' : 'no' }],
  }),
};
