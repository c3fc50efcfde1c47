// covers: status:refund, transition:pending->refund, failReason:DEPOSITED_AMOUNT_TOO_LOW_TO_FILL, failReason:INCORRECT_DEPOSIT_CURRENCY
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletClient, encodeFunctionData, erc20Abi, http, maxUint256, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { depositoryArtifact } from '../../fixtures/contracts/artifacts.generated';
import type { RunningSimulator } from '../../src/simulator';
import { nativeBridgeBody, postJson, publicClientFor, waitForSettledStatus } from '../support/bridgeClient';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { evmChainOf } from '../support/evmChainOf';

/** SPEC §1.4 (quotes revalidated at fill) and §1.5: a deposit that cannot be filled is refunded on the origin chain. */
describe('refunds from the depository', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  async function quoteNative(accountIndex: number, tradeType: 'EXACT_INPUT' | 'EXACT_OUTPUT') {
    const user = sim.accounts[accountIndex]!;
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridgeBody(user.address, { originChainId: 8453, destinationChainId: 42161, amount: '20000000000000000', tradeType }));
    expect(quote.status).toBe(200);
    return { user, quote: quote.body, requestId: quote.body.steps[0].requestId as Hex };
  }

  function walletOf(privateKey: string) {
    const chain = evmChainOf(sim, 8453);
    return createWalletClient({ account: privateKeyToAccount(privateKey as Hex), chain: chain.viemChain(), transport: http(chain.rpcUrl) });
  }

  it('refunds an EXACT_OUTPUT deposit smaller than amountIn, paying the depositor back', async () => {
    const { user, quote, requestId } = await quoteNative(1, 'EXACT_OUTPUT');
    const amountIn = BigInt(quote.details.currencyIn.amount);
    const short = amountIn - 1n;
    const client = publicClientFor(sim, 8453);
    const hash = await walletOf(user.privateKey).sendTransaction({
      to: evmChainOf(sim, 8453).contractAddresses.depository,
      data: encodeFunctionData({ abi: depositoryArtifact.abi, functionName: 'depositNative', args: [user.address as Address, requestId] }),
      value: short,
    });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 5 });
    // read at the deposit's block: the solver's refund may already be mined after it
    const afterDeposit = await client.getBalance({ address: user.address as Address, blockNumber: receipt.blockNumber });

    const status = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(status).toMatchObject({ status: 'refund', failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL', refundFailReason: 'N/A', inTxHashes: [receipt.transactionHash], txHashes: [] });
    expect((await client.getBalance({ address: user.address as Address })) - afterDeposit).toBe(short);
    const record = sim.control.requests.get(requestId)!;
    expect(record.outTxs).toHaveLength(1);
    expect(record.outTxs[0]).toMatchObject({ type: 'refund', chainId: 8453, status: 'success' });
    expect(sim.control.requests.eventsFor(requestId).map((e) => e.toStatus)).toEqual(['waiting', 'pending', 'refund']);
  });

  it('refunds a deposit made in another currency than quoted (INCORRECT_DEPOSIT_CURRENCY)', async () => {
    const { user, requestId } = await quoteNative(2, 'EXACT_INPUT');
    const chain = evmChainOf(sim, 8453);
    const { stablecoin, depository } = chain.contractAddresses;
    const client = publicClientFor(sim, 8453);
    const wallet = walletOf(user.privateKey);
    const usdcBalance = (blockNumber?: bigint) =>
      client.readContract({ address: stablecoin, abi: erc20Abi, functionName: 'balanceOf', args: [user.address as Address], ...(blockNumber === undefined ? {} : { blockNumber }) });
    const approveHash = await wallet.writeContract({ address: stablecoin, abi: erc20Abi, functionName: 'approve', args: [depository, maxUint256] });
    await client.waitForTransactionReceipt({ hash: approveHash, pollingInterval: 5 });
    const before = await usdcBalance();
    const depositHash = await wallet.writeContract({
      address: depository,
      abi: depositoryArtifact.abi,
      functionName: 'depositErc20',
      args: [user.address as Address, stablecoin, 5_000_000n, requestId],
    });
    const depositReceipt = await client.waitForTransactionReceipt({ hash: depositHash, pollingInterval: 5 });
    // read at the deposit's block: the solver's refund may already be mined after it
    expect(await usdcBalance(depositReceipt.blockNumber)).toBe(before - 5_000_000n);

    const status = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(status).toMatchObject({ status: 'refund', failReason: 'INCORRECT_DEPOSIT_CURRENCY', inTxHashes: [depositHash], txHashes: [] });
    expect(await usdcBalance()).toBe(before);
    expect(sim.control.requests.eventsFor(requestId).map((e) => e.toStatus)).toEqual(['waiting', 'pending', 'refund']);
    expect(sim.control.requests.get(requestId)!.outTxs).toMatchObject([{ type: 'refund', chainId: 8453, status: 'success', data: { to: user.address, currency: stablecoin, amount: 5_000_000n } }]);
  });
});
