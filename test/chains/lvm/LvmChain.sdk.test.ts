import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, getClient } from '@relayprotocol/relay-sdk';
import { configureDynamicChains } from '@relayprotocol/relay-sdk/chain-utils';
import { createWalletClient, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { RunningSimulator } from '../../../src/simulator';
import { startSimulator } from '../../../src/simulator';
import { getJson, requestJson, waitForSettledStatus } from '../../support/bridgeClient';
import { evmChainOf } from '../../support/evmChainOf';
import { pooledChains } from '../../support/pooledNodes';

// covers: endpoint:GET /chains, endpoint:POST /quote/v2, endpoint:GET /intents/status/v3, status:success

const LVM = 3586256;
const EVM = 8453;
/** The SDK polls a request's status every 10 ms (its default is 5 s), for up to 30 s. */
const SDK_POLLING = { pollingInterval: 10, maxPollingAttemptsBeforeTimeout: 3000 };

let sim: RunningSimulator;
let exchange: string;

beforeAll(async () => {
  sim = await startSimulator({
    port: 0,
    env: {},
    log: () => undefined,
    chains: [...pooledChains([EVM]), { id: LVM }],
  });
  exchange = sim.chains.find((chain) => chain.id === LVM)!.rpcUrl;
});

afterAll(async () => {
  await sim?.stop();
});

/** SDK-FACTS §5: the core SDK has no code for the exchange; it is a chain of /chains and a `data.action` step. */
describe('the official SDK with the perpetuals-exchange chain', () => {
  it('configureDynamicChains takes the lvm chain; getQuote + execute bridge Base USDC to an exchange account index', async () => {
    createClient({ baseApiUrl: sim.baseUrl, source: 'intentsim-test', chains: [], ...SDK_POLLING });
    const chains = await configureDynamicChains();
    expect(chains.find((chain) => chain.id === LVM)).toMatchObject({ vmType: 'lvm', currency: { address: '0', decimals: 6 } });
    const base = chains.find((chain) => chain.id === EVM)!;
    const usdc = base.erc20Currencies!.find((currency) => currency.symbol === 'USDC')!.address!;
    const account = privateKeyToAccount(sim.accounts[3]!.privateKey as Hex);
    const wallet = createWalletClient({ account, chain: evmChainOf(sim, EVM).viemChain(), transport: http(base.httpRpcUrl) });
    const recipient = sim.chains.find((chain) => chain.id === LVM)!.accounts![0]!.address;
    const before = BigInt((await getJson(`${exchange}/api/v1/account?by=index&value=${recipient}`)).body.accounts[0].collateral);

    const quote = await getClient().actions.getQuote({ chainId: EVM, toChainId: LVM, currency: usdc, toCurrency: '0', amount: '12000000', tradeType: 'EXACT_INPUT', wallet, recipient }, true);
    const result = await getClient().actions.execute({ quote, wallet, onProgress: () => undefined });
    expect(result.data.steps.flatMap((step) => step.items.map((item) => item.status)).every((status) => status === 'complete')).toBe(true);

    const after = BigInt((await getJson(`${exchange}/api/v1/account?by=index&value=${recipient}`)).body.accounts[0].collateral);
    expect(after - before).toBe(BigInt(quote.details!.currencyOut!.amount!));
  });

  it('getQuote from the exchange answers the transfer action the exchange wallet adapter consumes; submitted to the exchange it settles', async () => {
    createClient({ baseApiUrl: sim.baseUrl, source: 'intentsim-test', chains: [], ...SDK_POLLING });
    const chains = await configureDynamicChains();
    const usdc = chains.find((chain) => chain.id === EVM)!.erc20Currencies!.find((currency) => currency.symbol === 'USDC')!.address!;
    const holder = sim.chains.find((chain) => chain.id === LVM)!.accounts![1]!;
    const quote = await getClient().actions.getQuote(
      { chainId: LVM, toChainId: EVM, currency: '0', toCurrency: usdc, amount: '9000000', tradeType: 'EXACT_INPUT', user: holder.address, recipient: sim.accounts[4]!.address },
      false, // without a wallet, the SDK's default parameters would make the user a dead EVM address
    );
    const item = quote.steps[0]!.items![0]!;
    const action = (item.data as { action: { type: string; parameters: Record<string, unknown> } }).action;
    expect(action).toMatchObject({ type: 'transfer', parameters: { amount: 9_000_000, assetIndex: 3, memo: quote.steps[0]!.requestId } });
    // what the exchange wallet adapter does: the transfer, sent to the exchange with the account's key
    const sent = await requestJson(`${exchange}/api/v1/transfer`, { method: 'POST', headers: { 'x-api-key': holder.privateKey }, body: { accountIndex: Number(holder.address), action } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect((await waitForSettledStatus(sim.baseUrl, quote.steps[0]!.requestId!)).status).toBe('success');
  });
});
