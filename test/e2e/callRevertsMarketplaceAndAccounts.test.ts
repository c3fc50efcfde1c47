// covers: failReason:ORDER_IS_CANCELLED, failReason:ORDER_EXPIRED, failReason:ORDER_ALREADY_FILLED
// covers: failReason:ACCOUNT_ABSTRACTION_INVALID_NONCE, failReason:ACCOUNT_ABSTRACTION_SIGNATURE_ERROR
// covers: errorCode:DESTINATION_TX_FAILED, status:refund, transition:submitted->failure, transition:failure->refund
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFunctionData, zeroAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  callRecorderArtifact,
  editionMint1155Artifact,
  marketplaceOrderBookArtifact,
  minimalAccountArtifact,
  minimalEntryPointArtifact,
} from '../../fixtures/contracts/artifacts.generated';
import type { RunningSimulator } from '../../src/simulator';
import { publicClientFor } from '../support/bridgeClient';
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
import { quoteAndExecute } from '../support/swapClient';

/**
 * Call requests against a marketplace of signed orders and an ERC-4337 entry point: the quote's
 * simulation passes, then the order or the account changes before the fill is mined (cancelled,
 * expired, bought by someone else; the nonce used, the key rotated), so the fill reverts
 * on-chain with the failReason its revert data decodes to (SPEC §7.3), and the deposit is
 * refunded. What cannot change between quote and fill (a bad signature or fraction) is refused
 * at quote time, its label in the DESTINATION_TX_FAILED message.
 */
describe('Call requests whose fill reverts: marketplace orders and smart accounts', () => {
  let sim: RunningSimulator;
  const { DESTINATION } = CALL_CHAINS;
  const UNIT_PRICE = 10n ** 15n;
  const owner = () => sim.accounts[1]!;
  const user = () => sim.accounts[2]!;
  const other = () => sim.accounts[3]!;
  const offerer = () => sim.accounts[4]!;
  const accountOwner = () => sim.accounts[5]!;

  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  /** Runs a Call whose fill reverts after `beforeFillMined`, and checks the failure and the refund. */
  async function callRevertsAtFill(txs: CallTx[], beforeFillMined: () => Promise<unknown>, failReason: Parameters<typeof expectFillRevertedAndRefunded>[2]['failReason'], revertLabel: RegExp) {
    const { requestId, quote } = await callRevertingAtFill(sim, { privateKey: user().privateKey, body: callQuoteBody(user().address as Address, txs), beforeFillMined });
    await expectFillRevertedAndRefunded(sim, requestId, { failReason, revertLabel, depositor: user().address as Address, deposited: BigInt(quote.details.currencyIn.amount) });
  }

  describe('MarketplaceOrderBook', () => {
    type Order = {
      offerer: Address;
      token: Address;
      tokenId: bigint;
      amount: bigint;
      price: bigint;
      startTime: bigint;
      endTime: bigint;
      fulfiller: Address;
      salt: bigint;
    };
    let market: Address;
    let drop: Address;
    let salt = 0n;

    beforeAll(async () => {
      // the offerer holds 40 editions of a drop and lets the marketplace move them
      drop = await deployFixture(sim, DESTINATION, owner().privateKey, 'EditionMint1155', [owner().address as Address, UNIT_PRICE, 1000n, 100n, 50n]);
      market = await deployFixture(sim, DESTINATION, owner().privateKey, 'MarketplaceOrderBook', []);
      await sendMined(sim, DESTINATION, offerer().privateKey, {
        to: drop,
        value: 40n * UNIT_PRICE,
        data: encodeFunctionData({ abi: editionMint1155Artifact.abi, functionName: 'mint', args: [offerer().address as Address, 40n] }),
      });
      await sendMined(sim, DESTINATION, offerer().privateKey, { to: drop, data: encodeFunctionData({ abi: editionMint1155Artifact.abi, functionName: 'setApprovalForAll', args: [market, true] }) });
    });

    /** A new listing of 4 editions for 4 × the unit price, valid for an hour. */
    async function listing(overrides: Partial<Order> = {}): Promise<Order> {
      return {
        offerer: offerer().address as Address,
        token: drop,
        tokenId: 1n,
        amount: 4n,
        price: 4n * UNIT_PRICE,
        startTime: 0n,
        endTime: (await chainTime(sim, DESTINATION)) + 3600n,
        fulfiller: zeroAddress,
        salt: ++salt,
        ...overrides,
      };
    }

    /** The offerer's EIP-712 signature of `order` (or another key's). */
    function sign(order: Order, privateKey: string = offerer().privateKey): Promise<Hex> {
      return privateKeyToAccount(privateKey as Hex).signTypedData({
        domain: { name: 'MarketplaceOrderBook', version: '1', chainId: DESTINATION, verifyingContract: market },
        types: {
          Order: [
            { name: 'offerer', type: 'address' },
            { name: 'token', type: 'address' },
            { name: 'tokenId', type: 'uint256' },
            { name: 'amount', type: 'uint256' },
            { name: 'price', type: 'uint256' },
            { name: 'startTime', type: 'uint256' },
            { name: 'endTime', type: 'uint256' },
            { name: 'fulfiller', type: 'address' },
            { name: 'salt', type: 'uint256' },
          ],
        },
        primaryType: 'Order',
        message: order,
      });
    }

    /** Buying `numerator / denominator` of `order` for the user, paying `value`. */
    function fulfill(order: Order, signature: Hex, numerator: bigint, denominator: bigint, value = (order.price * numerator) / denominator): CallTx {
      return {
        to: market,
        value,
        data: encodeFunctionData({ abi: marketplaceOrderBookArtifact.abi, functionName: 'fulfillOrder', args: [order, signature, numerator, denominator, user().address as Address] }),
      };
    }

    const cancel = (order: Order): CallTx => ({ to: market, data: encodeFunctionData({ abi: marketplaceOrderBookArtifact.abi, functionName: 'cancel', args: [order] }) });

    it('the offerer cancels the order before the fill is mined: ORDER_IS_CANCELLED', async () => {
      const order = await listing();
      await callRevertsAtFill([fulfill(order, await sign(order), 1n, 2n)], () => sendAheadOfFill(sim, DESTINATION, offerer().privateKey, cancel(order)), 'ORDER_IS_CANCELLED', /^OrderIsCancelled\(0x[0-9a-f]{64}\)$/);
    });

    it('the block that mines the fill is past the order’s end time: ORDER_EXPIRED', async () => {
      const order = await listing();
      await callRevertsAtFill(
        [fulfill(order, await sign(order), 1n, 2n)],
        () => evmChainOf(sim, DESTINATION).testClient.setNextBlockTimestamp({ timestamp: order.endTime }),
        'ORDER_EXPIRED',
        new RegExp(`^InvalidTime\\(0, ${order.endTime}\\)$`),
      );
    });

    it('another buyer takes the whole order first: ORDER_ALREADY_FILLED', async () => {
      const order = await listing();
      const signature = await sign(order);
      const takeAll: CallTx = {
        to: market,
        value: order.price,
        data: encodeFunctionData({ abi: marketplaceOrderBookArtifact.abi, functionName: 'fulfillOrder', args: [order, signature, 1n, 1n, other().address as Address] }),
      };
      await callRevertsAtFill([fulfill(order, signature, 1n, 2n)], () => sendAheadOfFill(sim, DESTINATION, other().privateKey, takeAll), 'ORDER_ALREADY_FILLED', /^OrderAlreadyFilled\(0x[0-9a-f]{64}\)$/);
    });

    it('a half of the order fills: the user gets 2 editions and the offerer 2 × the unit price', async () => {
      const order = await listing();
      const client = publicClientFor(sim, DESTINATION);
      const editionsOf = (account: string) => client.readContract({ address: drop, abi: editionMint1155Artifact.abi, functionName: 'balanceOf', args: [account as Address, 1n] });
      const [userBefore, offererBalanceBefore] = await Promise.all([editionsOf(user().address), client.getBalance({ address: offerer().address as Address })]);
      const { status } = await quoteAndExecute(sim, user().privateKey, callQuoteBody(user().address as Address, [fulfill(order, await sign(order), 1n, 2n)]));
      expect(status.status).toBe('success');
      expect(await editionsOf(user().address)).toBe(userBefore + 2n);
      expect(await client.getBalance({ address: offerer().address as Address })).toBe(offererBalanceBefore + 2n * UNIT_PRICE);
    });

    describe('refused at quote time, with the label the fill would get', () => {
      it('a fraction that does not divide the order: MARKETPLACE_INEXACT_FRACTION', async () => {
        const order = await listing();
        const message = await quoteRejectedMessage(sim, callQuoteBody(user().address as Address, [fulfill(order, await sign(order), 1n, 3n, UNIT_PRICE)]));
        expect(message).toMatch(/: InexactFraction\(\) \(MARKETPLACE_INEXACT_FRACTION\)$/);
      });
      it('an order signed by someone other than the offerer: INVALID_SIGNER', async () => {
        const order = await listing();
        const message = await quoteRejectedMessage(sim, callQuoteBody(user().address as Address, [fulfill(order, await sign(order, other().privateKey), 1n, 2n)]));
        expect(message).toMatch(/: InvalidSigner\(\) \(INVALID_SIGNER\)$/);
      });
      it('a malformed signature (v is neither 27 nor 28): INVALID_SIGNATURE', async () => {
        const order = await listing();
        const signature = `${(await sign(order)).slice(0, -2)}00` as Hex;
        const message = await quoteRejectedMessage(sim, callQuoteBody(user().address as Address, [fulfill(order, signature, 1n, 2n)]));
        expect(message).toMatch(/: InvalidSignature\(\) \(INVALID_SIGNATURE\)$/);
      });
      it('an order reserved for another fulfiller: MARKETPLACE_INVALID_FULFILLER', async () => {
        const order = await listing({ fulfiller: other().address as Address });
        const message = await quoteRejectedMessage(sim, callQuoteBody(user().address as Address, [fulfill(order, await sign(order), 1n, 2n)]));
        expect(message).toMatch(/: InvalidFulfiller\(0x[0-9a-fA-F]{40}, 0x[0-9a-fA-F]{40}, 0x[0-9a-f]{64}\) \(MARKETPLACE_INVALID_FULFILLER\)$/);
      });
      it('less native than the fraction costs: INSUFFICIENT_NATIVE_TOKENS_SUPPLIED', async () => {
        const order = await listing();
        const message = await quoteRejectedMessage(sim, callQuoteBody(user().address as Address, [fulfill(order, await sign(order), 1n, 2n, UNIT_PRICE)]));
        expect(message).toMatch(/: InsufficientNativeTokensSupplied\(\) \(INSUFFICIENT_NATIVE_TOKENS_SUPPLIED\)$/);
      });
    });
  });

  describe('MinimalEntryPoint (ERC-4337)', () => {
    type UserOperation = { sender: Address; nonce: bigint; callData: Hex; callGasLimit: bigint; verificationGasLimit: bigint; signature: Hex };
    let entryPoint: Address;
    let account: Address;
    let recorder: Address;

    beforeAll(async () => {
      entryPoint = await deployFixture(sim, DESTINATION, owner().privateKey, 'MinimalEntryPoint', []);
      account = await deployFixture(sim, DESTINATION, owner().privateKey, 'MinimalAccount', [entryPoint, accountOwner().address as Address]);
      recorder = await deployFixture(sim, DESTINATION, owner().privateKey, 'CallRecorder', []);
    });

    /** An operation of the account recording `note`, at the account's next nonce, signed by its owner. */
    async function userOperation(note: bigint, overrides: Partial<UserOperation> = {}): Promise<UserOperation> {
      const client = publicClientFor(sim, DESTINATION);
      const nonce = await client.readContract({ address: entryPoint, abi: minimalEntryPointArtifact.abi, functionName: 'getNonce', args: [account, 0n] });
      const record = encodeFunctionData({ abi: callRecorderArtifact.abi, functionName: 'record', args: [note] });
      const unsigned: UserOperation = {
        sender: account,
        nonce,
        callData: encodeFunctionData({ abi: minimalAccountArtifact.abi, functionName: 'execute', args: [recorder, 0n, record] }),
        callGasLimit: 200_000n,
        verificationGasLimit: 100_000n,
        signature: '0x',
        ...overrides,
      };
      const userOpHash = await client.readContract({ address: entryPoint, abi: minimalEntryPointArtifact.abi, functionName: 'getUserOpHash', args: [unsigned] });
      const signature = await privateKeyToAccount(accountOwner().privateKey as Hex).signMessage({ message: { raw: userOpHash } });
      return { ...unsigned, signature };
    }

    const handleOps = (op: UserOperation): CallTx => ({ to: entryPoint, data: encodeFunctionData({ abi: minimalEntryPointArtifact.abi, functionName: 'handleOps', args: [[op]] }) });

    it('the account’s owner uses the same nonce first, as its own bundler: ACCOUNT_ABSTRACTION_INVALID_NONCE', async () => {
      const op = await userOperation(1n);
      const competing = await userOperation(2n);
      await callRevertsAtFill([handleOps(op)], () => sendAheadOfFill(sim, DESTINATION, accountOwner().privateKey, handleOps(competing)), 'ACCOUNT_ABSTRACTION_INVALID_NONCE', /^FailedOp\(0, AA25 invalid account nonce\)$/);
    });

    it('the account’s owner rotates its key before the fill is mined: ACCOUNT_ABSTRACTION_SIGNATURE_ERROR', async () => {
      const op = await userOperation(3n);
      const rotate: CallTx = { to: account, data: encodeFunctionData({ abi: minimalAccountArtifact.abi, functionName: 'transferOwnership', args: [other().address as Address] }) };
      await callRevertsAtFill([handleOps(op)], () => sendAheadOfFill(sim, DESTINATION, accountOwner().privateKey, rotate), 'ACCOUNT_ABSTRACTION_SIGNATURE_ERROR', /^FailedOp\(0, AA24 signature error\)$/);
    });

    it('an operation asking for more call gas than a block holds is refused at quote time: ACCOUNT_ABSTRACTION_GAS_LIMIT', async () => {
      const fresh = await deployFixture(sim, DESTINATION, owner().privateKey, 'MinimalAccount', [entryPoint, accountOwner().address as Address]);
      const previous = account;
      account = fresh;
      try {
        const op = await userOperation(4n, { callGasLimit: 1_000_000_000n });
        const message = await quoteRejectedMessage(sim, callQuoteBody(user().address as Address, [handleOps(op)]));
        expect(message).toMatch(/: FailedOp\(0, AA95 out of gas\) \(ACCOUNT_ABSTRACTION_GAS_LIMIT\)$/);
      } finally {
        account = previous;
      }
    });
  });
});
