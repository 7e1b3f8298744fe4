import { resolveContainedPath, type Contained } from './containedPath';
import type { BundleTree } from './bundleTree';
import { validateMcpServer } from './mcpRules';
import { NAME_RULE_MESSAGES, NAME_RULES, slugForName } from './names';
import { derivedNetworkHosts, normalizeDeclaredHost, urlHost } from './networkHosts';
import { networkHostsFix } from './networkHostsFix';
import { iconProblem, looksAbsolute, semverProblem, textProblem } from './textRules';
import { COMPONENT_KINDS, type ComponentKind, type Located, type Manifest } from './manifest';
import type { Findings } from '../../diagnostics/findings';
import type { RelatedLocation } from '../../model';
import { removeRepeatFix } from './removeRepeatFix';
import { byteOrder } from '../../fs/rawNames';
import { asciiLower, rustTrim } from '../../text/rustText';

const OS_NAMES = ['windows', 'linux', 'macos', 'freebsd', 'openbsd', 'netbsd', 'android', 'ios'];

export interface ValidatedManifest {
  /** Canonical absolute targets of each declared component path. */
  readonly componentTargets: Partial<Record<ComponentKind, string[]>>;
  /** Normalized declared hosts ∪ MCP URL hosts (the inventory's `network_hosts`). */
  readonly networkHosts: string[];
  readonly version: string;
}

/**
 * Metadata, component paths, capabilities, `[when]` and MCP servers
 * (codewhale.md §4.3-§4.7). Upstream stops at the first error; we report every
 * independent problem so a user can fix them in one pass — the bundle's fate is the same.
 */
export function validateManifest(root: string, m: Manifest, findings: Findings, tree?: BundleTree): ValidatedManifest {
  let version = m.version.value;
  if (m.label === 'plugin.toml' && m.schemaVersion.value === 0) {
    // A blank line keeps the top-level key apart from the first table, as TOML is usually written.
    // A written `schema_version = 0` gets the new value in place: a second key would not parse.
    // Without a version there is no fix: a legacy manifest loads as version 0.0.0, but schema 1
    // refuses a blank version (§4.4 step 3), so the fix alone would make Codewhale refuse the
    // bundle; which version to write is the author's choice.
    const written = findings.document(m.file)?.literalAt(['schema_version']) !== undefined;
    const atTop =
      rustTrim(version) === ''
        ? undefined
        : written
          ? findings.replaceFix('Set schema_version = 1', m.schemaVersion.at, '1')
          : {
              title: 'Add schema_version = 1',
              edits: [
                {
                  file: m.file,
                  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
                  newText: 'schema_version = 1\n\n',
                },
              ],
            };
    findings.at(
      'codewhale.manifest-legacy',
      'legacy manifest: add `schema_version = 1`',
      { file: m.file, path: [] },
      atTop ? { fix: atTop } : undefined,
    );
    if (rustTrim(version) === '') {
      version = '0.0.0';
      findings.at(
        'codewhale.manifest-legacy',
        'legacy manifest: add a semantic `[plugin].version`; displaying `0.0.0`',
        { file: m.file, path: ['plugin'] },
      );
    }
  }
  if (m.schemaVersion.value > 1) {
    // 1 is the one value that is neither unknown nor legacy (§4.3).
    const written = findings.document(m.file)?.literalAt(m.schemaVersion.at.path) !== undefined;
    findings.at(
      'codewhale.manifest.schema-version',
      `unsupported schema_version ${m.schemaVersion.value}; maximum is 1`,
      m.schemaVersion.at,
      written ? { fix: findings.replaceFix('Set schema_version = 1', m.schemaVersion.at, '1') } : undefined,
    );
  }
  if (!NAME_RULES[m.nameRule](m.name.value)) {
    const slug = slugForName(m.name.value);
    const fix = NAME_RULES[m.nameRule](slug)
      ? findings.replaceFix(`Rename the plugin to \`${slug}\``, m.name.at, JSON.stringify(slug))
      : undefined;
    findings.at(
      'codewhale.manifest.name',
      NAME_RULE_MESSAGES[m.nameRule](m.name.value),
      m.name.at,
      fix ? { fix } : undefined,
    );
  }
  if (!(m.label === 'plugin.toml' && m.schemaVersion.value === 0 && version === '0.0.0')) {
    const v = semverProblem(version);
    if (v) findings.at('codewhale.manifest.version', v, m.version.at);
  }
  const texts: [Located<string> | undefined, string, number][] = [
    [m.description, 'description', 1024],
    [m.author, 'author', 256],
    [m.displayName, 'display name', 128],
    [m.homepage, 'homepage', 2048],
    [m.repository, 'repository', 2048],
    [m.license, 'license', 128],
  ];
  for (const [field, label, max] of texts) {
    if (!field) continue;
    const p = textProblem(label, field.value, max);
    if (p) findings.at('codewhale.manifest.text', p, field.at);
  }
  if (m.icon) {
    const p = iconProblem(m.icon.value);
    if (p) findings.at('codewhale.manifest.icon', p, m.icon.at);
  }
  uniqueTexts('keyword', m.keywords, 128, findings);
  uniqueTexts('filesystem root', m.filesystemRoots, 512, findings);
  // A Kimi or Claude manifest declares no hosts: Codewhale derives them and checks them as declared ones (§3.5).
  const hosts = m.networkHostsDerived ? derivedNetworkHosts(m) : m.networkHosts;
  uniqueTexts('network host', hosts, 253, findings);

  // network_hosts must equal the host set of every MCP URL (§4.4 step 7).
  const declared = new Set<string>();
  let malformedHost = false;
  for (const h of hosts) {
    const r = normalizeDeclaredHost(h.value);
    if (r.ok) declared.add(r.host);
    else {
      findings.at('codewhale.capabilities.network-host', r.message, h.at);
      malformedHost = true;
    }
  }
  // Every format parses each MCP URL here, before the per-server rules: an unparseable one
  // is upstream's first error, "remote MCP URL is invalid", and the host sets are not compared.
  // Nor are they after a declared host that does not normalize: upstream stops at that host, and
  // a set without it would report a mismatch (and offer a fix) the author did not write.
  const endpoints = new Set<string>();
  const badUrls = new Set<string>();
  for (const s of m.mcpServers) {
    if (!s.url) continue;
    const r = urlHost(s.url.value);
    if (r.ok) endpoints.add(r.host);
    else {
      findings.at('codewhale.mcp.url-invalid', r.message, s.url.at);
      badUrls.add(s.id);
    }
  }
  if (!m.networkHostsDerived && !malformedHost && badUrls.size === 0 && !sameSet(declared, endpoints)) {
    const at = m.networkHosts[0]?.at ?? m.mcpServers.find((s) => s.url)?.url?.at ?? { file: m.file, path: [] };
    const hosts = [...endpoints].sort(byteOrder);
    const fix = networkHostsFix(m, findings.document(m.file), hosts);
    // Upstream's words stay the message; which hosts are missing or extra is Skillgate's
    // explanation, as related information at the URL or the declared host at fault.
    const related: RelatedLocation[] = [];
    const named = new Set<string>();
    for (const s of m.mcpServers) {
      if (!s.url) continue;
      const r = urlHost(s.url.value);
      if (r.ok && !declared.has(r.host) && !named.has(r.host)) {
        named.add(r.host);
        related.push({
          file: s.url.at.file,
          range: findings.rangeOf(s.url.at),
          message: `Missing host \`${r.host}\`: MCP server \`${s.id}\` connects to it, so network_hosts must list it.`,
        });
      }
    }
    for (const h of m.networkHosts) {
      const r = normalizeDeclaredHost(h.value);
      if (r.ok && !endpoints.has(r.host))
        related.push({
          file: h.at.file,
          range: findings.rangeOf(h.at),
          message: `Extra host \`${r.host}\`: no remote MCP server connects to it, so network_hosts must not list it.`,
        });
    }
    findings.at(
      'codewhale.capabilities.network-hosts-mismatch',
      'capabilities.network_hosts must exactly match the normalized host set of all remote MCP endpoints',
      at,
      { related, ...(fix ? { fix } : {}) },
    );
  }

  if (m.when?.os) {
    uniqueTexts('OS', m.when.os, 32, findings);
    for (const os of m.when.os) {
      if (!OS_NAMES.includes(asciiLower(os.value)))
        findings.at('codewhale.when.os', `unsupported OS selector \`${os.value}\``, os.at);
    }
  }
  if (m.when?.binaries) {
    uniqueTexts('binary', m.when.binaries, 128, findings);
    for (const b of m.when.binaries) {
      // `looks_windows_absolute` wants a separator after the drive (`C:\`, `C:/`): `C:git` is a bare name.
      if (b.value.includes('/') || b.value.includes('\\') || looksAbsolute(b.value)) {
        findings.at('codewhale.when.binary', `binary condition \`${b.value}\` must be a bare executable name`, b.at);
      }
    }
  }

  const componentTargets: Partial<Record<ComponentKind, string[]>> = {};
  for (const kind of COMPONENT_KINDS) {
    const spec = m.components[kind];
    if (!spec) continue;
    if (spec.paths.length === 0) {
      findings.at('codewhale.component.path', 'component table must declare `path` or `paths`', spec.at);
      continue;
    }
    if (spec.paths.length > 64)
      findings.at('codewhale.component.path', `component declares ${spec.paths.length} paths; maximum is 64`, spec.at);
    const targets: string[] = [];
    // Each path declared so far, as it resolved: one declared again resolves as it did (a list of
    // 16,000 repeats was as many `lstat`s, fuzz seed 7006).
    const resolved = new Map<string, Contained>();
    for (const [i, p] of spec.paths.entries()) {
      let r = resolved.get(p.value);
      if (r) {
        const fix = removeRepeatFix(findings, spec.paths[i - 1], p);
        findings.at(
          'codewhale.component.path',
          `component path \`${p.value}\` is declared more than once`,
          p.at,
          fix ? { fix } : undefined,
        );
      } else {
        r = resolveContainedPath(root, p.value, kind, tree);
        resolved.set(p.value, r);
      }
      if (r.ok) targets.push(r.absolute);
      else findings.at('codewhale.component.path', r.message, p.at);
    }
    componentTargets[kind] = targets;
  }

  if (m.mcpServers.length > 64) {
    findings.at(
      'codewhale.mcp.too-many',
      `manifest declares ${m.mcpServers.length} MCP servers; maximum is 64`,
      (m.mcpServers[64] ?? m.mcpServers[0])?.at ?? { file: m.file, path: [] },
    );
  }
  for (const s of m.mcpServers) validateMcpServer(root, s, findings, tree, badUrls.has(s.id));

  return {
    componentTargets,
    networkHosts: [...new Set([...m.networkHosts.map((h) => asciiLower(h.value)), ...endpoints])].sort(byteOrder),
    version,
  };
}

/** `validate_unique_texts(field, values, max)` (codewhale.md §4.4 step 6). */
function uniqueTexts(field: string, values: readonly Located<string>[], max: number, findings: Findings): void {
  if (values.length > 64)
    findings.at(
      'codewhale.manifest.list',
      `too many ${field} values; maximum is 64`,
      (values[64] as Located<string>).at,
    );
  const seen = new Set<string>();
  for (const [i, v] of values.entries()) {
    const p = textProblem(field, v.value, max);
    if (p) findings.at('codewhale.manifest.text', p, v.at);
    const key = asciiLower(v.value);
    if (seen.has(key)) {
      const fix = removeRepeatFix(findings, values[i - 1], v);
      findings.at(
        'codewhale.manifest.list',
        `duplicate ${field} value \`${v.value}\``,
        v.at,
        fix ? { fix } : undefined,
      );
    }
    seen.add(key);
  }
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}
