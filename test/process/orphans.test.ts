import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
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
  it('SIGKILL of the simulator process alone: its Anvil processes stop too, with no watchdog process of its own', async () => {
    const { top: child, ready } = await startCliProcess({ args: ['--chains', '1,8453'] });
    started.push(child);
    // --json carries what the human summary shows: contracts and token addresses per chain
    expect(ready.chains.map((chain) => chain.id)).toEqual([1, 8453]);
    expect(ready.chains[0]!.contracts).toMatchObject({ depository: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), 'USDC (6 dec.)': expect.any(String) });
    expect(ready.chains[0]!.currencies.map((currency) => currency.symbol)).toEqual(['ETH', 'USDC', 'WETH']);
    expect(ready.solverAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const anvils = childPidsOf(child.pid!, 'anvil');
    expect(anvils).toHaveLength(2);
    // the kernel's parent-death signal (setpriv --pdeathsig) watches them: no `node -e <reaper>` beside them
    expect(childPidsOf(child.pid!, 'node')).toEqual([]);
    child.kill('SIGKILL');
    expect(await waitUntilGone([child.pid!, ...anvils])).toEqual([]);
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

  it('whoever reads its summary has closed the pipe (`intentsim start --json | true`): it still serves, then stops on SIGINT', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['bin/intentsim.js', 'start', '--json', '--chains', '1', '--port', String(port)], { stdio: ['ignore', 'pipe', 'ignore'] });
    started.push(child);
    child.stdout.destroy(); // closed before the summary is written
    let status = 0;
    for (let tries = 0; tries < 600 && status !== 200 && child.exitCode === null; tries++) {
      status = await fetch(`http://127.0.0.1:${port}/chains`).then((response) => response.status, () => 0);
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(child.exitCode).toBeNull();
    expect(status).toBe(200);
    const anvils = childPidsOf(child.pid!, 'anvil');
    expect(anvils).toHaveLength(1);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(await waitUntilGone(anvils)).toEqual([]);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
