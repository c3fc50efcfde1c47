// covers: endpoint:GET /requests/v3, endpoint:GET /chains, status:success, status:refund, failReason:SOLVER_BALANCE_TOO_LOW
import { execFile } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { createPublicClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/IntentsimError';
import { replayRequest } from '../../src/scenario/replay/replayRequest';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { anvilsForking } from '../support/anvilsForking';
import { bridgeOnUpstream, refundedByDrainedSolver } from '../support/drainedSolverUpstream';
import { pooledChains } from '../support/pooledNodes';

/**
 * `intentsim replay` (docs/forking.md "Replaying a request"): the upstream is a second simulator
 * started here, on this worker's pooled chains 1 and 8453. One of its requests ends `success`; another ends
 * `refund` SOLVER_BALANCE_TOO_LOW because its solver was drained on the destination just before
 * the deposit. Replayed where they happened, each ends as it did upstream; the upstream is left
 * as it was; bad input is one line and exit code 2.
 */
describe('intentsim replay: a request of another deployment replayed where it happened', () => {
  let upstream: RunningSimulator;
  let succeeded: string;
  let refunded: string;
  /** A loopback port nothing listens on. */
  let closedPort: number;

  const replayAnvils = (): string[] => anvilsForking(upstream.chains.map((chain) => chain.rpcUrl));
  const blockNumbers = () => Promise.all(upstream.chains.map((chain) => createPublicClient({ transport: http(chain.rpcUrl) }).getBlockNumber({ cacheTime: 0 })));

  /** Runs `intentsim replay …` to its end: its exit code, stdout and stderr. */
  const replayCli = (args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(process.execPath, ['bin/intentsim.js', 'replay', ...args], { encoding: 'utf8', timeout: 150_000 }, (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
      });
    });

  beforeAll(async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closedPort = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    upstream = await startSimulator({ port: 0, env: {}, log: () => undefined, chains: pooledChains([1, 8453]) });
    const ok = await bridgeOnUpstream(upstream, 1);
    expect(ok.status).toBe('success');
    succeeded = ok.id;
    // the upstream's solver can no longer pay on 8453: drained in a block before the deposit
    refunded = await refundedByDrainedSolver(upstream, 2);
  }, 180_000);

  afterAll(async () => {
    await upstream?.stop();
  });

  it('a request that ended success replays to success: same', async () => {
    const before = await blockNumbers();
    const report = await replayRequest({ requestId: succeeded, from: upstream.baseUrl, apiKey: upstream.apiKey });
    expect(report.original).toMatchObject({ requestId: succeeded, status: 'success', failReason: null, refundFailReason: null });
    expect(report.replayed).toMatchObject({ status: 'success', failReason: null, refundFailReason: null });
    expect(report.replayed.transactions.map(({ type, chainId, status }) => ({ type, chainId, status }))).toEqual(report.original.transactions.map(({ type, chainId, status }) => ({ type, chainId, status })));
    expect(report.same).toBe(true);
    expect(report.forks['1']).toMatchObject({ pinned: true });
    expect(report.forks['1']!.block).toBe((await depositBlockOf(succeeded)) - 1);
    expect(report.forks['8453']!.pinned).toBe(true);
    expect(await blockNumbers()).toEqual(before);
    expect(replayAnvils()).toEqual([]);
  }, 150_000);

  it('a request that ended refund SOLVER_BALANCE_TOO_LOW upstream replays to the same refund and reason (the CLI, --json, exit 0)', async () => {
    const before = await blockNumbers();
    const run = await replayCli([refunded, '--from', upstream.baseUrl, '--api-key', upstream.apiKey, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { original: Record<string, unknown>; replayed: Record<string, unknown>; same: boolean; forks: Record<string, { block: number; pinned: boolean }> };
    expect(report.original).toMatchObject({ status: 'refund', failReason: 'SOLVER_BALANCE_TOO_LOW' });
    expect(report.replayed).toMatchObject({ status: 'refund', failReason: 'SOLVER_BALANCE_TOO_LOW', refundFailReason: null });
    expect(report.same).toBe(true);
    expect(Object.keys(report.forks).sort()).toEqual(['1', '8453']);
    expect(await blockNumbers()).toEqual(before);
    expect(replayAnvils()).toEqual([]);
  }, 180_000);

  const depositBlockOf = async (id: string): Promise<number> => {
    const response = await fetch(`${upstream.baseUrl}/requests/v3?id=${id}`, { headers: { 'x-api-key': upstream.apiKey } });
    return ((await response.json()) as { requests: Array<{ data: { inTxs: Array<{ block: number }> } }> }).requests[0]!.data.inTxs[0]!.block;
  };

  describe('bad input: one line on stderr, exit code 2, nothing left running', () => {
    /**
     * What the CLI prints as its one line, exiting 2 (src/cli.ts: a ConfigurationError), from
     * replayRequest in-process; the last case runs the CLI itself.
     */
    const expectRefusedInProcess = async (replaying: Promise<unknown>, message: RegExp) => {
      const error = await replaying.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message.split('\n')).toHaveLength(1);
      expect(replayAnvils()).toEqual([]);
    };

    it('a malformed request id', async () => {
      await expectRefusedInProcess(replayRequest({ requestId: '0x1234', from: upstream.baseUrl }), /^not a request id: "0x1234" \(expected 0x and 64 hex digits\)$/);
    }, 60_000);

    it('a request the upstream does not have', async () => {
      const missing = `0x${'ab'.repeat(32)}`;
      await expectRefusedInProcess(replayRequest({ requestId: missing, from: upstream.baseUrl, apiKey: upstream.apiKey }), new RegExp(`^request ${missing} not found at http://127\\.0\\.0\\.1:\\d+$`));
    }, 60_000);

    it('a --from nobody answers at', async () => {
      await expectRefusedInProcess(replayRequest({ requestId: succeeded, from: `http://127.0.0.1:${closedPort}` }), new RegExp(`^could not reach http://127\\.0\\.0\\.1:${closedPort} for GET /requests/v3\\?id=0x[0-9a-f]{64} \\(ECONNREFUSED\\)$`));
    }, 60_000);

    it('a fork upstream nobody answers at (the CLI: its one line, exit 2, its chains stopped)', async () => {
      const run = await replayCli([succeeded, '--from', upstream.baseUrl, '--api-key', upstream.apiKey, '--fork', `8453=http://127.0.0.1:${closedPort}`]);
      expect(run.stderr.trimEnd().split('\n'), run.stderr).toHaveLength(1);
      expect(run.stderr.trimEnd()).toMatch(new RegExp(`^intentsim: chain 8453: the fork upstream http://127\\.0\\.0\\.1:${closedPort} did not answer eth_chainId \\(ECONNREFUSED\\)$`));
      expect(run.code).toBe(2);
      expect(replayAnvils()).toEqual([]);
    }, 60_000);
  });
});
