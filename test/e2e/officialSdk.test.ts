// covers: endpoint:GET /chains, endpoint:POST /quote/v2, endpoint:GET /intents/status/v3, endpoint:POST /transactions/index, operation:transactions index, status:waiting, status:pending, status:submitted, status:success
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { APIError, convertViemChainToRelayChain, createClient, getClient, type Execute, type ProgressData } from '@relayprotocol/relay-sdk';
import { configureDynamicChains } from '@relayprotocol/relay-sdk/chain-utils';
import { createWalletClient, erc20Abi, http, zeroAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { RunningSimulator } from '../../src/simulator';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { getJson, publicClientFor } from '../support/bridgeClient';
import { balanceOn } from '../support/swapClient';
import { evmChainOf } from '../support/evmChainOf';

/** The SDK polls a request's status every 10 ms (its default is 5 s), for up to 30 s (docs/testing.md). */
const SDK_POLLING = { pollingInterval: 10, maxPollingAttemptsBeforeTimeout: 3000 };

/**
 * The official SDK (`@relayprotocol/relay-sdk`), unmodified, against the simulator: quote,
 * execute (send, /transactions/index, status polling) and error surfacing. The SDK keeps one
 * global client; `createClient` on an existing client re-configures it, so each test passes
 * every option it relies on (including `chains`).
 */
describe('official relay SDK against the simulator', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  function originWallet(accountIndex: number, originChainId: number) {
    const chain = evmChainOf(sim, originChainId);
    return createWalletClient({
      account: privateKeyToAccount(sim.accounts[accountIndex]!.privateKey as Hex),
      chain: chain.viemChain(),
      transport: http(chain.rpcUrl),
    });
  }

  /** Runs getQuote + execute, collecting every onProgress callback; checks what all bridges share. */
  async function bridgeWithSdk(params: {
    accountIndex: number;
    recipient: Address;
    originChainId: number;
    destinationChainId: number;
    currency: string;
    toCurrency: string;
    amount: string;
    expectedStepIds: string[];
  }): Promise<{ quote: Execute; progress: ProgressData[]; requestId: string }> {
    const wallet = originWallet(params.accountIndex, params.originChainId);
    const started = performance.now();
    const quote = await getClient().actions.getQuote(
      {
        chainId: params.originChainId,
        toChainId: params.destinationChainId,
        currency: params.currency,
        toCurrency: params.toCurrency,
        amount: params.amount,
        tradeType: 'EXACT_INPUT',
        wallet,
        recipient: params.recipient,
      },
      true,
    );
    const quoted = performance.now();
    expect(quote.steps.map((step) => step.id)).toEqual(params.expectedStepIds);
    const requestId = quote.steps.at(-1)!.requestId!;
    expect(requestId).toMatch(/^0x[0-9a-f]{64}$/);

    // observe (without changing behaviour) what POST /transactions/index hands to the origin chain
    const indexed = vi.spyOn(evmChainOf(sim, params.originChainId), 'indexTransaction');
    onTestFinished(() => indexed.mockRestore()); // restoring also clears the recorded calls
    const progress: ProgressData[] = [];
    const result = await getClient().actions.execute({ quote, wallet, onProgress: (data) => progress.push(data) });
    const executed = performance.now();
    console.log(
      `SDK bridge ${params.originChainId} → ${params.destinationChainId} (${params.expectedStepIds.join('+')}): getQuote ${(quoted - started).toFixed(0)} ms, execute ${(executed - quoted).toFixed(0)} ms, total ${(executed - started).toFixed(0)} ms, ${progress.length} progress callbacks`,
    );

    // execute resolved with every step item complete
    expect(result.data.steps.flatMap((step) => step.items.map((item) => item.status))).toEqual(params.expectedStepIds.map(() => 'complete'));
    const deposit = result.data.steps.at(-1)!.items[0]!;
    expect(deposit.checkStatus).toBe('success');

    // onProgress reported the origin transactions the SDK sent and the destination fill
    const depositHash = deposit.internalTxHashes?.[0]?.txHash;
    expect(deposit.internalTxHashes).toEqual([{ txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), chainId: params.originChainId, isBatchTx: false }]);
    expect(deposit.txHashes).toEqual([{ txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), chainId: params.destinationChainId }]);
    const fillHash = deposit.txHashes![0]!.txHash;
    const reported = new Set(progress.flatMap((data) => (data.txHashes ?? []).map((hash) => `${hash.chainId}:${hash.txHash}`)));
    expect(reported).toContain(`${params.originChainId}:${depositHash}`);
    expect(reported).toContain(`${params.destinationChainId}:${fillHash}`);
    // the SDK posted the deposit (and only the deposit) to /transactions/index, fire-and-forget
    await vi.waitFor(() => expect(indexed.mock.calls).toEqual([[depositHash]]));
    const originClient = publicClientFor(sim, params.originChainId);
    expect((await originClient.getTransactionReceipt({ hash: depositHash as Hex })).status).toBe('success');
    if (params.expectedStepIds[0] === 'approve') {
      const approve = result.data.steps[0]!.items[0]!;
      expect(approve.txHashes).toEqual([{ txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), chainId: params.originChainId, isBatchTx: false }]);
      expect(reported).toContain(`${params.originChainId}:${approve.txHashes![0]!.txHash}`);
      expect((await originClient.getTransactionReceipt({ hash: approve.txHashes![0]!.txHash as Hex })).status).toBe('success');
    }
    expect((await publicClientFor(sim, params.destinationChainId).getTransactionReceipt({ hash: fillHash as Hex })).status).toBe('success');

    // the service agrees: success, with the deposit the SDK sent and the fill it reported
    const status = await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ status: 'success', originChainId: params.originChainId, destinationChainId: params.destinationChainId });
    expect(status.body.inTxHashes).toEqual([depositHash]);
    expect(status.body.txHashes).toEqual([fillHash]);
    expect(sim.control.requests.eventsFor(requestId).map((event) => event.toStatus)).toEqual(['waiting', 'pending', 'submitted', 'success']);
    return { quote, progress, requestId };
  }

  /** The SDK's client over our base URL, with our chains given explicitly (viem chains converted). */
  function createClientWithExplicitChains(): void {
    createClient({
      baseApiUrl: sim.baseUrl,
      source: 'intentsim-test',
      chains: sim.chains.map((chain) => convertViemChainToRelayChain(evmChainOf(sim, chain.id).viemChain())),
      ...SDK_POLLING,
    });
  }

  it('bridges native currency with chains from convertViemChainToRelayChain', async () => {
    const [origin, destination] = [sim.chains[0]!, sim.chains[1]!];
    createClientWithExplicitChains();
    const recipient = sim.accounts[7]!.address as Address;
    const destinationClient = publicClientFor(sim, destination.id);
    const before = await destinationClient.getBalance({ address: recipient });

    const { quote } = await bridgeWithSdk({
      accountIndex: 4,
      recipient,
      originChainId: origin.id,
      destinationChainId: destination.id,
      currency: zeroAddress,
      toCurrency: zeroAddress,
      amount: '50000000000000000',
      expectedStepIds: ['deposit'],
    });

    const after = await destinationClient.getBalance({ address: recipient });
    expect(after - before).toBe(BigInt(quote.details!.currencyOut!.amount!));
  });

  it('bridges the 6-decimal stablecoin (approve + deposit) with chains from configureDynamicChains() over GET /chains', async () => {
    const [origin, destination] = [sim.chains[2]!, sim.chains[0]!];
    createClient({ baseApiUrl: sim.baseUrl, source: 'intentsim-test', chains: [], ...SDK_POLLING });
    const chains = await configureDynamicChains();
    expect(chains.map((chain) => chain.id).sort((a, b) => a - b)).toEqual(sim.chains.map((chain) => chain.id).sort((a, b) => a - b));
    expect(getClient().chains).toBe(chains);
    for (const chain of chains) {
      // 1 / 8453 / 42161 are known to viem: the SDK takes viem's static chain but our RPC URL
      expect(chain.viemChain?.id).toBe(chain.id);
      expect(chain.viemChain?.rpcUrls.default.http[0]).not.toBe(evmChainOf(sim, chain.id).rpcUrl);
      expect(chain.httpRpcUrl).toBe(evmChainOf(sim, chain.id).rpcUrl);
      expect(chain.vmType).toBe('evm');
    }

    const recipient = sim.accounts[7]!.address as Address;
    const originUsdc = evmChainOf(sim, origin.id).contractAddresses.stablecoin;
    const destinationUsdc = evmChainOf(sim, destination.id).contractAddresses.stablecoin;
    const destinationClient = publicClientFor(sim, destination.id);
    const balance = () => destinationClient.readContract({ address: destinationUsdc, abi: erc20Abi, functionName: 'balanceOf', args: [recipient] });
    const before = await balance();

    const { quote } = await bridgeWithSdk({
      accountIndex: 5,
      recipient,
      originChainId: origin.id,
      destinationChainId: destination.id,
      currency: originUsdc,
      toCurrency: destinationUsdc,
      amount: '25000000',
      expectedStepIds: ['approve', 'deposit'],
    });

    expect(quote.details!.currencyOut!.currency!.decimals).toBe(6);
    expect((await balance()) - before).toBe(BigInt(quote.details!.currencyOut!.amount!));
  });

  it('swaps ETH on one chain into USDC on another (a Crosschain Swap through the destination pool)', async () => {
    const [origin, destination] = [sim.chains[1]!, sim.chains[2]!];
    createClientWithExplicitChains();
    const recipient = sim.accounts[8]!.address as Address;
    const destinationUsdc = evmChainOf(sim, destination.id).contractAddresses.stablecoin;
    const balance = () => balanceOn(sim, destination.id, destinationUsdc, recipient);
    const before = await balance();

    const { quote } = await bridgeWithSdk({
      accountIndex: 6,
      recipient,
      originChainId: origin.id,
      destinationChainId: destination.id,
      currency: zeroAddress,
      toCurrency: destinationUsdc,
      amount: '40000000000000000',
      expectedStepIds: ['deposit'],
    });

    expect(quote.details!.operation).toBe('swap');
    expect(quote.details!.route!.destination!.router).toBe(evmChainOf(sim, destination.id).contractAddresses.pool);
    expect((await balance()) - before).toBe(BigInt(quote.details!.currencyOut!.amount!));
  });

  it('surfaces a quote error as an APIError carrying our message and statusCode', async () => {
    const [origin, destination] = [sim.chains[1]!, sim.chains[2]!];
    createClientWithExplicitChains();
    const wallet = originWallet(6, origin.id);
    const error: unknown = await getClient()
      .actions.getQuote(
        {
          chainId: origin.id,
          toChainId: destination.id,
          currency: zeroAddress,
          toCurrency: zeroAddress,
          amount: '10000000000000000',
          tradeType: 'EXACT_INPUT',
          wallet,
          options: { slippageTolerance: '-1' },
        },
        true,
      )
      .then(
        () => undefined,
        (rejection: unknown) => rejection,
      );
    expect(error).toBeInstanceOf(APIError);
    const apiError = error as APIError;
    expect(apiError.statusCode).toBe(400);
    expect(apiError.message).toMatch(/slippage/i);
    expect(apiError.rawError).toMatchObject({ errorCode: 'INVALID_SLIPPAGE_TOLERANCE', statusCode: 400, endpoint: `${sim.baseUrl}/quote/v2` });
  });
});
