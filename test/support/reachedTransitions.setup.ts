import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, expect } from 'vitest';
import { collectCoverage, drivesSimulator, REACHED_KINDS } from '../../scripts/generate-coverage-doc';
import { RequestLifecycle } from '../../src/lifecycle/transitionRequest';

/**
 * Keeps the coverage doc honest about statuses and transitions: every `status:` and `transition:`
 * a test file that drives a simulator names in its `covers:` lines must have been reached by a
 * real request during that file's run, or the file fails. Reached = performed by the lifecycle
 * (`transitionRequest`, `createRequest`) in this worker's process.
 */
const reached = new Set<string>();

const transition = RequestLifecycle.prototype.transition;
RequestLifecycle.prototype.transition = function (this: RequestLifecycle, params) {
  const from = this.requests.get(params.requestId)?.status;
  const record = transition.call(this, params);
  reached.add(`transition:${from}->${params.to}`);
  reached.add(`status:${params.to}`);
  return record;
};
const create = RequestLifecycle.prototype.create;
RequestLifecycle.prototype.create = function (this: RequestLifecycle, record, alsoInTransaction) {
  create.call(this, record, alsoInTransaction);
  reached.add(`status:${record.status}`);
};

afterAll(() => {
  const testPath = expect.getState().testPath;
  if (!testPath) return;
  const file = { path: relative(process.cwd(), testPath), text: readFileSync(testPath, 'utf8') };
  if (!drivesSimulator(file)) return;
  const missing = collectCoverage([file]).filter((a) => REACHED_KINDS.includes(a.kind) && !reached.has(`${a.kind}:${a.item}`));
  if (missing.length > 0) {
    throw new Error(`${file.path} says it covers ${missing.map((a) => a.raw).join(', ')}, but no request reached that during its run`);
  }
});
