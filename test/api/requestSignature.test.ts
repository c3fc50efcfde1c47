// covers: endpoint:GET /requests/{requestId}/signature
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletClient, getAddress, http, pad, recoverMessageAddress, type Abi, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { compileContractsCached } from '../../scripts/compiledContractsCache';
import { requestSignatureDigest } from '../../src/domain/request/requestSignature';
import type { RunningSimulator } from '../../src/simulator';
import { getJson, publicClientFor } from '../support/bridgeClient';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { quoteWithApiKey } from '../support/webhookFlows';
import { evmChainOf } from '../support/evmChainOf';

/** SPEC §2.5 / §4.5: the solver-signed attestation of a request's order parameters. */
describe('GET /requests/{requestId}/signature', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  async function deployChecker(): Promise<{ address: Address; abi: Abi }> {
    const compiled = compileContractsCached(fileURLToPath(new URL('./fixtures/', import.meta.url)));
    const checker = compiled.contracts.find((c) => c.contractName === 'RequestSignatureChecker')!;
    const chain = evmChainOf(sim, sim.chains[0]!.id);
    const wallet = createWalletClient({ account: privateKeyToAccount(sim.accounts[9]!.privateKey as Hex), chain: chain.viemChain(), transport: http(chain.rpcUrl) });
    const abi = checker.abi as unknown as Abi;
    const hash = await wallet.deployContract({ abi, bytecode: checker.bytecode });
    const receipt = await publicClientFor(sim, chain.chainId).waitForTransactionReceipt({ hash, pollingInterval: 5 });
    return { address: receipt.contractAddress!, abi };
  }

  it('returns the order tuple signed by the solver wallet: viem and an onchain ecrecover both recover the solver address', async () => {
    const recipient = sim.accounts[4]!.address;
    const quote = await quoteWithApiKey(sim, undefined, { recipient, amount: '123456789000000000' });
    const requestId = quote.steps[0]!.requestId as Hex;

    const { status, body } = await getJson(`${sim.baseUrl}/requests/${requestId}/signature`);
    expect(status).toBe(200);
    expect(body.requestData).toEqual({
      originChainId: sim.chains[0]!.id,
      originUser: sim.accounts[0]!.address,
      originCurrency: '0x0000000000000000000000000000000000000000',
      originAmount: quote.details.currencyIn.amount,
      destinationChainId: sim.chains[1]!.id,
      destinationUser: recipient,
    });
    expect(body.signature).toMatch(/^0x[0-9a-f]{130}$/);

    const digest = requestSignatureDigest(requestId, body.requestData);
    expect(await recoverMessageAddress({ message: { raw: digest }, signature: body.signature })).toBe(getAddress(sim.control.solverAddress));

    const checker = await deployChecker();
    const client = publicClientFor(sim, sim.chains[0]!.id);
    const data = {
      originChainId: BigInt(body.requestData.originChainId),
      originUser: pad(body.requestData.originUser, { size: 32 }),
      originCurrency: pad(body.requestData.originCurrency, { size: 32 }),
      originAmount: BigInt(body.requestData.originAmount),
      destinationChainId: BigInt(body.requestData.destinationChainId),
      destinationUser: pad(body.requestData.destinationUser, { size: 32 }),
    };
    const read = (functionName: string, args: readonly unknown[]) => client.readContract({ address: checker.address, abi: checker.abi, functionName, args });
    expect(await read('digest', [requestId, data])).toBe(digest);
    expect(await read('recoverSigner', [requestId, data, body.signature])).toBe(getAddress(sim.control.solverAddress));

    // a tampered tuple (another amount) recovers someone else
    const tampered = await read('recoverSigner', [requestId, { ...data, originAmount: data.originAmount + 1n }, body.signature]);
    expect(tampered).not.toBe(getAddress(sim.control.solverAddress));
  });

  it('answers 404 REQUEST_NOT_FOUND for an unknown id and 400 for a malformed one', async () => {
    const unknown = `0x${'ab'.repeat(32)}`;
    expect(await getJson(`${sim.baseUrl}/requests/${unknown}/signature`)).toEqual({
      status: 404,
      body: { errorCode: 'REQUEST_NOT_FOUND', message: `No request with id ${unknown}`, statusCode: 404 },
    });
    const malformed = await getJson(`${sim.baseUrl}/requests/0x1234/signature`);
    expect(malformed.status).toBe(400);
    expect(malformed.body.errorCode).toBe('INVALID_INPUT_PARAMS');
  });
});
