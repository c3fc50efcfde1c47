// covers: operation:claim app fees, status:success
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { erc20Abi, getAddress, type Address, type Hex } from 'viem';
import { serviceReceiverArtifact } from '../../fixtures/contracts/artifacts.generated';
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from '../../src/simulator';
import { AppFeeStore } from '../../src/store/AppFeeStore';
import { openDatabase } from '../../src/store/openDatabase';
import { executeQuoteSteps, getJson, postJson, publicClientFor, waitForSettledStatus } from '../support/bridgeClient';
import { evmChainOf } from '../support/evmChainOf';

/** A claim debited by a process that stopped before paying it is paid, once, by the next start. */
describe('app fee claim across a restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-appfee-restart-'));
  const dbPath = join(dir, 'sim.db');
  const options: StartSimulatorOptions = { port: 0, dbPath, env: {}, log: () => undefined, chains: [{ id: 1, resetOnStart: false }, { id: 8453, resetOnStart: false }] };
  const TREASURY = getAddress('0x0000000000000000000000000000000000c1a1c2');
  let sim: RunningSimulator | undefined;

  afterAll(async () => {
    await sim?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('pays a claim left debited and unpaid, and settles it', async () => {
    sim = await startSimulator(options);
    const usdc = evmChainOf(sim, 1).contractAddresses.stablecoin;
    const app = sim.accounts[6]!.address as Address;
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: sim.accounts[4]!.address,
      originChainId: 1,
      destinationChainId: 8453,
      originCurrency: usdc,
      destinationCurrency: evmChainOf(sim, 8453).contractAddresses.stablecoin,
      amount: '100000000',
      tradeType: 'EXACT_INPUT',
      appFees: [{ recipient: app, fee: '100' }],
    });
    const requestId = quote.body.steps.at(-1).requestId as string;
    await executeQuoteSteps(sim, sim.accounts[4]!.privateKey as Hex, quote.body);
    expect((await waitForSettledStatus(sim.baseUrl, requestId)).status).toBe('success');
    const claim = await postJson(`${sim.baseUrl}/app-fees/${app}/claim`, { chainId: 1, currency: usdc, recipient: TREASURY });
    expect(claim.status).toBe(200);
    const claimId = claim.body.steps[0].items[0].data.post.body.claimId as Hex;
    // read before the stop: the next start may pay the claim before this test can look
    const before = await publicClientFor(sim, 1).readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [TREASURY] });
    expect(before).toBe(0n);
    await sim.stop();
    sim = undefined;

    // the process died right after the signed claim was debited, before its payment was sent
    const db = openDatabase(dbPath);
    expect(new AppFeeStore(db).debitClaim(claimId, 0)).toMatchObject({ ok: true });
    db.close();

    sim = await startSimulator(options);
    const running = sim;
    let listed: { status: string; txHash: Hex | null } | undefined;
    for (let attempt = 0; attempt < 2000 && listed?.status !== 'success'; attempt++) {
      listed = (await getJson(`${running.baseUrl}/app-fees/${app}/claims`)).body.claims[0];
      if (listed?.status !== 'success') await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(listed).toMatchObject({ status: 'success', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(await publicClientFor(running, 1).readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [TREASURY] })).toBe(1_000_000n);
    expect((await getJson(`${running.baseUrl}/app-fees/${app}/balances`)).body.balances).toEqual([]);
    // paid by exactly one transaction under the claim's id
    const payments = await publicClientFor(running, 1).getContractEvents({
      address: evmChainOf(running, 1).contractAddresses.serviceReceiver,
      abi: serviceReceiverArtifact.abi,
      eventName: 'Fill',
      args: { id: claimId },
      fromBlock: 0n,
    });
    expect(payments.map((log) => log.transactionHash)).toEqual([listed!.txHash]);
  });
});
