import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../src/process/isProcessAlive';
import { childPidsOf, startCliProcess, waitUntilGone } from '../support/cliProcess';

/**
 * "No orphaned Anvil, ever": whatever way the simulator's process dies, its chains die too, and it
 * stops when whatever started it goes away (npx does not pass SIGINT on). Real processes, real
 * signals: the CLI as a user starts it.
 */
const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.pid && isProcessAlive(child.pid)) child.kill('SIGKILL');
});

describe('no orphaned chains', () => {
  it('SIGKILL of the simulator process alone: its Anvil processes stop too (and the reaper with them)', async () => {
    const { top: child, ready } = await startCliProcess({ args: ['--chains', '1,8453'] });
    started.push(child);
    // --json carries what the human summary shows: contracts and token addresses per chain
    expect(ready.chains.map((chain) => chain.id)).toEqual([1, 8453]);
    expect(ready.chains[0]!.contracts).toMatchObject({ depository: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), 'USDC (6 dec.)': expect.any(String) });
    expect(ready.chains[0]!.currencies.map((currency) => currency.symbol)).toEqual(['ETH', 'USDC', 'WETH']);
    expect(ready.solverAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const anvils = childPidsOf(child.pid!, 'anvil');
    expect(anvils).toHaveLength(2);
    const reapers = childPidsOf(child.pid!, 'node'); // `node -e <reaper>`
    expect(reapers).toHaveLength(1);
    child.kill('SIGKILL');
    expect(await waitUntilGone([child.pid!, ...anvils])).toEqual([]);
    // the reaper exits once it has done its job
    expect(await waitUntilGone(reapers)).toEqual([]);
  });

  it('the process that started it goes away without passing a signal on (as npx does): the simulator stops and its chains with it', async () => {
    const { top: wrapper, cliPid, ready } = await startCliProcess({ args: ['--chains', '1'], viaWrapper: true });
    started.push(wrapper);
    expect(cliPid).toBeDefined();
    const anvils = childPidsOf(cliPid, 'anvil');
    expect(anvils).toHaveLength(1);
    expect((await fetch(`${ready.baseUrl}/chains`)).status).toBe(200);
    wrapper.kill('SIGKILL');
    expect(await waitUntilGone([cliPid, ...anvils])).toEqual([]);
  });
});
