import type { ConformanceTarget } from './target';

const runs = new WeakMap<ConformanceTarget, Map<string, Promise<unknown>>>();

/**
 * One costly run (a paid bridge, a webhook session) shared by the checks of one conformance run
 * that judge it: the first check to ask starts it, the others read what it saw. A skip or a
 * broken rule of the run itself reaches every check that asks.
 */
export function sharedRun<T>(target: ConformanceTarget, name: string, start: () => Promise<T>): Promise<T> {
  let byName = runs.get(target);
  if (!byName) {
    byName = new Map();
    runs.set(target, byName);
  }
  let run = byName.get(name) as Promise<T> | undefined;
  if (!run) {
    run = start();
    byName.set(name, run);
  }
  return run;
}
