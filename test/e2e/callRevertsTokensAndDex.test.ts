// covers: failReason:TRANSFER_AMOUNT_EXCEEDS_ALLOWANCE, failReason:TRANSFER_AMOUNT_EXCEEDS_BALANCE, failReason:SIGNATURE_EXPIRED, failReason:INVALID_SIGNER
// covers: failReason:PROTOCOL_DEADLINE_EXPIRED, failReason:SWAP_IMPACT_TOO_HIGH, failReason:INSUFFICIENT_POOL_LIQUIDITY, failReason:TRANSFER_FROM_FAILED, failReason:TRANSFER_FAILED
// covers: errorCode:DESTINATION_TX_FAILED, status:refund, transition:submitted->failure, transition:failure->refund
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletClient, encodeFunctionData, erc20Abi, http, parseSignature, zeroAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { dexRouterArtifact, permitTokenArtifact, stablecoinArtifact } from '../../fixtures/contracts/artifacts.generated';
import type { RunningSimulator } from '../../src/simulator';
import { publicClientFor, type QuoteBody } from '../support/bridgeClient';
import {
  CALL_CHAINS,
  callQuoteBody,
  callRevertingAtFill,
  chainTime,
  deployFixture,
  expectFillRevertedAndRefunded,
  quoteRejectedMessage,
  sendAheadOfFill,
  sendMined,
  type CallTx,
} from '../support/callReverts';
import { evmChainOf } from '../support/evmChainOf';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { freshAddresses } from '../support/swapClient';

/**
 * Call requests that move ERC-20 tokens (OpenZeppelin v5 errors, ERC-2612 permits) and swap on a
 * V2-style router: the quote's simulation passes, then an allowance is revoked, a balance moves,
 * a permit expires or is used first, the pool moves or is drained, or the token blocks the
 * router or the recipient before the fill is mined, so the fill reverts on-chain with the
 * failReason its revert data decodes to (SPEC §7.3), and the deposit is refunded.
 */
describe('Call requests whose fill reverts: tokens and a DEX router', () => {
  let sim: RunningSimulator;
  const { ORIGIN, DESTINATION } = CALL_CHAINS;
  const owner = () => sim.accounts[1]!;
  const user = () => sim.accounts[2]!;
  const other = () => sim.accounts[3]!;
  const holder = () => sim.accounts[6]!;
  const freshRecipient = freshAddresses(0xca11_0000);
  const receiver = () => evmChainOf(sim, DESTINATION).contractAddresses.serviceReceiver;

  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  async function callRevertsAtFill(body: QuoteBody, beforeFillMined: () => Promise<unknown>, failReason: Parameters<typeof expectFillRevertedAndRefunded>[2]['failReason'], revertLabel: RegExp) {
    const { requestId, quote } = await callRevertingAtFill(sim, { privateKey: user().privateKey, body, beforeFillMined });
    await expectFillRevertedAndRefunded(sim, requestId, { failReason, revertLabel, depositor: user().address as Address, deposited: BigInt(quote.details.currencyIn.amount) });
  }

  describe('PermitToken (ERC-20, ERC-2612)', () => {
    const AMOUNT = 10n ** 19n;
    let token: Address;
    beforeAll(async () => {
      token = await deployFixture(sim, DESTINATION, owner().privateKey, 'PermitToken', [owner().address as Address]);
    });
    const tokenCall = (data: Hex): CallTx => ({ to: token, data });
    const mintTo = (to: string, amount: bigint) => sendMined(sim, DESTINATION, owner().privateKey, tokenCall(encodeFunctionData({ abi: permitTokenArtifact.abi, functionName: 'mint', args: [to as Address, amount] })));
    const approve = (spender: Address, amount: bigint) => tokenCall(encodeFunctionData({ abi: permitTokenArtifact.abi, functionName: 'approve', args: [spender, amount] }));
    const transferFrom = (from: string, to: string, amount: bigint) => tokenCall(encodeFunctionData({ abi: permitTokenArtifact.abi, functionName: 'transferFrom', args: [from as Address, to as Address, amount] }));

    /** The holder's ERC-2612 permit letting the service's receiver spend `value` until `deadline`. */
    async function permitFromHolder(value: bigint, deadline: bigint): Promise<CallTx> {
      const nonce = await publicClientFor(sim, DESTINATION).readContract({ address: token, abi: permitTokenArtifact.abi, functionName: 'nonces', args: [holder().address as Address] });
      const signature = await privateKeyToAccount(holder().privateKey as Hex).signTypedData({
        domain: { name: 'Permit Token', version: '1', chainId: DESTINATION, verifyingContract: token },
        types: { Permit: [{ name: 'owner', type: 'address' }, { name: 'spender', type: 'address' }, { name: 'value', type: 'uint256' }, { name: 'nonce', type: 'uint256' }, { name: 'deadline', type: 'uint256' }] },
        primaryType: 'Permit',
        message: { owner: holder().address as Address, spender: receiver(), value, nonce, deadline },
      });
      const { v, r, s } = parseSignature(signature);
      return tokenCall(encodeFunctionData({ abi: permitTokenArtifact.abi, functionName: 'permit', args: [holder().address as Address, receiver(), value, deadline, Number(v), r, s] }));
    }

    it('the holder revokes the allowance before the fill is mined: TRANSFER_AMOUNT_EXCEEDS_ALLOWANCE', async () => {
      await mintTo(holder().address, AMOUNT);
      await sendMined(sim, DESTINATION, holder().privateKey, approve(receiver(), AMOUNT));
      await callRevertsAtFill(
        callQuoteBody(user().address as Address, [transferFrom(holder().address, user().address, AMOUNT)]),
        () => sendAheadOfFill(sim, DESTINATION, holder().privateKey, approve(receiver(), 0n)),
        'TRANSFER_AMOUNT_EXCEEDS_ALLOWANCE',
        new RegExp(`^ERC20InsufficientAllowance\\(${receiver()}, 0, ${AMOUNT}\\)$`),
      );
    });

    it('the holder moves the tokens away first: TRANSFER_AMOUNT_EXCEEDS_BALANCE', async () => {
      await mintTo(holder().address, AMOUNT);
      await sendMined(sim, DESTINATION, holder().privateKey, approve(receiver(), AMOUNT));
      const balance = await publicClientFor(sim, DESTINATION).readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [holder().address as Address] });
      const moveAway = tokenCall(encodeFunctionData({ abi: permitTokenArtifact.abi, functionName: 'transfer', args: [other().address as Address, balance] }));
      await callRevertsAtFill(
        callQuoteBody(user().address as Address, [transferFrom(holder().address, user().address, AMOUNT)]),
        () => sendAheadOfFill(sim, DESTINATION, holder().privateKey, moveAway),
        'TRANSFER_AMOUNT_EXCEEDS_BALANCE',
        new RegExp(`^ERC20InsufficientBalance\\(${holder().address}, 0, ${AMOUNT}\\)$`, 'i'),
      );
    });

    it('the permit’s deadline passes before the fill is mined: SIGNATURE_EXPIRED', async () => {
      await mintTo(holder().address, AMOUNT);
      const deadline = (await chainTime(sim, DESTINATION)) + 600n;
      await callRevertsAtFill(
        callQuoteBody(user().address as Address, [await permitFromHolder(AMOUNT, deadline), transferFrom(holder().address, user().address, AMOUNT)]),
        () => evmChainOf(sim, DESTINATION).testClient.setNextBlockTimestamp({ timestamp: deadline + 1n }),
        'SIGNATURE_EXPIRED',
        new RegExp(`^ERC2612ExpiredSignature\\(${deadline}\\)$`),
      );
    });

    it('the holder submits the same permit first (its nonce is used): INVALID_SIGNER', async () => {
      await mintTo(holder().address, AMOUNT);
      const permit = await permitFromHolder(AMOUNT, (await chainTime(sim, DESTINATION)) + 3600n);
      await callRevertsAtFill(
        callQuoteBody(user().address as Address, [permit, transferFrom(holder().address, user().address, AMOUNT)]),
        () => sendAheadOfFill(sim, DESTINATION, holder().privateKey, permit),
        'INVALID_SIGNER',
        /^ERC2612InvalidSigner\(0x[0-9a-fA-F]{40}, 0x[0-9a-fA-F]{40}\)$/,
      );
    });

    it('a transfer from the zero address is refused at quote time: INVALID_SENDER', async () => {
      const message = await quoteRejectedMessage(sim, callQuoteBody(user().address as Address, [transferFrom(zeroAddress, user().address, 0n)]));
      expect(message).toMatch(/: ERC20InvalidSender\(0x0{40}\) \(INVALID_SENDER\)$/);
    });
  });

  describe('DexRouter (V2-style, over the stablecoin)', () => {
    const stablecoin = () => evmChainOf(sim, DESTINATION).contractAddresses.stablecoin;

    /** A router over native / stablecoin with 10 ETH and 30,000 USDC of liquidity from the owner. */
    async function routerWithLiquidity(): Promise<Address> {
      const router = await deployFixture(sim, DESTINATION, owner().privateKey, 'DexRouter', [stablecoin(), owner().address as Address]);
      const usdc = 30_000n * 10n ** 6n;
      await sendMined(sim, DESTINATION, owner().privateKey, { to: stablecoin(), data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, usdc] }) });
      await sendMined(sim, DESTINATION, owner().privateKey, { to: router, value: 10n * 10n ** 18n, data: encodeFunctionData({ abi: dexRouterArtifact.abi, functionName: 'addLiquidity', args: [usdc] }) });
      return router;
    }

    const buyStablecoin = (router: Address, value: bigint, minOut: bigint, to: Address, deadline: bigint): CallTx => ({
      to: router,
      value,
      data: encodeFunctionData({ abi: dexRouterArtifact.abi, functionName: 'swapExactNativeForTokens', args: [minOut, to, deadline] }),
    });

    /** The stablecoin's owner (the simulator's deployer, impersonated) blocks `account`, ahead of the fill. */
    async function blockAheadOfFill(account: Address): Promise<void> {
      const chain = evmChainOf(sim, DESTINATION);
      const stablecoinOwner = await publicClientFor(sim, DESTINATION).readContract({ address: stablecoin(), abi: stablecoinArtifact.abi, functionName: 'owner' });
      await chain.testClient.impersonateAccount({ address: stablecoinOwner });
      const wallet = createWalletClient({ chain: chain.viemChain(), transport: http(chain.rpcUrl) });
      await wallet.sendTransaction({
        account: stablecoinOwner,
        to: stablecoin(),
        data: encodeFunctionData({ abi: stablecoinArtifact.abi, functionName: 'setBlocked', args: [account, true] }),
        gas: 200_000n,
        maxPriorityFeePerGas: 500n * 10n ** 9n,
        maxFeePerGas: 1_000n * 10n ** 9n,
      });
      await chain.testClient.stopImpersonatingAccount({ address: stablecoinOwner });
    }

    it('the block that mines the fill is past the swap’s deadline: PROTOCOL_DEADLINE_EXPIRED', async () => {
      const router = await routerWithLiquidity();
      const deadline = (await chainTime(sim, DESTINATION)) + 600n;
      await callRevertsAtFill(
        callQuoteBody(user().address as Address, [buyStablecoin(router, 10n ** 16n, 0n, user().address as Address, deadline)]),
        () => evmChainOf(sim, DESTINATION).testClient.setNextBlockTimestamp({ timestamp: deadline + 1n }),
        'PROTOCOL_DEADLINE_EXPIRED',
        /^Error\("DexRouter: EXPIRED"\)$/,
      );
    });

    it('a trader moves the pool ahead of the fill, below the swap’s minimum: SWAP_IMPACT_TOO_HIGH', async () => {
      const router = await routerWithLiquidity();
      const value = 10n ** 16n;
      const client = publicClientFor(sim, DESTINATION);
      const [reserveNative, reserveToken] = await Promise.all([
        client.readContract({ address: router, abi: dexRouterArtifact.abi, functionName: 'reserveNative' }),
        client.readContract({ address: router, abi: dexRouterArtifact.abi, functionName: 'reserveToken' }),
      ]);
      const expected = await client.readContract({ address: router, abi: dexRouterArtifact.abi, functionName: 'getAmountOut', args: [value, reserveNative, reserveToken] });
      const far = (await chainTime(sim, DESTINATION)) + 86_400n;
      await callRevertsAtFill(
        callQuoteBody(user().address as Address, [buyStablecoin(router, value, (expected * 99n) / 100n, user().address as Address, far)]),
        () => sendAheadOfFill(sim, DESTINATION, other().privateKey, buyStablecoin(router, 5n * 10n ** 18n, 0n, other().address as Address, far)),
        'SWAP_IMPACT_TOO_HIGH',
        /^Error\("DexRouter: INSUFFICIENT_OUTPUT_AMOUNT"\)$/,
      );
    });

    it('the owner takes all the liquidity out first: INSUFFICIENT_POOL_LIQUIDITY', async () => {
      const router = await routerWithLiquidity();
      const client = publicClientFor(sim, DESTINATION);
      const [reserveNative, reserveToken] = await Promise.all([
        client.readContract({ address: router, abi: dexRouterArtifact.abi, functionName: 'reserveNative' }),
        client.readContract({ address: router, abi: dexRouterArtifact.abi, functionName: 'reserveToken' }),
      ]);
      const far = (await chainTime(sim, DESTINATION)) + 86_400n;
      const drain: CallTx = { to: router, data: encodeFunctionData({ abi: dexRouterArtifact.abi, functionName: 'removeLiquidity', args: [reserveNative, reserveToken, owner().address as Address] }) };
      await callRevertsAtFill(
        callQuoteBody(user().address as Address, [buyStablecoin(router, 10n ** 16n, 0n, user().address as Address, far)]),
        () => sendAheadOfFill(sim, DESTINATION, owner().privateKey, drain),
        'INSUFFICIENT_POOL_LIQUIDITY',
        /^Error\("DexRouter: INSUFFICIENT_LIQUIDITY"\)$/,
      );
    });

    it('the token blocks the swap’s recipient first, so the router cannot pay out: TRANSFER_FAILED', async () => {
      const router = await routerWithLiquidity();
      const recipient = freshRecipient();
      const far = (await chainTime(sim, DESTINATION)) + 86_400n;
      await callRevertsAtFill(
        callQuoteBody(user().address as Address, [buyStablecoin(router, 10n ** 16n, 0n, recipient, far)]),
        () => blockAheadOfFill(recipient),
        'TRANSFER_FAILED',
        /^Error\("TransferHelper: TRANSFER_FAILED"\)$/,
      );
    });

    it('a Call paid in the stablecoin sells it on the router; the token blocks the router first: TRANSFER_FROM_FAILED', async () => {
      const router = await routerWithLiquidity();
      const amount = 10_000_000n; // 10 USDC, delivered to the receiver by the fill, then sold by the calls
      const far = (await chainTime(sim, DESTINATION)) + 86_400n;
      const body: QuoteBody = {
        ...callQuoteBody(user().address as Address, [], amount),
        destinationCurrency: stablecoin(),
        txs: [
          { to: stablecoin(), value: '0', data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, amount] }) },
          { to: router, value: '0', data: encodeFunctionData({ abi: dexRouterArtifact.abi, functionName: 'swapExactTokensForNative', args: [amount, 0n, user().address as Address, far] }) },
        ],
      };
      expect(body.originChainId).toBe(ORIGIN);
      await callRevertsAtFill(body, () => blockAheadOfFill(router), 'TRANSFER_FROM_FAILED', /^Error\("TransferHelper: TRANSFER_FROM_FAILED"\)$/);
    });

    it('a swap that sells nothing is refused at quote time: ZERO_SELL_AMOUNT', async () => {
      const router = await routerWithLiquidity();
      const far = (await chainTime(sim, DESTINATION)) + 86_400n;
      const message = await quoteRejectedMessage(sim, callQuoteBody(user().address as Address, [buyStablecoin(router, 0n, 0n, user().address as Address, far)]));
      expect(message).toMatch(/: Error\("DexRouter: INSUFFICIENT_INPUT_AMOUNT"\) \(ZERO_SELL_AMOUNT\)$/);
    });
  });
});
