import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/simulator';
import { childPidsOf, waitUntilGone } from '../support/cliProcess';

/**
 * supersim's rule (STYLE.md): if a child dies, the whole app stops loudly. A chain's node killed
 * under a running simulator resolves `fatal` with why, and every part stops: the API no longer
 * answers and the other chain's node is gone too.
 */
describe('a chain node dies under a running simulator', () => {
  it('fatal resolves naming it, and the simulator stops whole: its API and its other chain', async () => {
    const before = new Set(childPidsOf(process.pid, 'anvil'));
    const logged: string[] = [];
    const sim = await startSimulator({ port: 0, env: {}, chains: [{ id: 1 }, { id: 8453 }], log: (message) => logged.push(message) });
    try {
      const anvils = childPidsOf(process.pid, 'anvil').filter((pid) => !before.has(pid));
      expect(anvils).toHaveLength(2);
      expect((await fetch(`${sim.baseUrl}/chains`)).status).toBe(200);
      const chain1 = anvils.find((pid) => /--chain-id 1(\s|$)/.test(execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' })));
      expect(chain1).toBeDefined();
      process.kill(chain1!, 'SIGKILL');
      const error = await sim.fatal;
      expect(error.message).toMatch(/^(chain 1:|anvil for chain 1 )/);
      expect(logged.some((line) => line.startsWith('fatal: '))).toBe(true);
      await sim.stop(); // the same stop the fatal error started: resolves once everything is down
      expect(await waitUntilGone(anvils)).toEqual([]);
      await expect(fetch(`${sim.baseUrl}/chains`)).rejects.toThrow();
    } finally {
      await sim.stop().catch(() => undefined);
    }
  });
});
