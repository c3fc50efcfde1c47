// covers: failReason:MINT_NOT_ACTIVE, failReason:INCORRECT_PAYMENT, failReason:ERC_1155_TOO_MANY_REQUESTED, failReason:MINT_QUANTITY_EXCEEDS_MAX_SUPPLY
// covers: failReason:MINT_QUANTITY_EXCEEDS_MAX_PER_WALLET, failReason:CONTRACT_PAUSED, failReason:TOKEN_NOT_TRANSFERABLE, failReason:MISSING_REVERT_DATA
// covers: errorCode:DESTINATION_TX_FAILED, status:refund, transition:submitted->failure, transition:failure->refund, transition:pending->refund
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFunctionData, type Address, type Hex } from 'viem';
import { callRecorderArtifact, editionMint1155Artifact, pausableBadgeArtifact } from '../../fixtures/contracts/artifacts.generated';
import type { RunningSimulator } from '../../src/simulator';
import { getJson, publicClientFor } from '../support/bridgeClient';
import {
  CALL_CHAINS,
  callQuoteBody,
  callRevertingAtFill,
  deployFixture,
  expectFillRevertedAndRefunded,
  quoteRejectedMessage,
  sendAheadOfFill,
  sendMined,
} from '../support/callReverts';
import { evmChainOf } from '../support/evmChainOf';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { quoteAndExecute } from '../support/swapClient';

/**
 * Call requests against an ERC-1155 drop and a pausable badge: the quote's simulation passes,
 * then the contract changes before the fill is mined (the owner switches the sale off, raises
 * the price, pauses, locks a badge; someone mints first), so the fill reverts on-chain. The
 * failReason is what the revert data decodes to (SPEC §7.3), and the deposit is refunded.
 */
describe('Call requests whose fill reverts: mints and badges', () => {
  let sim: RunningSimulator;
  const { DESTINATION } = CALL_CHAINS;
  const PRICE = 10n ** 15n;
  const owner = () => sim.accounts[1]!;
  const user = () => sim.accounts[2]!;
  const other = () => sim.accounts[3]!;

  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  /** A fresh drop: price 0.001 ETH, the given caps, sale on. */
  function deployDrop(caps: { maxSupply?: bigint; maxPerWallet?: bigint; maxPerTransaction?: bigint } = {}): Promise<Address> {
    return deployFixture(sim, DESTINATION, owner().privateKey, 'EditionMint1155', [
      owner().address as Address,
      PRICE,
      caps.maxSupply ?? 100n,
      caps.maxPerWallet ?? 5n,
      caps.maxPerTransaction ?? 3n,
    ]);
  }

  const mintCall = (drop: Address, to: string, quantity: bigint, value = PRICE * quantity) => ({
    to: drop,
    value,
    data: encodeFunctionData({ abi: editionMint1155Artifact.abi, functionName: 'mint', args: [to as Address, quantity] }),
  });
  const configureSale = (drop: Address, active: boolean, price: bigint, maxPerTransaction: bigint) => ({
    to: drop,
    data: encodeFunctionData({ abi: editionMint1155Artifact.abi, functionName: 'configureSale', args: [active, price, maxPerTransaction] }),
  });

  /** Runs a Call that mints, with `beforeFillMined` changing the drop, and checks the refund. */
  async function mintRevertsAtFill(drop: Address, quantity: bigint, beforeFillMined: () => Promise<unknown>, failReason: Parameters<typeof expectFillRevertedAndRefunded>[2]['failReason'], revertLabel: RegExp) {
    const body = callQuoteBody(user().address as Address, [mintCall(drop, user().address, quantity)]);
    const { requestId, quote } = await callRevertingAtFill(sim, { privateKey: user().privateKey, body, beforeFillMined });
    await expectFillRevertedAndRefunded(sim, requestId, { failReason, revertLabel, depositor: user().address as Address, deposited: BigInt(quote.details.currencyIn.amount) });
    return requestId;
  }

  describe('EditionMint1155', () => {
    it('the owner switches the sale off before the fill is mined: MINT_NOT_ACTIVE', async () => {
      const drop = await deployDrop();
      await mintRevertsAtFill(drop, 1n, () => sendAheadOfFill(sim, DESTINATION, owner().privateKey, configureSale(drop, false, PRICE, 3n)), 'MINT_NOT_ACTIVE', /^MintNotActive\(\)$/);
    });

    it('the owner raises the price: INCORRECT_PAYMENT', async () => {
      const drop = await deployDrop();
      await mintRevertsAtFill(drop, 1n, () => sendAheadOfFill(sim, DESTINATION, owner().privateKey, configureSale(drop, true, 2n * PRICE, 3n)), 'INCORRECT_PAYMENT', /^IncorrectPayment\(1000000000000000, 2000000000000000\)$/);
    });

    it('the owner lowers the per-transaction cap: ERC_1155_TOO_MANY_REQUESTED', async () => {
      const drop = await deployDrop();
      await mintRevertsAtFill(drop, 2n, () => sendAheadOfFill(sim, DESTINATION, owner().privateKey, configureSale(drop, true, PRICE, 1n)), 'ERC_1155_TOO_MANY_REQUESTED', /^TooManyRequested\(2, 1\)$/);
    });

    it('someone else mints the last tokens first: MINT_QUANTITY_EXCEEDS_MAX_SUPPLY', async () => {
      const drop = await deployDrop({ maxSupply: 3n });
      await mintRevertsAtFill(drop, 1n, () => sendAheadOfFill(sim, DESTINATION, other().privateKey, mintCall(drop, other().address, 3n)), 'MINT_QUANTITY_EXCEEDS_MAX_SUPPLY', /^MintQuantityExceedsMaxSupply\(4, 3\)$/);
    });

    it('the recipient’s wallet fills up first: MINT_QUANTITY_EXCEEDS_MAX_PER_WALLET', async () => {
      const drop = await deployDrop({ maxPerWallet: 2n });
      await mintRevertsAtFill(drop, 1n, () => sendAheadOfFill(sim, DESTINATION, other().privateKey, mintCall(drop, user().address, 2n)), 'MINT_QUANTITY_EXCEEDS_MAX_PER_WALLET', /^MintQuantityExceedsMaxPerWallet\(3, 2\)$/);
    });

    it('a sale switched off before the deposit is caught by the solver’s simulation: refunded without sending (MINT_NOT_ACTIVE)', async () => {
      const drop = await deployDrop();
      const { status, requestId } = await quoteAndExecute(sim, user().privateKey, callQuoteBody(user().address as Address, [mintCall(drop, user().address, 1n)]), async () => {
        await sendMined(sim, DESTINATION, owner().privateKey, configureSale(drop, false, PRICE, 3n));
      });
      await sim.control.solver.idle();
      expect(status).toMatchObject({ status: 'refund', failReason: 'MINT_NOT_ACTIVE', txHashes: [] });
      expect(status.details).toMatchObject({ decodedRevert: { kind: 'customError', errorName: 'MintNotActive', label: 'MintNotActive()' } });
      expect(sim.control.requests.eventsFor(requestId).map((e) => e.toStatus)).toEqual(['waiting', 'pending', 'refund']);
      expect(sim.control.requests.get(requestId)!.failedTxHash).toBeNull();
    });

    it('a sale already off at quote time: DESTINATION_TX_FAILED names the decoded error and its label', async () => {
      const drop = await deployDrop();
      await sendMined(sim, DESTINATION, owner().privateKey, configureSale(drop, false, PRICE, 3n));
      const message = await quoteRejectedMessage(sim, callQuoteBody(user().address as Address, [mintCall(drop, user().address, 1n)]));
      expect(message).toBe(`the destination transaction reverted in simulation on chain ${DESTINATION}: MintNotActive() (MINT_NOT_ACTIVE)`);
    });
  });

  describe('PausableBadge', () => {
    let badge: Address;
    beforeAll(async () => {
      badge = await deployFixture(sim, DESTINATION, owner().privateKey, 'PausableBadge', [owner().address as Address]);
    });
    const badgeCall = (functionName: 'pause' | 'unpause' | 'lock', args: readonly bigint[] = []) => ({
      to: badge,
      data: functionName === 'lock' ? encodeFunctionData({ abi: pausableBadgeArtifact.abi, functionName, args: [args[0]!] }) : encodeFunctionData({ abi: pausableBadgeArtifact.abi, functionName }),
    });

    it('the issuer pauses the contract before a claim is mined: CONTRACT_PAUSED', async () => {
      const claim = { to: badge, data: encodeFunctionData({ abi: pausableBadgeArtifact.abi, functionName: 'claim', args: [user().address as Address] }) };
      const { requestId, quote } = await callRevertingAtFill(sim, {
        privateKey: user().privateKey,
        body: callQuoteBody(user().address as Address, [claim]),
        beforeFillMined: () => sendAheadOfFill(sim, DESTINATION, owner().privateKey, badgeCall('pause')),
      });
      await expectFillRevertedAndRefunded(sim, requestId, { failReason: 'CONTRACT_PAUSED', revertLabel: /^EnforcedPause\(\)$/, depositor: user().address as Address, deposited: BigInt(quote.details.currencyIn.amount) });
      await sendMined(sim, DESTINATION, owner().privateKey, badgeCall('unpause'));
    });

    it('the issuer locks the badge a call was to hand on: TOKEN_NOT_TRANSFERABLE', async () => {
      // the holder claims a badge and lets the service's receiver move it (a gift made from another chain)
      const holder = other();
      const tokenId = await publicClientFor(sim, DESTINATION).readContract({ address: badge, abi: pausableBadgeArtifact.abi, functionName: 'nextTokenId' });
      await sendMined(sim, DESTINATION, holder.privateKey, { to: badge, data: encodeFunctionData({ abi: pausableBadgeArtifact.abi, functionName: 'claim', args: [holder.address as Address] }) });
      const receiver = evmChainOf(sim, DESTINATION).contractAddresses.serviceReceiver;
      await sendMined(sim, DESTINATION, holder.privateKey, { to: badge, data: encodeFunctionData({ abi: pausableBadgeArtifact.abi, functionName: 'setApprovalForAll', args: [receiver, true] }) });
      const gift = { to: badge, data: encodeFunctionData({ abi: pausableBadgeArtifact.abi, functionName: 'transferFrom', args: [holder.address as Address, user().address as Address, tokenId] }) };
      const { requestId, quote } = await callRevertingAtFill(sim, {
        privateKey: user().privateKey,
        body: callQuoteBody(user().address as Address, [gift]),
        beforeFillMined: () => sendAheadOfFill(sim, DESTINATION, owner().privateKey, badgeCall('lock', [tokenId])),
      });
      await expectFillRevertedAndRefunded(sim, requestId, { failReason: 'TOKEN_NOT_TRANSFERABLE', revertLabel: `TokenNotTransferable(${tokenId})`, depositor: user().address as Address, deposited: BigInt(quote.details.currencyIn.amount) });
    });
  });

  it('a call target that starts reverting without data: MISSING_REVERT_DATA', async () => {
    const recorder = await deployFixture(sim, DESTINATION, owner().privateKey, 'CallRecorder', []);
    const record = { to: recorder, value: PRICE, data: encodeFunctionData({ abi: callRecorderArtifact.abi, functionName: 'record', args: [1n] }) };
    const { requestId, quote } = await callRevertingAtFill(sim, {
      privateKey: user().privateKey,
      body: callQuoteBody(user().address as Address, [record]),
      // the target's code is replaced by one that reverts with no data (PUSH 0, PUSH 0, REVERT)
      beforeFillMined: () => evmChainOf(sim, DESTINATION).testClient.setCode({ address: recorder, bytecode: '0x60006000fd' as Hex }),
    });
    await expectFillRevertedAndRefunded(sim, requestId, { failReason: 'MISSING_REVERT_DATA', revertLabel: /^CallFailed\(0\)$/, depositor: user().address as Address, deposited: BigInt(quote.details.currencyIn.amount) });
    const status = (await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`)).body;
    expect(status.details.decodedRevert).toMatchObject({ kind: 'customError', errorName: 'CallFailed', args: ['0'] });
  });
});
