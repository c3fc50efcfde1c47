import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { collectCoverage, drivesSimulator, REACHED_KINDS } from '../../scripts/generate-coverage-doc';
import { RequestLifecycle } from '../../src/lifecycle/transitionRequest';

/**
 * Keeps the coverage doc honest about statuses and transitions: every `status:` and `transition:`
 * a test file that drives a simulator names in its `covers:` lines must have been reached by a
 * real request during that file's run, or the file fails. Reached = performed by the lifecycle
 * (`transitionRequest`, `createRequest`) in this worker's process.
 *
 * Test files share their worker's modules (`isolate: false` in vitest.config.ts): this file runs
 * again before each of them, so the lifecycle is wrapped once per worker and each file starts
 * with an empty set of what it reached.
 */
interface ReachedRecorder {
  reached: Set<string>;
}

const RECORDER = Symbol.for('intentsim.test.reachedTransitions');

function installRecorder(): ReachedRecorder {
  const recorder: ReachedRecorder = { reached: new Set() };
  const transition = RequestLifecycle.prototype.transition;
  RequestLifecycle.prototype.transition = function (this: RequestLifecycle, params) {
    const from = this.requests.get(params.requestId)?.status;
    const record = transition.call(this, params);
    recorder.reached.add(`transition:${from}->${params.to}`);
    recorder.reached.add(`status:${params.to}`);
    return record;
  };
  const create = RequestLifecycle.prototype.create;
  RequestLifecycle.prototype.create = function (this: RequestLifecycle, record, alsoInTransaction) {
    // alsoInTransaction stores the quote sequence: without it a restarted simulator would take its numbers again
    create.call(this, record, alsoInTransaction);
    recorder.reached.add(`status:${record.status}`);
  };
  return recorder;
}

const shared = globalThis as typeof globalThis & { [RECORDER]?: ReachedRecorder };
const recorder = (shared[RECORDER] ??= installRecorder());

beforeAll(() => {
  recorder.reached = new Set();
});

afterAll(() => {
  const testPath = expect.getState().testPath;
  if (!testPath) return;
  const file = { path: relative(process.cwd(), testPath), text: readFileSync(testPath, 'utf8') };
  if (!drivesSimulator(file)) return;
  const missing = collectCoverage([file]).filter((a) => REACHED_KINDS.includes(a.kind) && !recorder.reached.has(`${a.kind}:${a.item}`));
  if (missing.length > 0) {
    throw new Error(`${file.path} says it covers ${missing.map((a) => a.raw).join(', ')}, but no request reached that during its run`);
  }
});
