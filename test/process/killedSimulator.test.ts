import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createPublicClient, createWalletClient, http, zeroAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../src/process/isProcessAlive';

/**
 * Durable chains (issue: kill -9 anywhere loses nothing): the whole process group — the simulator
 * and its Anvil processes — is killed with SIGKILL, so no chain saves its state; the next start on
 * the same database mines the lost blocks again from the chain journal. The record and the chain
 * agree afterwards: the request is still `success`, the recipient still has what it was paid.
 */
interface Ready {
  baseUrl: string;
  chains: Array<{ id: number; rpcUrl: string }>;
  accounts: Array<{ address: Address; privateKey: Hex }>;
}

const dir = mkdtempSync(join(tmpdir(), 'intentsim-killed-'));
const groups: number[] = [];
afterAll(() => {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

async function startInOwnGroup(): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = spawn(process.execPath, ['bin/intentsim.js', 'start', '--json', '--port', '0', '--chains', '1,8453', '--db', join(dir, 'sim.db')], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, Anvil processes included
  });
  groups.push(child.pid!);
  const lines = createInterface({ input: child.stdout! });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const ready = await new Promise<Ready>((resolve, reject) => {
    lines.on('line', (line) => line.startsWith('{') && resolve(JSON.parse(line) as Ready));
    child.once('exit', (code) => reject(new Error(`exited ${code} before ready: ${stderr}`)));
  });
  return { child, ready };
}

async function bridge(ready: Ready, accountIndex: number, recipient: Address): Promise<{ requestId: Hex; status: string }> {
  const account = privateKeyToAccount(ready.accounts[accountIndex]!.privateKey);
  const quote = (await (
    await fetch(`${ready.baseUrl}/quote/v2`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: account.address, recipient, originChainId: 1, destinationChainId: 8453, originCurrency: zeroAddress, destinationCurrency: zeroAddress, amount: '20000000000000000', tradeType: 'EXACT_INPUT' }),
    })
  ).json()) as { steps: Array<{ requestId: Hex; items: Array<{ data: { to: Address; data: Hex; value: string } }> }> };
  const step = quote.steps[0]!;
  const origin = ready.chains.find((chain) => chain.id === 1)!;
  const wallet = createWalletClient({ account, transport: http(origin.rpcUrl) });
  const item = step.items[0]!.data;
  await wallet.sendTransaction({ to: item.to, data: item.data, value: BigInt(item.value), chain: null });
  for (let tries = 0; tries < 600; tries++) {
    const status = (await (await fetch(`${ready.baseUrl}/intents/status/v3?requestId=${step.requestId}`)).json()) as { status: string };
    if (['success', 'failure', 'refund'].includes(status.status)) return { requestId: step.requestId, status: status.status };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`request ${step.requestId} did not settle`);
}

describe('SIGKILL of the whole process group', () => {
  it('loses no block: the next start on the same database has the fill, the payment and the status, and fills again', async () => {
    const recipient = '0x00000000000000000000000000000000000ddd01' as Address;
    const first = await startInOwnGroup();
    const settled = await bridge(first.ready, 1, recipient);
    expect(settled.status).toBe('success');
    const destinationRpc = first.ready.chains.find((chain) => chain.id === 8453)!.rpcUrl;
    const paid = await createPublicClient({ transport: http(destinationRpc) }).getBalance({ address: recipient });
    expect(paid).toBeGreaterThan(0n);

    process.kill(-first.child.pid!, 'SIGKILL');
    for (let tries = 0; tries < 400 && isProcessAlive(first.child.pid!); tries++) await new Promise((resolve) => setTimeout(resolve, 25));

    const second = await startInOwnGroup();
    const status = (await (await fetch(`${second.ready.baseUrl}/intents/status/v3?requestId=${settled.requestId}`)).json()) as { status: string; txHashes: Hex[] };
    expect(status.status).toBe('success');
    const destination = createPublicClient({ transport: http(second.ready.chains.find((chain) => chain.id === 8453)!.rpcUrl) });
    expect(await destination.getBalance({ address: recipient })).toBe(paid);
    const fill = await destination.getTransactionReceipt({ hash: status.txHashes[0]! });
    expect(fill.status).toBe('success');

    // the solver's nonces are in step with the chain: the next request fills too
    expect((await bridge(second.ready, 2, recipient)).status).toBe('success');
    expect(await destination.getBalance({ address: recipient })).toBeGreaterThan(paid);
    process.kill(-second.child.pid!, 'SIGTERM');
  }, 120_000);
});
