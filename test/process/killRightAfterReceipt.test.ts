import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, createWalletClient, http, zeroAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { postJson, usdcOf } from '../support/bridgeClient';
import { cliProcessGroups, waitUntilGone, waitUntilSettled, type CliProcess, type CliReady } from '../support/cliProcess';

/**
 * Issue 27: a confirmed transaction is never forgotten. The whole process group (the simulator and
 * its Anvil processes) is SIGKILLed within a few milliseconds of a deposit's receipt, before the
 * deposit watcher could index its block; the next start on the same database has the deposit (the
 * EVM chain's front journaled it before Anvil saw it) and the request finishes, filled once. Then a
 * transaction left in the pool with automine off, and a cheat call, come back as they were.
 */
const SVM = 792703809;
const LVM = 3586256;
const dir = mkdtempSync(join(tmpdir(), 'intentsim-receipt-kill-'));
const groups = cliProcessGroups();
afterAll(() => {
  groups.killAll();
  rmSync(dir, { recursive: true, force: true });
});

const start = () => groups.start(['--chains', `1,8453,${SVM},${LVM}`, '--db', join(dir, 'sim.db')]);
const rpcOf = (ready: CliReady, chainId: number) => ready.chains.find((chain) => chain.id === chainId)!.rpcUrl;
const clientOf = (ready: CliReady, chainId: number) => createPublicClient({ transport: http(rpcOf(ready, chainId)) });

interface QuotedSteps {
  steps: Array<{ requestId?: Hex; items: Array<{ data: { chainId: number; to: Address; data: Hex; value: string } }> }>;
  details: { currencyOut: { amount: string } };
}

async function quote(ready: CliReady, body: Record<string, unknown>): Promise<QuotedSteps & { requestId: Hex }> {
  const quoted = await postJson<QuotedSteps>(`${ready.baseUrl}/quote/v2`, { tradeType: 'EXACT_INPUT', ...body });
  expect(quoted.status, JSON.stringify(quoted.body)).toBe(200);
  return { ...quoted.body, requestId: quoted.body.steps.at(-1)!.requestId! };
}

/** One JSON-RPC call straight to a URL (no client in between: the receipt is seen the moment the node has it). */
async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return ((await response.json()) as { result: unknown }).result;
}

/**
 * Sends every step through the chain's front and SIGKILLs the group the moment the last receipt is
 * in (polled without pause) or, with `accepted`, the moment the node answered the deposit's hash;
 * returns the deposit's hash.
 */
async function payThenKill(run: CliProcess, accountIndex: number, quoted: QuotedSteps, killAt: 'receipt' | 'accepted' = 'receipt'): Promise<Hex> {
  const account = privateKeyToAccount(run.ready.accounts[accountIndex]!.privateKey);
  let deposit: Hex = '0x';
  for (const { data } of quoted.steps.flatMap((step) => step.items)) {
    const url = rpcOf(run.ready, data.chainId);
    const wallet = createWalletClient({ account, transport: http(url) });
    const prepared = await wallet.prepareTransactionRequest({ to: data.to, data: data.data, value: BigInt(data.value), chain: null });
    const signed = await wallet.signTransaction({ ...prepared, chain: null } as never);
    deposit = (await rpc(url, 'eth_sendRawTransaction', [signed])) as Hex;
    while (killAt === 'receipt' && (await rpc(url, 'eth_getTransactionReceipt', [deposit])) === null);
  }
  process.kill(-run.top.pid!, 'SIGKILL');
  await waitUntilGone([run.top.pid!], 10_000);
  return deposit;
}

/** After the restart: the deposit is on its chain, and the request ends `success` with one fill. */
async function expectFinishedOnce(run: CliProcess, originChainId: number, deposit: Hex, requestId: Hex) {
  const mined = await clientOf(run.ready, originChainId).getTransactionReceipt({ hash: deposit });
  expect(mined.status).toBe('success');
  const status = await waitUntilSettled(run.ready.baseUrl, requestId, 60_000);
  expect(status.status).toBe('success');
  expect(status.txHashes).toHaveLength(1);
}

describe('SIGKILL of the group right after a deposit receipt, then a restart on the same --db', () => {
  let run: CliProcess;

  it('EVM → EVM: the deposit is back on the chain, and the recipient is paid once', async () => {
    run = await start();
    const recipient = '0x00000000000000000000000000000000000e2701' as Address;
    const user = run.ready.accounts[1]!.address;
    const quoted = await quote(run.ready, { user, recipient, originChainId: 1, destinationChainId: 8453, originCurrency: zeroAddress, destinationCurrency: zeroAddress, amount: '10000000000000000' });
    const deposit = await payThenKill(run, 1, quoted);

    run = await start();
    await expectFinishedOnce(run, 1, deposit, quoted.requestId);
    expect(await clientOf(run.ready, 8453).getBalance({ address: recipient })).toBe(BigInt(quoted.details.currencyOut.amount));
  }, 120_000);

  it('EVM → Solana: the USDC deposit is back on the chain, and the request is filled once', async () => {
    const user = run.ready.accounts[2]!.address;
    const quoted = await quote(run.ready, {
      user, recipient: 'CiDwVBFgWV9E5MvXWoLgnEgn2hK7rJikbvfWavzAQz3', originChainId: 8453, destinationChainId: SVM,
      originCurrency: await usdcOf(run.ready.baseUrl, 8453), destinationCurrency: await usdcOf(run.ready.baseUrl, SVM), amount: '25000000',
    });
    const deposit = await payThenKill(run, 2, quoted);

    run = await start();
    await expectFinishedOnce(run, 8453, deposit, quoted.requestId);
  }, 120_000);

  it('EVM → Lighter: the USDC deposit is back on the chain, and the exchange account is paid once', async () => {
    const user = run.ready.accounts[3]!.address;
    const lighterAccount = (run.ready.chains.find((chain) => chain.id === LVM) as unknown as { accounts: Array<{ address: string }> }).accounts[0]!.address;
    const quoted = await quote(run.ready, {
      user, recipient: lighterAccount, originChainId: 8453, destinationChainId: LVM,
      originCurrency: await usdcOf(run.ready.baseUrl, 8453), destinationCurrency: '0', amount: '5000000',
    });
    const deposit = await payThenKill(run, 3, quoted);

    run = await start();
    await expectFinishedOnce(run, 8453, deposit, quoted.requestId);
  }, 120_000);

  it('EVM → EVM, killed the moment the node accepted the deposit (its hash answered): the deposit is on the chain after the restart, filled once', async () => {
    const recipient = '0x00000000000000000000000000000000000e2704' as Address;
    const user = run.ready.accounts[5]!.address;
    const quoted = await quote(run.ready, { user, recipient, originChainId: 1, destinationChainId: 8453, originCurrency: zeroAddress, destinationCurrency: zeroAddress, amount: '10000000000000000' });
    const deposit = await payThenKill(run, 5, quoted, 'accepted');

    run = await start();
    await expectFinishedOnce(run, 1, deposit, quoted.requestId);
    expect(await clientOf(run.ready, 8453).getBalance({ address: recipient })).toBe(BigInt(quoted.details.currencyOut.amount));
  }, 120_000);

  it('a deposit in the pool with automine off and an anvil_setBalance cheat come back as they were; mined, the request is filled once', async () => {
    const chain1 = clientOf(run.ready, 1);
    const cheated = '0x00000000000000000000000000000000000e2702' as Address;
    await chain1.request({ method: 'anvil_setBalance', params: [cheated, '0x1234567'] } as never);
    await chain1.request({ method: 'evm_setAutomine', params: [false] } as never);
    const recipient = '0x00000000000000000000000000000000000e2703' as Address;
    const user = run.ready.accounts[4]!;
    const quoted = await quote(run.ready, { user: user.address, recipient, originChainId: 1, destinationChainId: 8453, originCurrency: zeroAddress, destinationCurrency: zeroAddress, amount: '10000000000000000' });
    const item = quoted.steps[0]!.items[0]!.data;
    const wallet = createWalletClient({ account: privateKeyToAccount(user.privateKey), transport: http(rpcOf(run.ready, 1)) });
    const deposit = await wallet.sendTransaction({ to: item.to, data: item.data, value: BigInt(item.value), chain: null, gas: 200_000n });
    expect((await chain1.getTransaction({ hash: deposit })).blockNumber).toBeNull();
    process.kill(-run.top.pid!, 'SIGKILL');
    await waitUntilGone([run.top.pid!], 10_000);

    run = await start();
    const restarted = clientOf(run.ready, 1);
    expect(await restarted.getBalance({ address: cheated })).toBe(0x1234567n);
    expect(await restarted.request({ method: 'anvil_getAutomine' } as never)).toBe(false);
    expect((await restarted.getTransaction({ hash: deposit })).blockNumber).toBeNull();
    await restarted.request({ method: 'evm_mine' } as never);
    await expectFinishedOnce(run, 1, deposit, quoted.requestId);
    expect(await clientOf(run.ready, 8453).getBalance({ address: recipient })).toBe(BigInt(quoted.details.currencyOut.amount));

    // once more, with all of it indexed: the cheat is made again between the blocks it came between
    process.kill(-run.top.pid!, 'SIGKILL');
    await waitUntilGone([run.top.pid!], 10_000);
    run = await start();
    expect(await clientOf(run.ready, 1).getBalance({ address: cheated })).toBe(0x1234567n);
    expect((await waitUntilSettled(run.ready.baseUrl, quoted.requestId)).txHashes).toHaveLength(1);
    process.kill(-run.top.pid!, 'SIGTERM');
  }, 180_000);
});
