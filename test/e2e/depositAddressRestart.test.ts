// covers: status:success, transition:waiting->pending
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createWalletClient, http, zeroAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { depositoryArtifact } from '../../fixtures/contracts/artifacts.generated';
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from '../../src/simulator';
import { postJson, publicClientFor, waitForSettledStatus } from '../support/bridgeClient';
import { evmChainOf } from '../support/evmChainOf';

/** SPEC §1.6 with DESIGN's store rule: a deposit address handed out before a restart is still watched after it. */
describe('deposit addresses across a restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-depaddr-restart-'));
  const options: StartSimulatorOptions = {
    port: 0,
    dbPath: join(dir, 'sim.db'),
    env: {},
    log: () => undefined,
    chains: [{ id: 1, resetOnStart: false }, { id: 8453, resetOnStart: false }],
  };
  let sim: RunningSimulator | undefined;

  afterAll(async () => {
    await sim?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A native 1 → 8453 quote paid through a deposit address. */
  async function quoteDepositAddress(running: RunningSimulator, user: string, recipient: Address) {
    const quote = await postJson(`${running.baseUrl}/quote/v2`, {
      user,
      recipient,
      originChainId: 1,
      destinationChainId: 8453,
      originCurrency: zeroAddress,
      destinationCurrency: zeroAddress,
      amount: '25000000000000000',
      tradeType: 'EXACT_INPUT',
      useDepositAddress: true,
    });
    expect(quote.status).toBe(200);
    const [step] = quote.body.steps;
    return { quote, step, requestId: step.requestId as Hex };
  }

  /** The user's plain transfer of the quoted value into the deposit address. */
  function payFrom(running: RunningSimulator, privateKey: string, step: { depositAddress: Address; items: Array<{ data: { value: string } }> }): Promise<Hex> {
    const origin = evmChainOf(running, 1);
    const wallet = createWalletClient({ account: privateKeyToAccount(privateKey as Hex), chain: origin.viemChain(), transport: http(origin.rpcUrl) });
    return wallet.sendTransaction({ to: step.depositAddress, value: BigInt(step.items[0]!.data.value) });
  }

  it('a live deposit address quoted before the restart is paid after it, swept and filled', async () => {
    sim = await startSimulator(options);
    const user = sim.accounts[2]!;
    const recipient = sim.accounts[6]!.address as Address;
    const { quote, step, requestId } = await quoteDepositAddress(sim, user.address, recipient);
    await sim.stop();

    sim = await startSimulator(options);
    const before = await publicClientFor(sim, 8453).getBalance({ address: recipient });
    const paymentHash = await payFrom(sim, user.privateKey, step);

    const settled = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(settled.status).toBe('success');
    expect((await publicClientFor(sim, 8453).getBalance({ address: recipient })) - before).toBe(BigInt(quote.body.details.currencyOut.amount));
    expect(sim.control.requests.get(requestId)!.depositAddress).toMatchObject({ address: step.depositAddress, depositor: user.address, depositTxHash: paymentHash });
    expect(sim.control.requests.eventsFor(requestId).map((event) => event.toStatus)).toEqual(['waiting', 'pending', 'submitted', 'success']);
  });

  it('a payment seen before the restart whose sweep was never mined is swept once after it', async () => {
    // the previous test left `sim` running on this database
    const running = sim!;
    const user = running.accounts[3]!;
    const { step, requestId } = await quoteDepositAddress(running, user.address, user.address as Address);
    const origin = evmChainOf(running, 1);
    const client = publicClientFor(running, 1);
    const solver = running.control.solverAddress as Address;

    // the origin stops mining on its own: the payment is mined by hand, the sweep stays in the mempool
    await origin.testClient.setAutomine(false);
    const paymentHash = await payFrom(running, user.privateKey, step);
    await origin.testClient.mine({ blocks: 1 });
    await origin.syncNow();
    for (let tries = 0; ; tries++) {
      const [pending, latest] = await Promise.all([client.getTransactionCount({ address: solver, blockTag: 'pending' }), client.getTransactionCount({ address: solver })]);
      if (pending > latest) break;
      if (tries > 2000) throw new Error('the sweep was never broadcast');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(running.control.requests.get(requestId)!.depositAddress).toMatchObject({ depositTxHash: paymentHash });
    expect(running.control.requests.get(requestId)!.status).toBe('waiting');
    await running.stop(); // Anvil saves its state (mempool excluded) on a graceful stop

    sim = await startSimulator(options);
    const settled = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(settled.status).toBe('success');
    expect(settled.inTxHashes).toHaveLength(1);
    const deposits = await publicClientFor(sim, 1).getContractEvents({
      address: evmChainOf(sim, 1).contractAddresses.depository,
      abi: depositoryArtifact.abi,
      eventName: 'Deposit',
      args: { id: requestId },
      fromBlock: 0n,
    });
    expect(deposits.map((log) => log.transactionHash)).toEqual(settled.inTxHashes);
  });
});
