import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/simulator';
import { startSimulator } from '../../src/simulator';
import { getJson, postJson } from '../support/bridgeClient';
import { formatStartSummary, startSummaryJson } from '../../src/formatStartSummary';
import { pooledChains } from '../support/pooledNodes';
import { createSolanaRpcSubscriptions } from '@solana/kit';
import { ApiClient, TransactionApi } from 'lighter-ts-sdk';

// covers: endpoint:POST /quote/v2, endpoint:GET /chains/liquidity

const SVM = 792703809;
const BVM = 8253038;
const LVM = 3586256;

/** About $100–$150 of each currency, in its smallest unit: enough to clear every route's fees. */
const AMOUNT_OF: Readonly<Record<string, string>> = { ETH: '50000000000000000', USDC: '100000000', SOL: '1000000000', BTC: '200000' };

interface ListedCurrency {
  chainId: number;
  symbol: string;
  address: string;
}

let sim: RunningSimulator;
let currencies: ListedCurrency[];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, env: {}, log: () => undefined, chains: [...pooledChains(), { id: SVM }, { id: BVM }, { id: LVM }] });
  const { body } = await getJson(`${sim.baseUrl}/chains`);
  currencies = body.chains.flatMap((chain: { id: number; currency: ListedCurrency; erc20Currencies: ListedCurrency[] }) => {
    const usdc = chain.erc20Currencies.find((currency) => currency.symbol === 'USDC');
    return [chain.currency, ...(usdc ? [usdc] : [])].map((currency) => ({ chainId: chain.id, symbol: currency.symbol, address: currency.address }));
  });
});

afterAll(async () => {
  await sim?.stop();
});

/** A user or recipient on a chain, in the chain's own address form: the first funded account. */
function accountOn(chainId: number): string {
  const chain = sim.chains.find((entry) => entry.id === chainId)!;
  return chain.accounts ? chain.accounts[0]!.address : sim.accounts[0]!.address;
}

function orderedPairs(): Array<[ListedCurrency, ListedCurrency]> {
  return currencies.flatMap((from) => currencies.filter((to) => to.chainId !== from.chainId).map((to): [ListedCurrency, ListedCurrency] => [from, to]));
}

describe('every pair of native or USDC on one chain → native or USDC on another routes (default start: three EVM chains, Solana, Bitcoin, Lighter)', () => {
  it('lists the ten currencies of the matrix: 82 ordered pairs', () => {
    expect(currencies.map((currency) => `${currency.symbol}@${currency.chainId}`).sort()).toEqual(
      ['ETH@1', 'USDC@1', 'ETH@8453', 'USDC@8453', 'ETH@42161', 'USDC@42161', `SOL@${SVM}`, `USDC@${SVM}`, `BTC@${BVM}`, `USDC@${LVM}`].sort(),
    );
    expect(orderedPairs()).toHaveLength(82);
  });

  for (const tradeType of ['EXACT_INPUT', 'EXACT_OUTPUT'] as const) {
    it(`every ordered pair quotes ${tradeType} (200 with steps)`, async () => {
      const failures: string[] = [];
      for (const [from, to] of orderedPairs()) {
        const named = tradeType === 'EXACT_INPUT' ? from : to;
        const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
          user: accountOn(from.chainId),
          recipient: accountOn(to.chainId),
          originChainId: from.chainId,
          destinationChainId: to.chainId,
          originCurrency: from.address,
          destinationCurrency: to.address,
          amount: AMOUNT_OF[named.symbol],
          tradeType,
        });
        const pair = `${from.symbol}@${from.chainId} → ${to.symbol}@${to.chainId}`;
        if (quote.status !== 200) failures.push(`${pair}: ${quote.status} ${JSON.stringify(quote.body)}`);
        else if (quote.body.steps.length === 0 || BigInt(quote.body.details.currencyOut.amount) <= 0n) failures.push(`${pair}: no steps or nothing out`);
        else if (tradeType === 'EXACT_OUTPUT' && quote.body.details.currencyOut.amount !== AMOUNT_OF[to.symbol]) failures.push(`${pair}: delivers ${quote.body.details.currencyOut.amount}`);
      }
      expect(failures).toEqual([]);
    }, 180_000);
  }

  it('GET /chains/liquidity shows the solver inventory of native and USDC on every non-EVM chain', async () => {
    for (const [chainId, symbols] of [[SVM, ['SOL', 'USDC']], [BVM, ['BTC']], [LVM, ['USDC']]] as const) {
      const { status, body } = await getJson(`${sim.baseUrl}/chains/liquidity?chainId=${chainId}`);
      expect(status, JSON.stringify(body)).toBe(200);
      for (const symbol of symbols) {
        const held = body.liquidity.find((entry: { symbol: string }) => entry.symbol === symbol);
        expect(held, `${symbol} on ${chainId}: ${JSON.stringify(body)}`).toBeDefined();
        expect(BigInt(held.balance), `${symbol} on ${chainId}`).toBeGreaterThan(0n);
      }
    }
  });

  it('the start summary and --json show the solver inventory of native and USDC on each of the six chains, and the Esplora URL', async () => {
    const summary = formatStartSummary(sim);
    expect(summary).toContain('Solver inventory (pays any route whose destination has no pool for the currency; GET /chains/liquidity)');
    expect(summary).toMatch(new RegExp(`\\n  ${SVM} +Solana +100000 SOL · 100000000 USDC\\n`));
    expect(summary).toMatch(new RegExp(`\\n  ${BVM} +Bitcoin +100 BTC\\n`));
    expect(summary).toMatch(new RegExp(`\\n  ${LVM} +Lighter +100000000 USDC\\n`));
    expect(summary).toMatch(/\n  8453 +Base +[\d.]+ ETH · [\d.]+ USDC\n/);
    const json = JSON.parse(JSON.stringify(startSummaryJson(sim)));
    for (const chain of json.chains) {
      const symbols = chain.solverInventory.map((entry: { symbol: string }) => entry.symbol);
      expect(symbols.length, `${chain.id}`).toBeGreaterThan(0);
      expect(chain.solverInventory.every((entry: { balance: string }) => BigInt(entry.balance) > 0n), `${chain.id}`).toBe(true);
    }
    expect(json.chains.find((chain: { id: number }) => chain.id === SVM).solverInventory.map((entry: { symbol: string }) => entry.symbol)).toEqual(['SOL', 'USDC']);
    // what a program needs is in --json, not only in the human summary: the Bitcoin chain's Esplora REST API, and it answers
    const { esploraUrl } = json.chains.find((chain: { id: number }) => chain.id === BVM);
    expect(esploraUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Number(await (await fetch(`${esploraUrl}/blocks/tip/height`)).text())).toBeGreaterThan(0);
    expect(json.chains.filter((chain: { esploraUrl?: string }) => chain.esploraUrl !== undefined).map((chain: { id: number }) => chain.id)).toEqual([BVM]);
  });

  it("--json and the summary name every URL a client needs: Solana's websocket (a @solana/kit slot subscription through it) and Lighter's API (lighter-ts-sdk)", async () => {
    const json = JSON.parse(JSON.stringify(startSummaryJson(sim)));
    const listed = (id: number) => json.chains.find((chain: { id: number }) => chain.id === id);
    const summary = formatStartSummary(sim);
    // each URL under its chain's line in the summary, by the name --json gives it
    const { wsRpcUrl } = listed(SVM);
    expect(wsRpcUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    expect(summary).toMatch(new RegExp(`\\n  ${SVM} +Solana +${listed(SVM).rpcUrl} .*\\n +wsRpcUrl +${wsRpcUrl}\\n`));
    expect(summary).toMatch(new RegExp(`\\n  ${BVM} +Bitcoin +${listed(BVM).rpcUrl} .*\\n +esploraUrl +${listed(BVM).esploraUrl}\\n`));
    const { apiUrl } = listed(LVM);
    expect(apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(summary).toMatch(new RegExp(`\\n  ${LVM} +Lighter +${listed(LVM).rpcUrl} .*\\n +apiUrl +${apiUrl}\\n`));
    // the same websocket URL in GET /chains (SPEC §2.1 wsRpcUrl); the chains without one show none in the summary
    const { body } = await getJson(`${sim.baseUrl}/chains`);
    expect(body.chains.find((chain: { id: number }) => chain.id === SVM).wsRpcUrl).toBe(wsRpcUrl);
    expect(listed(BVM).wsRpcUrl).toBe('');
    expect(summary).not.toMatch(/wsRpcUrl +\n/);

    // Solana: a slot subscription over wsRpcUrl hears the slot the control plane mines
    const abort = new AbortController();
    try {
      const slots = await createSolanaRpcSubscriptions(wsRpcUrl).slotNotifications().subscribe({ abortSignal: abort.signal });
      const next = slots[Symbol.asyncIterator]().next();
      expect((await postJson(`${sim.baseUrl}/admin/chains/${SVM}/mine`, { blocks: 1 })).status).toBe(200);
      const heard = await next;
      expect(heard.done).toBe(false);
      expect(heard.value!.slot).toBeGreaterThan(0n);
    } finally {
      abort.abort();
    }

    // Lighter: its TypeScript SDK reads the exchange through apiUrl
    const height = (await new TransactionApi(new ApiClient({ host: apiUrl })).getCurrentHeight()) as unknown as { code: number; height: number };
    expect(height).toMatchObject({ code: 200, height: expect.any(Number) });
  });
});
