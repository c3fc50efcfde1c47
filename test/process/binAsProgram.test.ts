import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startCliProcess } from '../support/cliProcess';

/**
 * bin/intentsim.js run as a program (as npx and node_modules/.bin run it): its shell line execs node
 * in the same process, with V8's young generation capped (the CLI's memory figure, docs/start.md).
 */
describe('bin/intentsim.js as a program', () => {
  it('is node itself, in the process that was started (no shell left above it), with --max-semi-space-size=4', async () => {
    const sim = await startCliProcess({ args: ['--chains', '1'], detached: true });
    try {
      expect(sim.cliPid).toBe(sim.top.pid);
      expect(readFileSync(`/proc/${sim.cliPid}/comm`, 'utf8').trim()).toBe('node');
      const argv = readFileSync(`/proc/${sim.cliPid}/cmdline`, 'utf8').split('\0');
      expect(argv.slice(1, 4)).toEqual(['--max-semi-space-size=4', 'bin/intentsim.js', 'start']);
      expect((await fetch(`${sim.ready.baseUrl}/chains`)).status).toBe(200);
    } finally {
      const exited = new Promise((resolve) => sim.top.once('exit', resolve));
      sim.top.kill('SIGINT');
      expect(await exited).toBe(0);
    }
  });
});
