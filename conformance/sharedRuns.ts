import type { ConformanceTarget } from './target';

const runs = new WeakMap<ConformanceTarget, Map<string, Promise<unknown>>>();

/**
 * One value computed once per conformance run and shared by the checks that need it (a paid
 * bridge, a webhook session, the requests quoted for the listing checks, the route full mode
 * pays on): the first check to ask starts it, the others read what it saw. A skip or a broken
 * rule of the run itself reaches every check that asks.
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
