import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { startCliProcess, waitUntilGone, type CliProcess } from '../support/cliProcess';
import { freePortRun, lanAddress } from '../support/lanAddress';

const LVM = 3586256;
const BVM = 8253038;
const LAN = lanAddress();
if (!LAN) console.warn('startSharedHost.test.ts: this machine has no non-loopback IPv4 address; the run reached from the network is skipped');

/** `intentsim start` run to its end: exit code and stderr. */
function runStart(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/intentsim.js', 'start', '--json', '--port', '0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

describe('intentsim start --host 0.0.0.0 --chain-port', () => {
  let cli: CliProcess | undefined;
  afterAll(async () => {
    if (!cli) return;
    cli.top.kill('SIGTERM');
    expect(await waitUntilGone([cli.cliPid])).toEqual([]);
  });

  it.skipIf(!LAN)("--json says the URLs follow the Host header and gives them at this machine's address, the chain on its fixed port, answering there", async () => {
    const port = await freePortRun(1);
    cli = await startCliProcess({ args: ['--host', '0.0.0.0', '--chains', String(LVM), '--chain-port', `${LVM}=${port}`] });
    const ready = cli.ready as typeof cli.ready & { publicUrlFrom: string };
    expect(ready.publicUrlFrom).toBe('host-header');
    expect(new URL(ready.baseUrl).hostname).toBe(LAN);
    expect(ready.chains.map((chain) => chain.rpcUrl)).toEqual([`http://${LAN}:${port}`]);
    expect(await (await fetch(`http://${LAN}:${port}/api/v1/currentHeight`)).json()).toHaveProperty('height');
    const listed = (await (await fetch(`${ready.baseUrl}/chains`)).json()) as { chains: Array<{ httpRpcUrl: string }> };
    expect(listed.chains.map((chain) => chain.httpRpcUrl)).toEqual([`http://${LAN}:${port}`]);
  }, 60_000);

  it("refuses two servers on one port (Bitcoin's Esplora takes PORT+1) in one line, exit 2, before anything starts", async () => {
    const port = await freePortRun(2);
    const { code, stderr } = await runStart(['--chains', `${BVM},${LVM}`, '--chain-port', `${BVM}=${port}`, '--chain-port', `${LVM}=${port + 1}`]);
    expect(code).toBe(2);
    // the ports are claimed in chain id order: the exchange's first
    expect(stderr).toBe(`intentsim: --chain-port ${BVM}=${port}: chain ${BVM}'s Esplora REST API (port ${port + 1}) clashes with chain ${LVM}'s exchange HTTP API (port ${port + 1})\n`);
  }, 30_000);

  it('refuses a port another process holds in one line, exit 2', async () => {
    const port = await freePortRun(1);
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(port, '0.0.0.0', resolve));
    try {
      const { code, stderr } = await runStart(['--host', '0.0.0.0', '--chains', String(LVM), '--chain-port', `${LVM}=${port}`]);
      expect(code).toBe(2);
      expect(stderr).toBe(`intentsim: chain ${LVM}: 0.0.0.0:${port} is already in use by another process (--chain-port ${LVM}=${port})\n`);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  }, 30_000);
});
