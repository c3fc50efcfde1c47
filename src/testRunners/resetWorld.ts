import type { IntentsimContext } from './sharedSimulator';

/**
 * Puts the shared simulator back to the world its start left (`POST /admin/reset`: every chain's
 * balances, no requests, the start's clock; docs/control-plane.md "World snapshots"). What the
 * isolation setup files run before each test.
 */
export async function resetWorld(context: IntentsimContext): Promise<void> {
  const response = await fetch(`${context.baseUrl}/admin/reset`, { method: 'POST', headers: { 'x-api-key': context.apiKey } });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { errorCode?: string; message?: string };
    throw new Error(`intentsim: POST /admin/reset answered ${response.status} ${body.errorCode ?? ''}: ${body.message ?? ''}`.trim());
  }
}

/** How each runner numbers its workers (1 to N; 1 when test files run one at a time) and how it runs them one at a time. */
const RUNNERS = {
  vitest: { workerVariable: 'VITEST_POOL_ID', oneAtATime: 'fileParallelism: false in vitest.config (or --no-file-parallelism)' },
  jest: { workerVariable: 'JEST_WORKER_ID', oneAtATime: 'jest --runInBand (or maxWorkers: 1)' },
} as const;

/**
 * Refuses per-test isolation in a second parallel worker: a reset before one worker's test would
 * undo what another worker's test is doing on the same simulator, so isolation needs test files
 * to run one at a time. The runner numbers its workers from 1, so a number above 1 means files run
 * side by side.
 */
export function refuseParallelWorkers(runner: keyof typeof RUNNERS, environment: NodeJS.ProcessEnv = process.env): void {
  const { workerVariable, oneAtATime } = RUNNERS[runner];
  const worker = Number(environment[workerVariable] ?? '1');
  if (worker > 1) {
    throw new Error(
      `intentsim/${runner}/isolate: test files run in parallel (${workerVariable}=${environment[workerVariable]}), and a world reset before one file's test would undo another's on the shared simulator: run test files one at a time (${oneAtATime})`,
    );
  }
}
