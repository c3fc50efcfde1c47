/**
 * `POST /quote/v2` latency: one simulator (its own Anvil chains), a warm-up, then `count`
 * sequential quotes over real HTTP, each timed from request to parsed body. Quotes alternate
 * between a native bridge (1 → 8453) and a USDC bridge (8453 → 42161, allowance read and an
 * approve step), both EXACT_INPUT, so both deposit shapes are in the figures.
 */
import { zeroAddress } from 'viem';
import { postJson } from '../../test/support/bridgeClient';
import { startSimulator } from '../../src/simulator';
import { percentile, summarize, type Summary } from './measure';
import { evmChainOf } from '../../test/support/evmChainOf';

const WARMUP_QUOTES = 50;

export interface QuoteLatencyResult {
  count: number;
  summary: Summary;
  p50: number;
  p99: number;
}

export async function benchQuoteLatency(count: number, progress: (line: string) => void): Promise<QuoteLatencyResult> {
  const sim = await startSimulator({ port: 0, log: () => undefined, env: {} });
  try {
    const user = sim.accounts[7]!.address;
    const usdc = (chainId: number) => evmChainOf(sim, chainId).contractAddresses.stablecoin;
    const bodies = [
      { user, originChainId: 1, destinationChainId: 8453, originCurrency: zeroAddress, destinationCurrency: zeroAddress, amount: '10000000000000000', tradeType: 'EXACT_INPUT' },
      { user, originChainId: 8453, destinationChainId: 42161, originCurrency: usdc(8453), destinationCurrency: usdc(42161), amount: '25000000', tradeType: 'EXACT_INPUT' },
    ];
    const quoteOnce = async (i: number): Promise<number> => {
      const started = performance.now();
      const response = await postJson(`${sim.baseUrl}/quote/v2`, bodies[i % bodies.length]);
      const ms = performance.now() - started;
      if (response.status !== 200) throw new Error(`quote ${i} answered ${response.status}: ${JSON.stringify(response.body)}`);
      return ms;
    };
    for (let i = 0; i < WARMUP_QUOTES; i++) await quoteOnce(i);
    const samples: number[] = [];
    for (let i = 0; i < count; i++) {
      samples.push(await quoteOnce(i));
      if ((i + 1) % 250 === 0) progress(`  ${i + 1}/${count} quotes`);
    }
    return { count, summary: summarize(samples), p50: percentile(samples, 50), p99: percentile(samples, 99) };
  } finally {
    await sim.stop();
  }
}
