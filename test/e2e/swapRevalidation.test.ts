// covers: status:refund, transition:pending->refund, failReason:SLIPPAGE, failReason:EXECUTION_REVERTED, failReason:DESTINATION_TOKEN_TRANSFER_REJECTED, failReason:TRANSACTION_REVERTED, failReason:TOO_LITTLE_RECEIVED
// covers: status:failure, transition:submitted->failure, transition:failure->refund
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletClient, encodeFunctionData, erc20Abi, getAddress, http, maxUint256, zeroAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { constantProductPoolArtifact, wrappedNativeArtifact } from '../../fixtures/contracts/artifacts.generated';
import type { RunningSimulator } from '../../src/simulator';
import { executeQuoteSteps, getJson, postJson, publicClientFor, waitForSettledStatus } from '../support/bridgeClient';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { balanceOn, blockOnStablecoin, quoteAndExecute, sendFrom, swapOnPool, freshAddresses, SWAP_TEST_CHAINS } from '../support/swapClient';
import { evmChainOf } from '../support/evmChainOf';

/**
 * SPEC §1.4 (quotes are revalidated when filled) and §1.5: moving the destination pool between
 * the quote and the deposit really changes the outcome. A test trader swaps on the pool
 * directly after the quote; the solver reads the reserves again when it fills.
 */
describe('swaps are revalidated against the pool at fill time', () => {
  let sim: RunningSimulator;
  const freshRecipient = freshAddresses(0xb000);
  const { ORIGIN, DESTINATION } = SWAP_TEST_CHAINS;
  const trader = () => sim.accounts[9]!;
  const addresses = (chainId: number) => evmChainOf(sim, chainId).contractAddresses;

  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  function swapQuote(tradeType: 'EXACT_INPUT' | 'EXACT_OUTPUT', amount: string, recipient: Address) {
    const user = sim.accounts[2]!;
    return {
      user: user.address,
      recipient,
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: zeroAddress,
      destinationCurrency: addresses(DESTINATION).stablecoin,
      amount,
      tradeType,
      slippageTolerance: '50',
    };
  }

  it('a pool moved in the recipient’s favour delivers more than quoted (EXACT_INPUT)', async () => {
    const recipient = freshRecipient();
    const { quote, status } = await quoteAndExecute(sim, sim.accounts[2]!.privateKey, swapQuote('EXACT_INPUT', '100000000000000000', recipient), async () => {
      // someone sells USDC for WETH: WETH gets dearer in USDC, so ETH → USDC pays more
      await swapOnPool(sim, DESTINATION, trader().privateKey, addresses(DESTINATION).stablecoin, 500_000n * 10n ** 6n);
    });
    expect(status.status).toBe('success');
    const received = await balanceOn(sim, DESTINATION, addresses(DESTINATION).stablecoin, recipient);
    expect(received).toBeGreaterThan(BigInt(quote.details.currencyOut.amount));
  });

  it('a pool moved against the quote beyond the slippage tolerance refunds on the origin chain (SLIPPAGE)', async () => {
    const recipient = freshRecipient();
    const user = sim.accounts[2]!;
    let afterDeposit = 0n;
    const { status, quote, depositHash } = await quoteAndExecute(sim, user.privateKey, swapQuote('EXACT_INPUT', '100000000000000000', recipient), async () => {
      // someone sells 1000 WETH: USDC gets scarce, ETH → USDC now pays ~6% less
      await swapOnPool(sim, DESTINATION, trader().privateKey, addresses(DESTINATION).wrappedNative, 1_000n * 10n ** 18n);
    });
    expect(status).toMatchObject({ status: 'refund', failReason: 'SLIPPAGE', txHashes: [], inTxHashes: [depositHash] });
    expect(await balanceOn(sim, DESTINATION, addresses(DESTINATION).stablecoin, recipient)).toBe(0n);
    const record = sim.control.requests.get(quote.steps[0]!.requestId)!;
    expect(record.outTxs).toHaveLength(1);
    expect(record.outTxs[0]).toMatchObject({ type: 'refund', chainId: ORIGIN, status: 'success', data: { amount: BigInt(quote.details.currencyIn.amount) } });
    void afterDeposit;
  });

  it('an EXACT_OUTPUT that now costs more than was deposited fails and refunds on the origin chain', async () => {
    const recipient = freshRecipient();
    const user = sim.accounts[3]!;
    const body = { ...swapQuote('EXACT_OUTPUT', '300000000', recipient), user: user.address };
    const { status, quote } = await quoteAndExecute(sim, user.privateKey, body, async () => {
      await swapOnPool(sim, DESTINATION, trader().privateKey, addresses(DESTINATION).wrappedNative, 500n * 10n ** 18n);
    });
    expect(status).toMatchObject({ status: 'refund', failReason: 'SLIPPAGE', txHashes: [] });
    expect(await balanceOn(sim, DESTINATION, addresses(DESTINATION).stablecoin, recipient)).toBe(0n);
    const record = sim.control.requests.get(quote.steps[0]!.requestId)!;
    expect(record.outTxs[0]).toMatchObject({ type: 'refund', chainId: ORIGIN, status: 'success' });
    expect(sim.control.requests.eventsFor(record.id).map((e) => e.toStatus)).toEqual(['waiting', 'pending', 'refund']);
  });

  it('an EXACT_OUTPUT whose pool moved only a little still delivers exactly the amount', async () => {
    const recipient = freshRecipient();
    const user = sim.accounts[3]!;
    const body = { ...swapQuote('EXACT_OUTPUT', '300000000', recipient), user: user.address };
    const { status } = await quoteAndExecute(sim, user.privateKey, body, async () => {
      await swapOnPool(sim, DESTINATION, trader().privateKey, addresses(DESTINATION).stablecoin, 1_000n * 10n ** 6n);
    });
    expect(status.status).toBe('success');
    expect(await balanceOn(sim, DESTINATION, addresses(DESTINATION).stablecoin, recipient)).toBe(300_000_000n);
  });

  describe('a recipient blocked by the token after the quote', () => {
    it('a bridge fill reverts on-chain (DESTINATION_TOKEN_TRANSFER_REJECTED from its trace): failure, then the deposit is refunded on the origin chain', async () => {
      const recipient = freshRecipient();
      const user = sim.accounts[4]!;
      const { requestId } = await quoteAndExecute(
        sim,
        user.privateKey,
        {
          user: user.address,
          recipient,
          originChainId: ORIGIN,
          destinationChainId: DESTINATION,
          originCurrency: addresses(ORIGIN).stablecoin,
          destinationCurrency: addresses(DESTINATION).stablecoin,
          amount: '20000000',
          tradeType: 'EXACT_INPUT',
        },
        () => blockOnStablecoin(sim, DESTINATION, recipient),
      );
      await sim.control.solver.idle(); // the refund follows the failure in the same piece of solver work
      const status = (await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`)).body;
      expect(status).toMatchObject({ status: 'refund', failReason: 'DESTINATION_TOKEN_TRANSFER_REJECTED' });
      expect(sim.control.requests.eventsFor(requestId).map((e) => e.toStatus)).toEqual(['waiting', 'pending', 'submitted', 'failure', 'refund']);
      const record = sim.control.requests.get(requestId)!;
      expect(record.outTxs.map((tx) => [tx.type, tx.chainId, tx.status])).toEqual([
        ['fill', DESTINATION, 'failure'],
        ['refund', ORIGIN, 'success'],
      ]);
      expect(record.failedTxHash).toBe(record.outTxs[0]!.txHash);
      // SPEC §2.3 failedCallData: the reverted fill's own call, read back from the chain
      const fillTx = await publicClientFor(sim, DESTINATION).getTransaction({ hash: record.failedTxHash! });
      expect(record.failedCallData).toEqual({ from: fillTx.from, to: fillTx.to, data: fillTx.input, value: fillTx.value });
      expect(getAddress(record.failedCallData!.to)).toBe(getAddress(addresses(DESTINATION).serviceReceiver));
      expect(getAddress(record.failedCallData!.from)).toBe(getAddress(sim.control.solverAddress));
    });

    it('a native bridge to a recipient that starts reverting after the quote fails on-chain (EXECUTION_REVERTED)', async () => {
      const recipient = freshRecipient();
      const user = sim.accounts[4]!;
      const { requestId } = await quoteAndExecute(
        sim,
        user.privateKey,
        { user: user.address, recipient, originChainId: ORIGIN, destinationChainId: DESTINATION, originCurrency: zeroAddress, destinationCurrency: zeroAddress, amount: '10000000000000000', tradeType: 'EXACT_INPUT' },
        () => evmChainOf(sim, DESTINATION).testClient.setCode({ address: recipient, bytecode: '0x60006000fd' }),
      );
      await sim.control.solver.idle();
      expect((await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`)).body).toMatchObject({ status: 'refund', failReason: 'EXECUTION_REVERTED' });
      const record = sim.control.requests.get(requestId)!;
      expect(record.outTxs.map((tx) => [tx.type, tx.status])).toEqual([['fill', 'failure'], ['refund', 'success']]);
      expect(record.failedCallData?.value).toBeGreaterThan(0n);
    });

    it('a swap fill is simulated first and refunded without sending (DESTINATION_TOKEN_TRANSFER_REJECTED)', async () => {
      const recipient = freshRecipient();
      const user = sim.accounts[4]!;
      const { status, requestId } = await quoteAndExecute(
        sim,
        user.privateKey,
        { ...swapQuote('EXACT_INPUT', '10000000000000000', recipient), user: user.address },
        () => blockOnStablecoin(sim, DESTINATION, recipient),
      );
      expect(status).toMatchObject({ status: 'refund', failReason: 'DESTINATION_TOKEN_TRANSFER_REJECTED', txHashes: [] });
      expect(sim.control.requests.eventsFor(requestId).map((e) => e.toStatus)).toEqual(['waiting', 'pending', 'refund']);
    });

    it('a same-chain swap whose fill would revert is refunded without sending (TRANSACTION_REVERTED, SPEC §7.2)', async () => {
      // the recipient can take native currency at quote time; before the deposit it becomes a
      // contract that reverts on every call, so paying it the swap's native output reverts
      const recipient = freshRecipient();
      const user = sim.accounts[6]!;
      const chain = evmChainOf(sim, DESTINATION);
      const stablecoin = addresses(DESTINATION).stablecoin;
      const usdcBefore = await balanceOn(sim, DESTINATION, stablecoin, user.address);
      const { status, requestId } = await quoteAndExecute(
        sim,
        user.privateKey,
        {
          user: user.address,
          recipient,
          originChainId: DESTINATION,
          destinationChainId: DESTINATION,
          originCurrency: stablecoin,
          destinationCurrency: zeroAddress,
          amount: '100000000',
          tradeType: 'EXACT_INPUT',
        },
        () => chain.testClient.setCode({ address: recipient, bytecode: '0x60006000fd' }),
      );
      expect(status).toMatchObject({ status: 'refund', failReason: 'TRANSACTION_REVERTED', txHashes: [] });
      expect(sim.control.requests.eventsFor(requestId).map((e) => e.toStatus)).toEqual(['waiting', 'pending', 'refund']);
      expect(sim.control.requests.get(requestId)!.quote.requestType).toBe('Same-chain Swap');
      // the refund really returned the deposit: the user's USDC is back where it was
      expect(await balanceOn(sim, DESTINATION, stablecoin, user.address)).toBe(usdcBefore);
      expect(await balanceOn(sim, DESTINATION, zeroAddress, recipient)).toBe(0n);
    });

    it('a pool moved after the solver checked it, ahead of the fill in the same block, reverts the fill (TOO_LITTLE_RECEIVED)', async () => {
      const recipient = freshRecipient();
      const user = sim.accounts[7]!;
      const trader = sim.accounts[8]!;
      const chain = evmChainOf(sim, DESTINATION);
      const { pool, wrappedNative } = addresses(DESTINATION);
      const moveAmount = 2_000n * 10n ** 18n; // ~2/3 of the pool's wrapped native: far beyond 0.5 % slippage
      // the trader holds wrapped native and has approved the pool before anything is quoted
      await sendFrom(sim, DESTINATION, trader.privateKey, { to: wrappedNative, data: encodeFunctionData({ abi: wrappedNativeArtifact.abi, functionName: 'deposit' }), value: moveAmount });
      await sendFrom(sim, DESTINATION, trader.privateKey, { to: wrappedNative, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [pool, maxUint256] }) });

      const quote = await postJson(`${sim.baseUrl}/quote/v2`, swapQuote('EXACT_INPUT', '10000000000000000', recipient));
      expect(quote.status).toBe(200);
      const requestId = quote.body.steps[0].requestId as Hex;
      await chain.testClient.setAutomine(false);
      try {
        const submitted = sim.control.events.waitFor(requestId, ['submitted']);
        await executeQuoteSteps(sim, sim.accounts[2]!.privateKey as Hex, quote.body);
        // the solver checked the pool, simulated and broadcast its fill: it waits in the mempool
        await submitted;
        const wallet = createWalletClient({ account: privateKeyToAccount(trader.privateKey as Hex), chain: chain.viemChain(), transport: http(chain.rpcUrl) });
        await wallet.sendTransaction({
          to: pool,
          data: encodeFunctionData({ abi: constantProductPoolArtifact.abi, functionName: 'swapExactInput', args: [wrappedNative, moveAmount, 0n, trader.address as Address] }),
          gas: 300_000n,
          maxPriorityFeePerGas: 500n * 10n ** 9n, // ordered ahead of the fill (Anvil orders by fee)
          maxFeePerGas: 1_000n * 10n ** 9n,
        });
        await chain.testClient.mine({ blocks: 1 });
      } finally {
        await chain.testClient.setAutomine(true);
      }
      await waitForSettledStatus(sim.baseUrl, requestId);
      await sim.control.solver.idle();
      expect((await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`)).body).toMatchObject({ status: 'refund', failReason: 'TOO_LITTLE_RECEIVED' });
      const record = sim.control.requests.get(requestId)!;
      expect(record.outTxs.map((tx) => [tx.type, tx.chainId, tx.status])).toEqual([
        ['fill', DESTINATION, 'failure'],
        ['refund', ORIGIN, 'success'],
      ]);
      expect(await balanceOn(sim, DESTINATION, addresses(DESTINATION).stablecoin, recipient)).toBe(0n);
    });
  });
});
