import { describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { QuoteRpcScope } from '../../src/chains/QuoteRpcScope';

describe('QuoteRpcScope (the RPC calls made while answering a quote)', () => {
  it('is active inside its own run, across awaits, and never inside another scope\'s run (two simulators in one process)', async () => {
    const first = new QuoteRpcScope();
    const second = new QuoteRpcScope();
    expect([first.active(), second.active()]).toEqual([false, false]);
    const seen = await Promise.all([
      first.run(async () => {
        await sleep(5);
        return [first.active(), second.active()];
      }),
      second.run(async () => {
        await sleep(1);
        const inner = await first.run(async () => [first.active(), second.active()]);
        return [...inner, first.active(), second.active()];
      }),
    ]);
    expect(seen).toEqual([
      [true, false],
      [true, false, false, true],
    ]);
    expect([first.active(), second.active()]).toEqual([false, false]);
  });
});
