import * as path from 'node:path';
import type { ReviewReport } from '../trust/reviewBundle';
import type { FileView } from './reviewModel';
import type { ShowText } from './shown';

/** The unit's files, each with the file to open; of a unit Skillgate cannot hash, every one it covers, each it could not hash with why. */
export function fileViews(r: ReviewReport, S: ShowText): FileView[] {
  return (r.coveredFiles ?? r.files ?? []).map((f) =>
    'unhashed' in f
      ? { path: S(f.path), unhashed: S(f.unhashed) }
      : {
          path: S(f.path),
          // A covered file outside the project is named by its absolute path (eva/coveredListing.ts).
          file: path.isAbsolute(f.path) ? f.path : path.join(r.root, f.path),
          size: f.size,
          executable: f.executable,
          sha256: f.sha256,
        },
  );
}
