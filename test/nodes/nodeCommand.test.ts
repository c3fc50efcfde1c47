import { closeSolanaConnections, solanaConnection } from '../support/solanaConnections';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey } from '@solana/web3.js';
import { startSvmNode } from '../../src/nodes/svm/startSvmNode';
import { childPidsOf, waitUntilGone } from '../support/cliProcess';

// `intentsim node <kind>` as a user runs it: a child process that prints its RPC URL and funded
// accounts, answers a client, and stops on Ctrl-C (SIGINT) with nothing left running

interface NodeReady {
  kind: string;
  chainId: number;
  rpcUrl: string;
  wsUrl?: string;
  esploraUrl?: string;
  stablecoinMint?: string;
  fundedAccounts: Array<{ address: string; privateKey: string; balance: string; owner?: string }>;
}

const started: ChildProcess[] = [];

afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function runNodeCli(args: readonly string[]): { child: ChildProcess; stdout: Promise<string>; firstLine: Promise<string>; exit: Promise<number | null> } {
  const child = spawn(process.execPath, ['bin/intentsim.js', 'node', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const firstLine = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    void exit.then((code) => reject(new Error(`intentsim node exited ${code} before it printed: ${stderr.slice(-2000)}`)));
  });
  // a run that is meant to fail is awaited through `exit`, not `firstLine`
  firstLine.catch(() => undefined);
  return { child, stdout: exit.then(() => stdout + stderr), firstLine, exit };
}

/**
 * Stops the CLI as Ctrl-C does; answers its exit code, and which of it and the children it had
 * (an embedded node has none of its own; esbuild's service right after the CLI bundle was rebuilt)
 * are still running a moment later.
 */
async function interrupt(run: ReturnType<typeof runNodeCli>): Promise<{ code: number | null; leftRunning: number[] }> {
  const children = childPidsOf(run.child.pid!);
  run.child.kill('SIGINT');
  const code = await run.exit;
  return { code, leftRunning: await waitUntilGone([run.child.pid!, ...children], 5_000) };
}

const CLIENT_CALLS: Record<string, (ready: NodeReady) => Promise<unknown>> = {
  // @solana/web3.js, a client this project did not write
  svm: async (ready) => solanaConnection(ready.rpcUrl).getBalance(new PublicKey(ready.fundedAccounts[0]!.address)),
  // Bitcoin Core's JSON-RPC 1.0 over plain fetch
  bitcoin: async (ready) => {
    // the --json line names the node's Esplora REST API too, and it answers
    expect(await (await fetch(`${ready.esploraUrl}/blocks/tip/height`)).text()).toMatch(/^\d+$/);
    const response = await fetch(ready.rpcUrl, { method: 'POST', body: JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'scantxoutset', params: ['start', [`addr(${ready.fundedAccounts[0]!.address})`]] }) });
    return ((await response.json()) as { result: { total_amount: number } }).result.total_amount;
  },
  // the exchange's HTTP API over plain fetch
  exchange: async (ready) => {
    const response = await fetch(`${ready.rpcUrl}/api/v1/account?by=index&value=${ready.fundedAccounts[0]!.address}`);
    return ((await response.json()) as { accounts: Array<{ collateral: string }> }).accounts[0]!.collateral;
  },
};

const EXPECTED_FIRST_BALANCE: Record<string, unknown> = { svm: 1_000_000_000_000, bitcoin: 10, exchange: '1000000000000' };

describe('intentsim node <kind>', () => {
  for (const kind of ['svm', 'bitcoin', 'exchange']) {
    it(`${kind}: prints its RPC URL and funded accounts, answers a client, and stops on Ctrl-C with nothing left running`, async () => {
      const run = runNodeCli([kind, '--json', '--accounts', '2']);
      const ready = JSON.parse(await run.firstLine) as NodeReady;
      expect(ready).toMatchObject({ kind, rpcUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
      expect(ready.fundedAccounts).toHaveLength(2);
      if (kind === 'svm') expect(ready).toMatchObject({ wsUrl: expect.stringMatching(/^ws:\/\//), stablecoinMint: expect.any(String) });
      expect(await CLIENT_CALLS[kind]!(ready)).toEqual(EXPECTED_FIRST_BALANCE[kind]);
      const { code, leftRunning } = await interrupt(run);
      expect(code).toBe(0);
      expect(leftRunning).toEqual([]);
      await expect(fetch(ready.rpcUrl, { method: 'POST', body: '{}' })).rejects.toThrow();
    }, 120_000);
  }

  it('prints a summary a person reads: the RPC URL, each funded account with its balance and key, how to stop', async () => {
    const run = runNodeCli(['exchange', '--accounts', '1']);
    await run.firstLine;
    // the summary is written at once; give the rest of it a moment to arrive
    await new Promise((resolve) => setTimeout(resolve, 200));
    const { code } = await interrupt(run);
    expect(code).toBe(0);
    const text = await run.stdout;
    expect(text).toMatch(/^intentsim Lighter exchange node \(its HTTP API\), chain 3586256\nRPC URL: {3}http:\/\/127\.0\.0\.1:\d+\n/);
    expect(text).toMatch(/\(0\) 2 {2}1000000 USDC {2}owner 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\n {4}[0-9a-f]{64}\n/);
    expect(text).toContain('Ctrl-C stops it.');
  }, 120_000);

  it('svm --fork URL: a fork of that Solana RPC, showing an account funded only there', async () => {
    const upstream = await startSvmNode({ accountCount: 1 });
    try {
      const holder = Keypair.generate().publicKey;
      await solanaConnection(upstream.rpcUrl).requestAirdrop(holder, 3 * LAMPORTS_PER_SOL);
      const run = runNodeCli(['svm', '--json', '--accounts', '1', '--fork', upstream.rpcUrl]);
      const ready = JSON.parse(await run.firstLine) as NodeReady & { forkOf?: string };
      expect(ready.forkOf).toBe(upstream.rpcUrl);
      expect(await solanaConnection(ready.rpcUrl).getBalance(holder)).toBe(3 * LAMPORTS_PER_SOL);
      const { code, leftRunning } = await interrupt(run);
      expect(code).toBe(0);
      expect(leftRunning).toEqual([]);
    } finally {
      closeSolanaConnections();
      await upstream.stop();
    }
  }, 120_000);

  it('refuses a kind it does not have, and a bad mnemonic, with a message and exit code 1', async () => {
    const unknown = runNodeCli(['ethereum']);
    expect(await unknown.exit).toBe(1);
    expect(await unknown.stdout).toMatch(/'ethereum' is invalid for argument 'kind'\. Allowed choices are svm, bitcoin, exchange/);
    const badMnemonic = runNodeCli(['svm', '--mnemonic', 'not a mnemonic']);
    expect(await badMnemonic.exit).toBe(1);
    expect(await badMnemonic.stdout).toContain('must be a BIP-39 mnemonic');
  }, 120_000);
});
