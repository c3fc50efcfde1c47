import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../src/process/isProcessAlive';

/**
 * "No orphaned Anvil, ever": whatever way the simulator's process dies, its chains die too, and it
 * stops when whatever started it goes away (npx does not pass SIGINT on). Real processes, real
 * signals: the CLI as a user starts it.
 */
const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.pid && isProcessAlive(child.pid)) child.kill('SIGKILL');
});

function childrenOf(pid: number, name: string): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid), '-x', name], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

/** Resolves once every pid is gone (or rejects with the survivors after `ms`). */
async function gone(pids: number[], ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (pids.some(isProcessAlive)) {
    if (Date.now() > deadline) throw new Error(`still running: ${pids.filter(isProcessAlive).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts `command` and waits for the CLI's one JSON line. */
interface ReadyLine {
  baseUrl: string;
  solverAddress: string;
  chains: Array<{ id: number; rpcUrl: string; contracts: Record<string, string>; currencies: Array<{ symbol: string; address: string; decimals: number }> }>;
}

async function startCli(command: string, args: string[]): Promise<{ child: ChildProcess; ready: ReadyLine }> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  const lines = createInterface({ input: child.stdout! });
  const ready = await new Promise<ReadyLine>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line.startsWith('{')) resolve(JSON.parse(line) as ReadyLine);
    });
    child.once('exit', (code) => reject(new Error(`the CLI exited (${code}) before it was ready`)));
  });
  return { child, ready };
}

describe('no orphaned chains', () => {
  it('SIGKILL of the simulator process alone: its Anvil processes stop too (and the reaper with them)', async () => {
    const { child, ready } = await startCli(process.execPath, ['bin/intentsim.js', 'start', '--json', '--port', '0', '--chains', '1,8453']);
    // --json carries what the human summary shows: contracts and token addresses per chain
    expect(ready.chains.map((chain) => chain.id)).toEqual([1, 8453]);
    expect(ready.chains[0]!.contracts).toMatchObject({ depository: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), 'USDC (6 dec.)': expect.any(String) });
    expect(ready.chains[0]!.currencies.map((currency) => currency.symbol)).toEqual(['ETH', 'USDC', 'WETH']);
    expect(ready.solverAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const anvils = childrenOf(child.pid!, 'anvil');
    expect(anvils).toHaveLength(2);
    const reapers = childrenOf(child.pid!, 'node'); // `node -e <reaper>`
    expect(reapers).toHaveLength(1);
    child.kill('SIGKILL');
    await gone([child.pid!]);
    await gone(anvils);
    expect(anvils.filter(isProcessAlive)).toEqual([]);
    // the reaper exits once it has done its job
    await gone(reapers);
  });

  it('the process that started it goes away without passing a signal on (as npx does): the simulator stops and its chains with it', async () => {
    // `; true` keeps sh from exec-ing node: node's parent is the wrapper shell, as under npx
    const { child: wrapper, ready } = await startCli('/bin/sh', ['-c', `${process.execPath} bin/intentsim.js start --json --port 0 --chains 1; true`]);
    const [cli] = childrenOf(wrapper.pid!, 'node');
    expect(cli).toBeDefined();
    const anvils = childrenOf(cli!, 'anvil');
    expect(anvils).toHaveLength(1);
    expect((await fetch(`${ready.baseUrl}/chains`)).status).toBe(200);
    wrapper.kill('SIGKILL');
    await gone([cli!, ...anvils]);
    expect([cli!, ...anvils].filter(isProcessAlive)).toEqual([]);
  });
});
