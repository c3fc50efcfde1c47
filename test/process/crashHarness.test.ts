import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCrashHarness } from '../../scripts/chaos/crashHarness';

/** The short crash harness (the long one runs in `npm run bench`): one kill of each kind. */
const dir = mkdtempSync(join(tmpdir(), 'intentsim-chaos-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('crash harness (short)', () => {
  it('SIGKILL of the group and of the node process alone after a deposit, of the wrapper after a quote, with webhooks in flight: every request ends success, paid once, and nothing is left running', async () => {
    const result = await runCrashHarness({ dir, iterations: 3, seed: 7, kinds: ['group', 'node', 'wrapper'] });
    expect(result.kills.map((kill) => [kill.kind, kill.point])).toEqual([
      ['group', 'deposit'],
      ['node', 'deposit'],
      ['wrapper', 'quote'],
    ]);
    expect(result.requests).toBe(3);
    expect(result.problems).toEqual([]);
    expect(result.leftovers).toEqual([]);
    // a slow webhook receiver was attached throughout: every success event still arrived
    expect(result.webhooksMissing).toEqual([]);
  }, 180_000);
});
