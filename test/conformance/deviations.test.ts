import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance';
import type { RunningSimulator } from '../../src/simulator';
import { LISTING_UNTHROTTLED, startTestSimulator } from '../support/startTestSimulator';
import { startDeviationProxy } from './deviationProxy';
import { allDeviations } from './deviations';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startTestSimulator(LISTING_UNTHROTTLED);
});
afterAll(async () => {
  await sim?.stop();
});

describe('the conformance suite catches one deviation at a time, naming the SPEC section', () => {
  it('has a deviation for every family', () => {
    expect(allDeviations.length).toBeGreaterThan(0);
    expect(new Set(allDeviations.map((deviation) => deviation.name)).size).toBe(allDeviations.length);
  });

  for (const deviation of allDeviations) {
    it(`§${deviation.section}: ${deviation.name}`, async () => {
      const proxy = await startDeviationProxy(sim.baseUrl, deviation);
      try {
        const report = await runConformance({
          baseUrl: proxy.baseUrl,
          apiKey: sim.apiKey,
          mode: deviation.mode ?? 'read-only',
          only: deviation.only ?? [deviation.section],
          privateKey: sim.accounts[3]!.privateKey as `0x${string}`,
        });
        const failed = report.results.filter((result) => result.outcome === 'fail');
        expect(failed.map((result) => result.id), 'no check failed').not.toEqual([]);
        const inSection = failed.filter((result) => result.section === deviation.section || result.section.startsWith(`${deviation.section}.`));
        expect(inSection.map((result) => `${result.section} ${result.id}`), `failed, but in other sections: ${failed.map((r) => `§${r.section} ${r.id}`).join(', ')}`).not.toEqual([]);
      } finally {
        await proxy.close();
      }
    });
  }
});
