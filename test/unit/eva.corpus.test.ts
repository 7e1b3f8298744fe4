import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CORPUS, evaItemId } from './helpers/evaFixture';
import { Fixture } from './helpers/fixture';
import { indexEva } from '../../src/core/systems/eva/indexEva';
import { EMBEDDED_SCHEMAS } from '../../src/core/systems/eva/schemas';

/** The real Eva-CLI sample configuration gives the decisions its README states. */

const CODE_REVIEW = evaItemId(CORPUS, 'adapter', 'config/adapters/code-review-skill.yaml');

describe('Eva corpus (test/fixtures/corpus/eva)', () => {
  let f: Fixture;
  beforeEach(() => {
    f = new Fixture();
  });
  afterEach(() => f.remove());

  it('yields exactly one item, code-review-skill: Eva registers it, Skillgate flags it unreviewed, one warning, no errors', () => {
    const r = indexEva(CORPUS, { home: f.mkdir('home') });
    assert.deepEqual(
      r.items.map((i) => [
        i.id,
        i.kind,
        i.detail.eva.evaDecision,
        i.detail.eva.evaReasons,
        i.detail.eva.target,
        i.decision,
        i.reasons,
      ]),
      [
        [
          CODE_REVIEW,
          'skill-adapter',
          'registered',
          ['registered'],
          'AdapterRegistry',
          'registered',
          ['loaded_unreviewed', 'not_reviewed'],
        ],
      ],
    );
    assert.deepEqual(
      r.diagnostics.map((d) => [d.code, d.severity]),
      [['eva.skill.path-missing', 'warning']],
    );
  });

  it('shadows a user-level ~/.codex/skills/code-review by the adapter that wraps it', () => {
    const home = f.mkdir('home');
    f.write('home/.codex/skills/code-review/SKILL.md', '---\nname: code-review\ndescription: review\n---\nbody\n');
    const r = indexEva(CORPUS, { home });
    const user = r.items.find((i) => i.id === 'eva:user:codex:code-review');
    assert.equal(user?.decision, 'shadowed');
    assert.equal(user?.shadowedBy, CODE_REVIEW);
    assert.equal(r.diagnostics.filter((d) => d.code === 'eva.skill.path-missing').length, 0);
  });

  it('embeds the upstream schemas byte for byte', () => {
    for (const name of ['adapter', 'capability', 'eva', 'policy'] as const) {
      const text = fs.readFileSync(path.join(CORPUS, 'config', 'schemas', `${name}.schema.json`), 'utf8');
      assert.deepEqual(EMBEDDED_SCHEMAS[name], JSON.parse(text));
      assert.equal(
        fs.readFileSync(
          path.join(__dirname, '..', '..', 'src', 'core', 'systems', 'eva', 'schemas', `${name}.schema.json`),
          'utf8',
        ),
        text,
      );
    }
  });
});
