import { strict as assert } from 'node:assert';
import { Fixture, byName, index, writeW } from './helpers/fixture';
import { explainItem } from '../../src/core/report/explain';

/**
 * decisions.md "Explain" for a Codewhale bundle: the gates include the activation policy
 * (after the schema and manifest facts), and the capabilities section states every
 * permission the bundle declares, not only its network hosts.
 */
describe('explain of a Codewhale bundle, section by section (decisions.md "Explain")', () => {
  let f: Fixture;
  beforeEach(() => {
    f = new Fixture();
    writeW(
      f,
      '[capabilities]\nnetwork_hosts = ["api.example.com"]\nfilesystem_roots = ["/srv/data", "/etc/app"]\nlifecycle_mutation = true\n',
    );
  });
  afterEach(() => f.remove());

  const sections = () => {
    const s = index([f.path('ws')]);
    return new Map(explainItem(s, byName(s, 'example-plugin')).map((x) => [x.title, x.lines]));
  };

  it('states the activation policy among the gates, not among the manifest facts', () => {
    const s = sections();
    const titles = [...s.keys()];
    assert.ok(titles.indexOf('Schema') < titles.indexOf('Gates'), titles.join(', '));
    assert.ok(s.get('Gates')?.includes('compatibility: partial (activation policy v3)'), s.get('Gates')?.join('\n'));
    assert.ok(!s.get('Schema')?.some((l) => l.includes('activation policy')), s.get('Schema')?.join('\n'));
  });

  it('states each declared permission: network hosts, filesystem roots and lifecycle mutation', () => {
    const caps = sections().get('Capabilities') ?? [];
    assert.ok(caps.includes('network hosts: api.example.com'), caps.join('\n'));
    assert.ok(caps.includes('filesystem roots: /srv/data, /etc/app'), caps.join('\n'));
    assert.ok(caps.includes('lifecycle mutation: true'), caps.join('\n'));
  });
});
