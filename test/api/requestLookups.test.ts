// covers: operation:deposit-address reindex, operation:execution status (older), endpoint:GET /intents/status
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAbiParameters, encodeFunctionData, erc20Abi, keccak256, pad, recoverMessageAddress, zeroAddress, type Address, type Hex } from 'viem';
import type { RunningSimulator } from '../../src/simulator';
import { getJson, nativeBridgeBody, postJson, waitForSettledStatus } from '../support/bridgeClient';
import { evmChainOf } from '../support/evmChainOf';
import { ReindexSchema, SignatureV2Schema, StatusV1Schema, StatusV2Schema, expectPublishedShape } from '../support/publishedApiSchemas';
import { sendFrom } from '../support/swapClient';
import { sharedTestSimulator } from '../support/sharedTestSimulator';

const ORIGIN = 8453;
const DESTINATION = 42161;

/** Look-ups about one request or deposit address (issue 14 part 5), against the SDK's published types. */
describe('request look-ups', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  const usdc = () => evmChainOf(sim, ORIGIN).contractAddresses.stablecoin;
  const reindex = (body: unknown) => postJson(`${sim.baseUrl}/transactions/deposit-address/reindex`, body);
  const settle = async (chainId: number) => {
    await evmChainOf(sim, chainId).syncNow();
    await sim.control.solver.idle();
  };

  async function quoteDepositAddress(accountIndex: number) {
    const user = sim.accounts[accountIndex]!;
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridgeBody(user.address, { originChainId: ORIGIN, destinationChainId: DESTINATION, amount: '20000000000000000', useDepositAddress: true }));
    expect(quote.status).toBe(200);
    const step = quote.body.steps[0];
    return { user, requestId: step.requestId as Hex, depositAddress: step.depositAddress as Address, amountIn: BigInt(quote.body.details.currencyIn.amount) };
  }

  describe('POST /transactions/deposit-address/reindex', () => {
    it('reports the balances a deposit address holds on chain: none before a payment, a late payment the sweep missed after', async () => {
      const { user, requestId, depositAddress, amountIn } = await quoteDepositAddress(1);
      const before = await reindex({ chainId: ORIGIN, depositAddress });
      expect(before.status).toBe(200);
      expect(expectPublishedShape(ReindexSchema, before.body)).toMatchObject({ triggeredCurrencies: [], checkedCurrencies: 3, failedCurrencies: 0 });

      await sendFrom(sim, ORIGIN, user.privateKey, { to: depositAddress, data: '0x', value: amountIn });
      await settle(ORIGIN);
      expect(await waitForSettledStatus(sim.baseUrl, requestId)).toMatchObject({ status: 'success' });
      // a second payment after the sweep: the watcher no longer watches the address
      await sendFrom(sim, ORIGIN, user.privateKey, { to: usdc(), data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [depositAddress, 1_234_567n] }) });
      const after = await reindex({ chainId: ORIGIN, depositAddress: depositAddress.toLowerCase(), sweep: true });
      expect(after.status).toBe(200);
      expect(expectPublishedShape(ReindexSchema, after.body)).toMatchObject({
        triggeredCurrencies: [{ currency: usdc(), symbol: 'USDC', balance: '1234567' }],
        checkedCurrencies: 3,
        failedCurrencies: 0,
      });
      const one = expectPublishedShape(ReindexSchema, (await reindex({ chainId: ORIGIN, depositAddress, currency: zeroAddress })).body);
      expect(one).toMatchObject({ triggeredCurrencies: [], checkedCurrencies: 1 });
      const elsewhere = expectPublishedShape(ReindexSchema, (await reindex({ chainId: ORIGIN, depositAddress, targetChainId: DESTINATION })).body);
      expect(elsewhere).toMatchObject({ triggeredCurrencies: [], checkedCurrencies: 3 });
    });

    it('an address no quote registered is 404; bad bodies are 400', async () => {
      expect(await reindex({ chainId: ORIGIN, depositAddress: `0x${'ab'.repeat(20)}` })).toMatchObject({ status: 404, body: { errorCode: 'DEPOSIT_ADDRESS_NOT_FOUND' } });
      const { depositAddress } = await quoteDepositAddress(2);
      expect(await reindex({ chainId: DESTINATION, depositAddress })).toMatchObject({ status: 404, body: { errorCode: 'DEPOSIT_ADDRESS_NOT_FOUND' } });
      expect(await reindex({ chainId: ORIGIN, depositAddress, targetChainId: 77 })).toMatchObject({ status: 400, body: { errorCode: 'UNSUPPORTED_CHAIN' } });
      expect(await reindex({ chainId: ORIGIN, depositAddress, currency: `0x${'12'.repeat(20)}` })).toMatchObject({ status: 400, body: { errorCode: 'UNSUPPORTED_CURRENCY' } });
      for (const body of [{}, { chainId: '8453', depositAddress }, { chainId: ORIGIN }, { chainId: ORIGIN, depositAddress: 5 }]) {
        expect(await reindex(body), JSON.stringify(body)).toMatchObject({ status: 400, body: { errorCode: 'INVALID_INPUT_PARAMS' } });
      }
    });
  });

  describe('GET /requests/{requestId}/signature/v2 and the older status versions', () => {
    it('the solver signs the v2 order data; v1 and v2 status answer the published shapes', async () => {
      const user = sim.accounts[3]!;
      const quote = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridgeBody(user.address, { originChainId: ORIGIN, destinationChainId: DESTINATION }));
      const requestId = quote.body.steps[0].requestId as Hex;
      const answer = await getJson(`${sim.baseUrl}/requests/${requestId}/signature/v2`);
      expect(answer.status).toBe(200);
      const { requestData, signature } = expectPublishedShape(SignatureV2Schema, answer.body);
      expect(requestData).toEqual({
        originChainId: ORIGIN,
        originUser: user.address,
        originCurrency: zeroAddress,
        destinationChainId: DESTINATION,
        destinationUser: user.address,
        destinationCurrency: zeroAddress,
      });
      const word = (address: string) => pad(address.toLowerCase() as Hex, { size: 32 });
      const digest = keccak256(
        encodeAbiParameters(
          ['bytes32', 'uint256', 'bytes32', 'bytes32', 'uint256', 'bytes32', 'bytes32'].map((type) => ({ type })),
          [requestId, BigInt(ORIGIN), word(user.address), word(zeroAddress), BigInt(DESTINATION), word(user.address), word(zeroAddress)],
        ),
      );
      const signer = await recoverMessageAddress({ message: { raw: digest }, signature: signature as Hex });
      expect(signer).toBe(evmChainOf(sim, DESTINATION).describe().solverAddress);

      const v1 = expectPublishedShape(StatusV1Schema, (await getJson(`${sim.baseUrl}/intents/status?requestId=${requestId}`)).body);
      const v2 = expectPublishedShape(StatusV2Schema, (await getJson(`${sim.baseUrl}/intents/status/v2?requestId=${requestId}`)).body);
      expect([v1.status, v2.status]).toEqual(['pending', 'waiting']);
      expect(v1.details).toBeUndefined();

      expect(await getJson(`${sim.baseUrl}/requests/0x${'00'.repeat(32)}/signature/v2`)).toMatchObject({ status: 404, body: { errorCode: 'REQUEST_NOT_FOUND' } });
      expect(await getJson(`${sim.baseUrl}/requests/nope/signature/v2`)).toMatchObject({ status: 400, body: { errorCode: 'INVALID_INPUT_PARAMS' } });
    });
  });
});
