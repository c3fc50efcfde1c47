import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../src/process/isProcessAlive';
import { childPidsOf, startCliProcess, waitUntilGone } from '../support/cliProcess';

/**
 * "No orphaned chains" for `--svm validator` as for Anvil (test/process/orphans.test.ts): the
 * spawned validator (here the stand-in test/fixtures/bin/solana-test-validator, a node process)
 * dies with the simulator's process even when that process is killed with SIGKILL.
 */
const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.pid && isProcessAlive(child.pid)) child.kill('SIGKILL');
});

/** The children of `pid` whose command line runs the validator. */
function validatorPidsOf(pid: number): number[] {
  return childPidsOf(pid).filter((child) => {
    try {
      return readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('solana-test-validator');
    } catch {
      return false;
    }
  });
}

describe('no orphaned validator', () => {
  it('SIGKILL of the simulator process alone: its solana-test-validator stops too', async () => {
    const standIn = resolve('test/fixtures/bin/solana-test-validator');
    const { top: child, ready } = await startCliProcess({ args: ['--chains', '792703809', '--svm', 'validator', '--solana-test-validator', standIn] });
    started.push(child);
    expect(ready.chains.map((chain) => chain.id)).toEqual([792703809]);
    const validators = validatorPidsOf(child.pid!);
    expect(validators).toHaveLength(1);
    // the chain's RPC is the validator's
    const slot = await fetch(ready.chains[0]!.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getSlot' }) });
    expect(typeof ((await slot.json()) as { result: unknown }).result).toBe('number');
    child.kill('SIGKILL');
    expect(await waitUntilGone([child.pid!, ...validators])).toEqual([]);
  }, 60_000);
});
