import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  it('the process that started it goes away while the chains are still starting: the simulator stops all the same, and nothing of it runs on', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'intentsim-orphan-start-'));
    try {
      // the shell starts the CLI in the background and is gone as soon as the simulator has opened its
      // database, before its chains are ready
      const shell = spawn('/bin/sh', ['-c', `bin/intentsim.js start --json --port 0 --data-dir '${dataDir}' >/dev/null 2>&1 & echo $!; while [ ! -e '${dataDir}/intentsim.db' ]; do sleep 0.01; done`], { stdio: ['ignore', 'pipe', 'ignore'] });
      started.push(shell);
      let printed = '';
      shell.stdout.on('data', (chunk) => (printed += chunk));
      await new Promise((resolve) => shell.once('exit', resolve));
      const cliPid = Number(printed.trim());
      expect(cliPid).toBeGreaterThan(0);
      expect(await waitUntilGone([cliPid])).toEqual([]);
      // nor any chain process of its data dir (each Anvil's --ipc socket lives there)
      expect(await waitUntilGone(processesMentioning(dataDir))).toEqual([]);
    } finally {
      // a failure here leaves nothing running either
      for (const pid of processesMentioning(dataDir)) process.kill(pid, 'SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
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

/** Pids whose command line mentions `text`. */
function processesMentioning(text: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

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
