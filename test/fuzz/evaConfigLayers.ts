import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Rng } from './random';
import { fileEntry, shapePath, type Shape, type ShapeEntry } from './shapeTree';
import type { ShapeFate } from './shapeFates';

/**
 * The demo's Eva project (input.ts `evaDemo`) with its main configuration in layers that each
 * name another adapter root, and one skill adapter in every root named anywhere. Eva's rules
 * (eva.md §1.1, upstream eva-config lib.rs `load_project_config`, layering.rs `merge_config_layers`):
 *
 * - `config/eva.yaml` is the base; over it, when present, `config/profiles/<env>.yaml`,
 *   `config/eva.user.yaml` and `config/environments/<env>.yaml` are deep-merged in that order,
 *   each later one winning (`ConfigLayerKind` Base < Profile < User < Environment);
 * - `<env>` is `runtime.env` of the base file alone (`base_eva.runtime.env`): a layer that sets
 *   `runtime.env` names no other layer, and a file for another env (or `<env>.yml`, or
 *   `eva.user.yml`) is never read;
 * - mappings merge key by key: a layer's `config: {adapter_dir: …}` leaves the other five roots
 *   of the base as they are, and a layer without `config.adapter_dir` leaves it;
 * - a relative root resolves against the project root (`resolve_against(&project_root)`), not
 *   against the layer's own directory;
 * - the adapter root is the merged `config.adapter_dir`: only the files under it are enumerated
 *   (§1.2), so an adapter in any other root is no item at all, and a root that does not exist is
 *   read as nothing (§1.1: "indexes nothing from it"), never the sample default.
 *
 * Each adapter is a copy of the demo's `review-skill` under an id of its own, so in the root Eva
 * reads it is registered (as in evaDuplicateIds.ts) and everywhere else `absent`. A Skillgate that
 * applied the layers in another order, took `<env>` from the merged value, replaced `config`
 * whole, or resolved a root against the layer's directory shows the adapter Eva loads as absent,
 * which `check` then never gates. The shape owns `config/` and the project-root folder it names.
 */

type Layer = 'profile' | 'user' | 'environment';

const ENVS = ['dev', 'prod', 'stage'];

/** A root relative to the project root, and the same name under `config/` where a reader resolving against the layer's folder would look. */
const REL = 'adapters-rel';

const MISSING = 'config/adapters-none';

function demoText(file: string): string {
  return fs.readFileSync(path.resolve(__dirname, '../../examples/demo-workspace', file), 'utf8');
}

/** The demo's `review-skill` adapter (registered in the demo) under `id`. */
function adapterText(id: string): string {
  return demoText('config/adapters/review-skill.yaml').replace(/^id: review-skill$/m, `id: ${id}`);
}

/** The demo's `eva.yaml` with `runtime.env` and `config.adapter_dir` set (the last `adapter_dir` line is `config`'s; `runtime` has one too). */
function baseText(env: string, adapterDir: string): string {
  const text = demoText('config/eva.yaml').replace(/^ {2}env: dev$/m, `  env: ${env}`);
  const line = '  adapter_dir: config/adapters\n';
  const at = text.lastIndexOf(line);
  return `${text.slice(0, at)}  adapter_dir: ${adapterDir}\n${text.slice(at + line.length)}`;
}

/** A spelling of `dir` in a layer: plain, quoted, `./`-led or with a trailing `/` (all one folder to Eva). */
function spelled(rng: Rng, dir: string): string {
  return rng.weighted<string>([
    [4, dir],
    [1, JSON.stringify(dir)],
    [1, `./${dir}`],
    [1, `${dir}/`],
  ]);
}

/**
 * A layer's text: `config.adapter_dir` (block or flow), or no `adapter_dir`: other keys only, or a
 * `config` mapping with another root only (restating the base's `schema_dir`), which leaves
 * `adapter_dir` as it was since mappings merge key by key; at times a `runtime.env` that names nothing.
 */
function layerText(rng: Rng, dir: string | undefined, otherEnv: string | undefined): string {
  let text = '';
  if (dir !== undefined)
    text += rng.bool(0.7)
      ? `config:\n  adapter_dir: ${spelled(rng, dir)}\n`
      : `config: {adapter_dir: ${spelled(rng, dir)}}\n`;
  else text += rng.bool(0.5) ? 'observability:\n  log_level: debug\n' : 'config:\n  schema_dir: config/schemas\n';
  if (otherEnv !== undefined) text += `runtime:\n  env: ${otherEnv}\n`;
  return text;
}

export function generateEvaConfigLayers(rng: Rng): Shape {
  const env = rng.pick(ENVS);
  const otherEnv = rng.pick(ENVS.filter((e) => e !== env));
  // The sample default `config/adapters` (the demo's) or another: a reader that lost the base's root would fall back to the default.
  const base = rng.weighted<string>([
    [1, 'config/adapters'],
    [1, 'config/adapters-base'],
  ]);
  const entries: ShapeEntry[] = [fileEntry(shapePath('ws', 'config/eva.yaml'), baseText(env, base))];
  // Every root a file names, read or not, gets an adapter of its own.
  const named = new Set<string>([base]);
  let winner = base;
  const LAYERS: readonly [Layer, string][] = [
    ['profile', `config/profiles/${env}.yaml`],
    ['user', 'config/eva.user.yaml'],
    ['environment', `config/environments/${env}.yaml`],
  ];
  for (const [layer, file] of LAYERS) {
    if (!rng.bool(0.6)) continue;
    const dir = rng.weighted<string | undefined>([
      [6, `config/adapters-${layer}`],
      [3, undefined],
      [1, REL],
      [1, base],
      [1, MISSING],
    ]);
    // A layer's `runtime.env` names no layer: `<env>` is the base file's (`base_eva.runtime.env`), read before any layer.
    const setsEnv = rng.bool(0.3) ? otherEnv : undefined;
    entries.push(fileEntry(shapePath('ws', file), layerText(rng, dir, setsEnv)));
    if (dir !== undefined) {
      named.add(dir);
      winner = dir;
    }
  }
  // Files Eva never reads: the other env's layers, `.yml` spellings, `eva.user.yml`.
  const decoys = [
    `config/profiles/${otherEnv}.yaml`,
    `config/environments/${otherEnv}.yaml`,
    `config/environments/${env}.yml`,
    `config/profiles/${env}.yml`,
    'config/eva.user.yml',
  ];
  for (const file of decoys)
    if (rng.bool(0.35)) {
      const dir = `config/adapters-${rng.int(1000)}`;
      entries.push(fileEntry(shapePath('ws', file), layerText(rng, dir, undefined)));
      named.add(dir);
    }
  const adapters: string[] = [];
  for (const dir of [...named].sort()) {
    if (dir === MISSING) continue;
    adapters.push(`${dir}/layered.yaml`);
    // A relative root read against the layer's folder, or against `config/`, would find these instead.
    if (dir === REL) adapters.push(`config/${REL}/layered.yaml`, `config/profiles/${REL}/layered.yaml`);
  }
  adapters.forEach((p, i) => entries.push(fileEntry(shapePath('ws', p), adapterText(`layered-${i}`))));
  const fates: ShapeFate[] = adapters.map((p) => ({
    system: 'eva',
    path: p,
    fate: path.posix.dirname(p) === winner ? 'registered' : 'absent',
  }));
  return { shape: 'eva-config-layers', entries, owns: ['ws/config', `ws/${REL}`], fates };
}
