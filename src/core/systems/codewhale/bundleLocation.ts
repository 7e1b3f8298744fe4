import { FILE_START, type Range } from '../../model';
import type { CodewhaleBundle } from './codewhaleBundle';

/** The start of a bundle's manifest; its directory when no manifest was resolved (bundleJob.ts). */
export function manifestStart(b: CodewhaleBundle): { file: string; range: Range } {
  return { file: b.manifestFile ?? b.dir, range: FILE_START };
}

/** Where a bundle is shown: its `name` in the manifest, else the manifest's start. */
export function nameAnchor(b: CodewhaleBundle): { file: string; range: Range } {
  return b.anchors['name'] ?? manifestStart(b);
}
