import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Fixture } from './fixture';
import { indexEva, type EvaIndex, type EvaOptions } from '../../../src/core/systems/eva/indexEva';
import type { EvaItem } from '../../../src/core/systems/eva/item';
import type { Diagnostic } from '../../../src/core/model';

/** The fixtures of eva.md §7.1, built on disk from the repository's copy of the Eva corpus. */

export const CORPUS = path.join(__dirname, '..', '..', 'fixtures', 'corpus', 'eva');

/** A `kind: skill` binding of `workflow.review` without its provider: a test appends `default_provider:` or `provider:`. */
export const SKILL_BINDING =
  'id: rs\nname: Review binding\nversion: 1.0.0\nenabled: true\nkind: skill\ncapability: workflow.review\n';

/** A0: `config/adapters/review.yaml`. */
export const A0 = `id: review-skill
name: Review Skill
version: 1.0.0
enabled: true
transport: skill
skill:
  source: codex
  id: review
  kind: workflow_skill
  runtime_gate: normal
  entry: {type: codex_skill}
  input_schema: {type: object, required: [scope], properties: {scope: {type: string}}}
  output_schema: {type: object, properties: {summary: {type: string}}}
capabilities: [workflow.review]
permissions: {read_workspace: true, write_workspace: false, network: false, shell: false, env: []}
limits: {timeout_ms: 60000}
routing: {priority: 10}
`;

/** L0: `config/capabilities/lint.yaml`. */
export const L0 = `id: lint-skill
kind: lua_skill
version: 1.0.0
capabilities: [workflow.lint]
lua: {script: config/skills/lint.lua, entry: invoke, health_check: health_check}
runtime_gate: {allowed_modes: [normal], disallow_team_worker: true}
input_schema: schemas/lint.input.json
output_schema: schemas/lint.output.json
permissions: {fs: {read: [workspace], write: []}, network: false, shell: false}
limits: {timeout_ms: 30000}
`;

/**
 * The id of a project item: `eva:<project>:<area>:<manifest path in the project>`, the
 * project named by the first 12 hex digits of the SHA-256 of its canonical folder path,
 * so that two folders with one base name list distinct ids (spec/cli.md "stable unique id").
 */
export function evaItemId(ws: string, area: 'adapter' | 'capability', rel: string): string {
  return `eva:${createHash('sha256').update(fs.realpathSync(ws)).digest('hex').slice(0, 12)}:${area}:${rel}`;
}

/** P0 with A0 and L0 in the folder `dir` of any fixture: one Eva project among other workspace folders. */
export function writeEvaProject(f: Fixture, dir: string, adapter = A0): void {
  f.write(`${dir}/config/eva.yaml`, fs.readFileSync(path.join(CORPUS, 'config/eva.yaml')));
  for (const s of ['adapter', 'capability', 'eva', 'policy'])
    f.write(
      `${dir}/config/schemas/${s}.schema.json`,
      fs.readFileSync(path.join(CORPUS, `config/schemas/${s}.schema.json`)),
    );
  f.write(`${dir}/config/policies/adapter.yaml`, fs.readFileSync(path.join(CORPUS, 'config/policies/adapter.yaml')));
  f.write(`${dir}/config/adapters/review.yaml`, adapter);
  f.write(`${dir}/config/skills/lint.lua`, 'return {}\n');
  f.write(`${dir}/schemas/lint.input.json`, '{"type":"object"}');
  f.write(`${dir}/schemas/lint.output.json`, '{"type":"object"}');
  f.write(`${dir}/config/capabilities/lint.yaml`, L0);
}

export class EvaFixture extends Fixture {
  readonly ws: string;
  readonly home: string;

  constructor() {
    super();
    this.ws = this.mkdir('ws');
    this.home = this.mkdir('home');
  }

  /** P0: upstream eva.yaml, the four schemas, the sample adapter policy; empty adapter and capability roots. */
  p0(): this {
    this.write('ws/config/eva.yaml', fs.readFileSync(path.join(CORPUS, 'config/eva.yaml')));
    for (const s of ['adapter', 'capability', 'eva', 'policy'])
      this.write(
        `ws/config/schemas/${s}.schema.json`,
        fs.readFileSync(path.join(CORPUS, `config/schemas/${s}.schema.json`)),
      );
    this.write('ws/config/policies/adapter.yaml', fs.readFileSync(path.join(CORPUS, 'config/policies/adapter.yaml')));
    this.mkdir('ws/config/adapters');
    this.mkdir('ws/config/capabilities');
    return this;
  }

  adapter(text: string | Buffer, name = 'review.yaml'): string {
    return this.write(`ws/config/adapters/${name}`, text);
  }

  /** L0 with its script and schema files. */
  l0(text = L0): string {
    this.write('ws/config/skills/lint.lua', 'return {}\n');
    this.write('ws/schemas/lint.input.json', '{"type":"object"}');
    this.write('ws/schemas/lint.output.json', '{"type":"object"}');
    return this.write('ws/config/capabilities/lint.yaml', text);
  }

  /** U(d): a user skill under `~/.codex/skills` (or `~/.agents/skills`). */
  user(d: string, root: 'codex' | 'agents' = 'codex'): string {
    return this.write(`home/.${root}/skills/${d}/SKILL.md`, `---\nname: ${d}\ndescription: test\n---\nbody\n`);
  }

  /** The id of the item whose manifest is `config/<rel>` in this fixture's project. */
  id(rel: string): string {
    return evaItemId(this.ws, rel.startsWith('capabilities/') ? 'capability' : 'adapter', `config/${rel}`);
  }

  policy(text: string): void {
    this.write('ws/config/policies/adapter.yaml', text);
  }

  index(options: Partial<EvaOptions> = {}): EvaResult {
    return new EvaResult(indexEva(this.ws, { home: this.home, ...options }), this);
  }
}

export class EvaResult {
  constructor(
    readonly index: EvaIndex,
    private readonly f: EvaFixture,
  ) {}

  get items(): EvaItem[] {
    return this.index.items;
  }

  /** The item whose manifest is `config/<rel>` (or a user item by `user:<root>:<d>`). */
  item(rel: string): EvaItem {
    const id = rel.startsWith('user:') ? `eva:${rel}` : this.f.id(rel);
    const found = this.index.items.find((i) => i.id === id);
    if (!found) throw new Error(`no item ${id}; items: ${this.index.items.map((i) => i.id).join(', ')}`);
    return found;
  }

  diagnostics(code?: string): Diagnostic[] {
    return this.index.diagnostics.filter((d) => code === undefined || d.code === code);
  }

  /** `code severity-letter` of every warning and error (and information when asked). */
  codes(withInformation = true): string[] {
    return this.index.diagnostics
      .filter((d) => withInformation || d.severity !== 'information')
      .map((d) => `${d.code} ${d.severity[0]?.toUpperCase()}`);
  }

  rel(file: string): string {
    return path.relative(this.f.ws, file);
  }
}
