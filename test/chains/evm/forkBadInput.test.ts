import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anvilArgs, createAnvilInstance, type AnvilInstance } from '../../../src/chains/evm/AnvilInstance';
import { shownUpstream } from '../../../src/config/shownUpstream';
import { ConfigurationError } from '../../../src/errors/IntentsimError';
import { resolveAnvilBinary } from '../../../src/process/resolveAnvilBinary';
import { startSimulator } from '../../../src/simulator';
import { pauseProcess, resumeProcess } from '../../support/pauseProcess';

/**
 * `intentsim start --fork …` given what cannot be forked (docs/forking.md): one line on stderr
 * saying which, exit code 2, and no process left behind — the chain started beside it included.
 * The CLI runs a silent upstream, the flags' refusals and the malformed flag; the other upstream
 * refusals run the same start in-process (the ConfigurationError the CLI prints so).
 */
describe('intentsim start --fork with bad input', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fork-bad-'));
  let upstream: AnvilInstance;
  let runs = 0;
  /** A loopback port nothing listens on (bound, then closed). */
  let closedPort: number;

  beforeAll(async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closedPort = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    upstream = createAnvilInstance({ chainId: 8453, binaryPath: resolveAnvilBinary({}), logFile: join(dir, 'upstream.log') });
    await upstream.start();
  }, 30_000);

  afterAll(async () => {
    await upstream?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Anvil processes whose command line names `dataDir` (their IPC socket is in it). */
  const anvilsUnder = (dataDir: string): string[] => {
    try {
      return execFileSync('pgrep', ['-a', '-f', `anvil .*${dataDir}`], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
    } catch {
      return []; // pgrep exits 1 when nothing matches
    }
  };

  /** Runs the CLI to its end: its exit code, its stderr, and the anvil processes it left. */
  const start = (args: readonly string[]): Promise<{ code: number | null; stderr: string; left: string[] }> => {
    const dataDir = join(dir, `run-${++runs}`);
    return new Promise((resolve) => {
      execFile(process.execPath, ['bin/intentsim.js', 'start', '--json', '--port', '0', '--data-dir', dataDir, ...args], { encoding: 'utf8', timeout: 60_000 }, (error, _stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr, left: anvilsUnder(dataDir) });
      });
    });
  };

  /**
   * `startSimulator` in-process with the CLI's chains and forks (`--chains 1,8453 --fork …`): the
   * ConfigurationError whose message the CLI prints as its one line with exit 2 (src/cli.ts), and the
   * Anvil processes it left. The CLI itself runs the cases below that say so.
   */
  const startInProcess = async (fork: Record<number, string>, forkBlock?: Record<number, number>): Promise<{ error: unknown; left: string[] }> => {
    const dataDir = join(dir, `run-${++runs}`);
    const error = await startSimulator({ port: 0, env: {}, log: () => undefined, dataDir, chains: [{ id: 1 }, { id: 8453 }], fork, ...(forkBlock ? { forkBlock } : {}) }).then(
      async (sim) => {
        await sim.stop();
        return undefined;
      },
      (caught: unknown) => caught,
    );
    return { error, left: anvilsUnder(dataDir) };
  };

  /** What a refused start in-process gave: the one line's message, a ConfigurationError (exit 2), nothing left running. */
  const expectRefusedInProcess = (run: { error: unknown; left: string[] }, line: RegExp) => {
    expect(run.error).toBeInstanceOf(ConfigurationError);
    const message = (run.error as Error).message;
    expect(message.split('\n'), message).toHaveLength(1);
    expect(message).toMatch(line);
    expect(run.left).toEqual([]);
  };

  /** The one line a refused start prints. */
  const expectRefused = (run: { code: number | null; stderr: string; left: string[] }, line: RegExp) => {
    expect(run.stderr.trimEnd().split('\n'), run.stderr).toHaveLength(1);
    expect(run.stderr.trimEnd()).toMatch(line);
    expect(run.code).toBe(2);
    expect(run.left).toEqual([]);
  };

  it('an upstream that refuses the connection', async () => {
    expectRefusedInProcess(await startInProcess({ 8453: `http://127.0.0.1:${closedPort}` }), new RegExp(`^chain 8453: the fork upstream http://127\\.0\\.0\\.1:${closedPort} did not answer eth_chainId \\(ECONNREFUSED\\)$`));
  }, 60_000);

  it('an upstream that does not answer (the CLI): the probe gives up after 5 s, and the chain started beside it is stopped', async () => {
    await pauseProcess(upstream.pid!);
    try {
      expectRefused(await start(['--chains', '1,8453', '--fork', `8453=${upstream.rpcUrl}`]), /^intentsim: chain 8453: the fork upstream http:\/\/127\.0\.0\.1:\d+ did not answer eth_chainId within 5 s$/);
    } finally {
      resumeProcess(upstream.pid!);
    }
  }, 60_000);

  it('an upstream of another chain', async () => {
    expectRefusedInProcess(await startInProcess({ 1: upstream.rpcUrl }), /^chain 1: the fork upstream http:\/\/127\.0\.0\.1:\d+ serves chain 8453, not 1$/);
  }, 60_000);

  it('a block past the upstream tip', async () => {
    expectRefusedInProcess(await startInProcess({ 8453: upstream.rpcUrl }, { 8453: 999999 }), /^chain 8453: the fork upstream http:\/\/127\.0\.0\.1:\d+: --fork-block 999999 is past its tip, block \d+$/);
  }, 60_000);

  it('a --fork-block on a kind that reads its upstream as it is now, a --fork-block without --fork', async () => {
    expectRefused(
      await start(['--chains', '1,792703809', '--fork', '792703809=https://solana-rpc.example', '--fork-block', '792703809=5']),
      /^intentsim: invalid configuration: --fork-block 792703809=5: chain 792703809 is a svm chain, whose fork reads its upstream's current state \(no public Solana JSON-RPC URL serves past state\); drop --fork-block$/,
    );
    expectRefused(await start(['--chains', '1', '--fork-block', '1=5']), /^intentsim: invalid configuration: --fork-block 1=5: chain 1 has no --fork$/);
  }, 60_000);

  it('a malformed --fork is refused by the flag parser; repeated flags add up', async () => {
    const run = await start(['--fork', '8453=ftp://example']);
    expect(run.stderr).toMatch(/--fork <chain=url>.*must be chainId=URL with an http\(s\) URL/);
    expect(run.code).not.toBe(0);
    expectRefused(await start(['--chains', '1', '--fork', '1=https://a.example', '--fork', '8453=https://b.example']), /chain 8453 is not configured \(--chains\)$/);
  });

  it("a fork's Anvil bounds each upstream call, keeps nothing in the shared disk cache, and an upstream's key stays out of messages", () => {
    expect(anvilArgs({ chainId: 8453, fork: { url: 'https://rpc.example/v2/KEY', blockNumber: 23_000_000n } })).toEqual([
      '--host', '127.0.0.1', '--port', '0', '--chain-id', '8453',
      '--fork-url', 'https://rpc.example/v2/KEY', '--fork-block-number', '23000000',
      '--timeout', '10000', '--retries', '1', '--fork-retry-backoff', '250', '--no-storage-caching',
    ]);
    expect(shownUpstream('https://rpc.example/v2/KEY')).toBe('https://rpc.example/…');
    expect(shownUpstream('http://127.0.0.1:8545')).toBe('http://127.0.0.1:8545');
  });
});
