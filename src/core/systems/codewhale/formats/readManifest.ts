import type { Findings } from '../../../diagnostics/findings';
import type { BundleTree } from '../bundleTree';
import type { Manifest, ManifestLabel } from '../manifest';
import { readKimiJson } from './kimiJson';
import { readPluginJson } from './pluginJson';
import { readPluginToml } from './pluginToml';

/** A bundle's manifest, read by the parser of its format (codewhale.md §4.2). */
export function readManifest(
  label: ManifestLabel,
  file: string,
  source: string,
  bundleRoot: string,
  findings: Findings,
  tree: BundleTree | undefined,
): Manifest | undefined {
  return label === 'plugin.toml'
    ? readPluginToml(file, source, findings)
    : label === 'plugin.json'
      ? readPluginJson(file, source, bundleRoot, findings, tree)
      : readKimiJson(file, source, bundleRoot, findings, label);
}
