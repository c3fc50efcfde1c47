import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../src/process/isProcessAlive';
import { spawnDyingWithParent } from '../../src/process/spawnDyingWithParent';
import { childPidsOf, waitUntilGone } from '../support/cliProcess';
import { writeBundledScript } from './bundledScript';

/**
 * The orphan guarantee without a watchdog process: a child started by ChildProcessInstance dies
 * when its parent is killed with SIGKILL (no exit handler runs), and the parent has no other
 * child doing the watching. Real processes, real signals.
 */
const scratch = mkdtempSync(join(tmpdir(), 'intentsim-die-with-parent-'));
const parents: ChildProcess[] = [];
afterEach(() => {
  for (const parent of parents.splice(0)) if (parent.pid && isProcessAlive(parent.pid)) parent.kill('SIGKILL');
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs `source` (TypeScript, bundled for plain node: ./bundledScript.ts) as a parent process and resolves with the pids it prints on its first line. */
async function startParent(name: string, source: string): Promise<{ parent: ChildProcess; pids: number[] }> {
  const script = join(scratch, `${name}.mjs`);
  writeBundledScript(script, source);
  const parent = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
  parents.push(parent);
  const line = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    parent.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      if (buffered.includes('\n')) resolve(buffered.split('\n')[0]!);
    });
    parent.once('exit', (code) => reject(new Error(`parent exited (${code}) before printing its child's pid`)));
  });
  return { parent, pids: line.split(' ').map(Number) };
}

const childInstanceSource = (signal: 'SIGKILL' | 'SIGTERM', marker: string) => `
import { ChildProcessInstance } from ${JSON.stringify(join(process.cwd(), 'src/process/ChildProcessInstance.ts'))};
import { orphanReaperPid } from ${JSON.stringify(join(process.cwd(), 'src/process/orphanReaper.ts'))};
const child = ${JSON.stringify(`process.on('SIGTERM', () => { require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'SIGTERM'); process.exit(0); }); console.log('ready'); setInterval(() => {}, 1000);`)};
const instance = new ChildProcessInstance({
  name: 'dies-with-parent',
  command: process.execPath,
  args: ['-e', child],
  logFile: ${JSON.stringify(join(scratch, 'logs/child.log'))},
  readyLine: (line) => (line === 'ready' ? line : undefined),
  signalOnParentExit: '${signal}',
});
await instance.start();
console.log(instance.pid + ' ' + (orphanReaperPid() ?? 0));
setInterval(() => {}, 1000);
`;

describe('children die with the simulator, at no process of their own', () => {
  it('SIGKILL of the parent: its child is gone, and the parent ran no watchdog beside it', async () => {
    const { parent, pids } = await startParent('kill', childInstanceSource('SIGKILL', join(scratch, 'unused')));
    const [childPid, reaperPid] = pids;
    expect(childPidsOf(parent.pid!)).toContain(childPid);
    expect(reaperPid).toBe(0); // no watchdog process was started
    parent.kill('SIGKILL');
    expect(await waitUntilGone([parent.pid!, childPid!])).toEqual([]);
  });

  it('a child that saves its state on SIGTERM (anvil --state) gets SIGTERM when the parent is killed', async () => {
    const marker = join(scratch, 'got-sigterm');
    const { parent, pids } = await startParent('term', childInstanceSource('SIGTERM', marker));
    parent.kill('SIGKILL');
    expect(await waitUntilGone([parent.pid!, pids[0]!])).toEqual([]);
    expect(existsSync(marker)).toBe(true);
  });

  it('without setpriv (a command it cannot wrap): the orphan reaper process still kills the child', async () => {
    const { parent, pids } = await startParent(
      'reaper',
      `
import { spawn } from 'node:child_process';
import { reapWhenThisProcessDies, orphanReaperPid } from ${JSON.stringify(join(process.cwd(), 'src/process/orphanReaper.ts'))};
const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
reapWhenThisProcessDies(child.pid);
await new Promise((resolve) => setTimeout(resolve, 300)); // the reaper reads its first line
console.log(child.pid + ' ' + orphanReaperPid());
setInterval(() => {}, 1000);
`,
    );
    const [childPid, reaperPid] = pids;
    expect(isProcessAlive(reaperPid!)).toBe(true);
    parent.kill('SIGKILL');
    expect(await waitUntilGone([parent.pid!, childPid!, reaperPid!])).toEqual([]);
  });

  it('wraps an executable file in setpriv --pdeathsig; a bare name or a missing file is spawned as it is', () => {
    expect(spawnDyingWithParent(process.execPath, ['-v'], 'SIGTERM')).toEqual({
      command: expect.stringMatching(/\/setpriv$/),
      args: ['--pdeathsig', 'SIGTERM', '--', process.execPath, '-v'],
      diesWithParent: true,
    });
    expect(spawnDyingWithParent('anvil', [], 'SIGKILL')).toEqual({ command: 'anvil', args: [], diesWithParent: false });
    const missing = join(scratch, 'no-such-binary');
    expect(spawnDyingWithParent(missing, ['x'], 'SIGKILL')).toEqual({ command: missing, args: ['x'], diesWithParent: false });
  });
});
