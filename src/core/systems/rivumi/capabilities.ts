import { emptyOwnRecord } from '../../documents/ownRecord';
import type { Capabilities, Hook } from '../../capabilities';
import type { RivumiHook, RivumiHooksFile, RivumiPlugin } from './model';

/**
 * What a Rivumi trust unit can do (capabilities.ts): the hooks it runs and, for a
 * plugin, the skills it lists; with the pairs its capability hash is computed from
 * (hashes.ts), which the hash alone depends on.
 */
export function hooksFileCapabilities(hf: RivumiHooksFile): Capabilities {
  return { system: 'rivumi', kind: 'hooks', hooks: hooksByCommand(hf.hooks), pairs: hf.hashes?.capabilities ?? {} };
}

export function pluginCapabilities(p: RivumiPlugin): Capabilities {
  return {
    system: 'rivumi',
    kind: 'plugin',
    skills: p.skills.map((s) => ({ name: s.qualifiedName, path: s.source })),
    hooks: hooksByCommand(p.hooks),
    pairs: p.hashes?.capabilities ?? {},
  };
}

export function hookOf(h: RivumiHook): Hook {
  return { event: h.event, argv: [...h.argv], timeoutSeconds: h.timeoutSeconds, tools: [...h.tools] };
}

/** Hooks keyed by event and command line, so a review names each added or removed command. */
function hooksByCommand(hooks: readonly RivumiHook[]): Record<string, Hook> {
  const out = emptyOwnRecord<Hook>();
  for (const h of hooks) {
    const base = `${h.event}: ${JSON.stringify(h.argv)}`;
    let key = base;
    for (let n = 2; Object.hasOwn(out, key); n++) key = `${base} (#${n})`;
    out[key] = hookOf(h);
  }
  return out;
}
