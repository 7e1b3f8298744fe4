import type { Failure } from './invariants';
import type { FuzzInput } from './input';

/** Messages between the supervisor and a worker process. */
export type ToWorker =
  | {
      readonly type: 'input';
      readonly seed: string;
      readonly index: number;
      readonly timeLimitMs: number;
      readonly shrinkAttempts: number;
      /** How long shrinking an input's failures may take, in ms, before no further candidate is tried. */
      readonly shrinkMs: number;
    }
  | { readonly type: 'exit' };

export type FromWorker =
  | { readonly type: 'ready'; readonly scratch: string }
  | { readonly type: 'generated'; readonly index: number; readonly input: FuzzInput }
  /** The input's failures, before they are shrunk: kept should the worker be killed while shrinking. */
  | { readonly type: 'checked'; readonly index: number; readonly failures: readonly Failure[] }
  /** A shrinking candidate about to be checked: should the worker die on it, it is the reproducer. */
  | { readonly type: 'candidate'; readonly index: number; readonly input: FuzzInput }
  | {
      readonly type: 'done';
      readonly index: number;
      readonly ms: number;
      readonly failures: readonly Failure[];
      readonly minimal: readonly MinimalRepro[];
    };

/** The smallest input found that still fails one invariant the same way. */
export interface MinimalRepro {
  readonly invariant: Failure['invariant'];
  readonly signature: string;
  readonly detail: string;
  readonly input: FuzzInput;
}
