import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { isProcessAlive } from '../../src/process/isProcessAlive';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  ChildProcessInstance,
  ChildProcessStartError,
  stopAllChildProcesses,
} from '../../src/process/ChildProcessInstance';
import type { ChildProcessInstanceOptions, UnexpectedExit } from '../../src/process/ChildProcessInstance';
import { writeBundledScript } from './bundledScript';

const scratch = mkdtempSync(join(tmpdir(), 'intentsim-child-process-'));
afterEach(() => stopAllChildProcesses());
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let logCounter = 0;
function nodeInstance(
  script: string,
  overrides: Partial<ChildProcessInstanceOptions<string>> = {},
): ChildProcessInstance<string> {
  logCounter += 1;
  return new ChildProcessInstance<string>({
    name: `test-child-${logCounter}`,
    command: process.execPath,
    args: ['-e', script],
    logFile: join(scratch, `logs/child-${logCounter}.log`),
    readyLine: (line) => /^ready on (\d+)$/.exec(line)?.[1],
    startTimeoutMs: 10_000, // a loaded 2-core machine can take seconds to boot a node child
    ...overrides,
  });
}

const isAlive = isProcessAlive;

/** A timeout test waits this long: ample for a shell child (it boots in milliseconds, unlike node) to print under a loaded machine. */
const outputDeadlineMs = 1_000;

/** A child started by `sh -c script` (the timeout tests: it prints at once, then idles). */
function shellInstance(script: string, overrides: Partial<ChildProcessInstanceOptions<string>> = {}): ChildProcessInstance<string> {
  return nodeInstance('', { command: 'sh', args: ['-c', script], ...overrides });
}

const readyThenIdle = `console.log('booting'); setTimeout(() => console.log('ready on 4242'), 20); setInterval(() => {}, 1000);`;

async function startError(instance: ChildProcessInstance<string>): Promise<ChildProcessStartError> {
  const error: unknown = await instance.start().then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(ChildProcessStartError);
  return error as ChildProcessStartError;
}

describe('ChildProcessInstance', () => {
  it('starts once the ready line is printed, resolving with what the line check extracted', async () => {
    const instance = nodeInstance(readyThenIdle);
    expect(instance.status).toBe('idle');

    const first = instance.start();
    expect(instance.status).toBe('starting');
    const second = instance.start();
    expect(second).toBe(first);

    await expect(first).resolves.toBe('4242');
    expect(instance.status).toBe('started');
    expect(instance.start()).toBe(first);
    expect(instance.pid).toBeTypeOf('number');
    expect(instance.lastOutputLines.map((line) => line.text)).toEqual(['booting', 'ready on 4242']);

    await instance.stop();
    expect(instance.status).toBe('stopped');
    const log = readFileSync(instance.logFile, 'utf8');
    expect(log).toContain('booting\nready on 4242\n');
    expect(log).toContain(`${instance.name} exited`);
  });

  it('waits for the probe, retrying it until it succeeds', async () => {
    let calls = 0;
    const instance = nodeInstance(readyThenIdle, {
      probeRetryDelayMs: 5,
      probeReady: async (ready) => {
        calls += 1;
        if (calls < 3) throw new Error(`not yet (${ready})`);
      },
    });
    await expect(instance.start()).resolves.toBe('4242');
    expect(calls).toBe(3);
  });

  it('a child that prints nothing (readyAtSpawn) is ready once its probe succeeds, never before', async () => {
    const marker = join(scratch, `quiet-${logCounter}.ready`);
    const instance = nodeInstance(`setTimeout(() => require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'up'), 200); setInterval(() => {}, 1000);`, {
      readyLine: undefined,
      readyAtSpawn: 'quiet',
      probeRetryDelayMs: 10,
      probeReady: async () => {
        if (readFileSync(marker, 'utf8') !== 'up') throw new Error('not written yet'); // throws until the child has written it whole
      },
    });
    await expect(instance.start()).resolves.toBe('quiet');
    expect(readFileSync(marker, 'utf8')).toBe('up');
    expect(instance.lastOutputLines).toEqual([]);
    await instance.stop();
  });

  it('rejects a start that times out with an error naming the instance and showing the last output lines', async () => {
    const instance = shellInstance(`echo 'warming up'; echo 'still loading the world' >&2; exec sleep 60`, { name: 'slow-node', startTimeoutMs: outputDeadlineMs });
    const error = await startError(instance);

    expect(error.reason).toBe('timeout');
    expect(error.instanceName).toBe('slow-node');
    expect(error.message).toContain(`slow-node did not become ready within ${outputDeadlineMs} ms`);
    expect(error.message).toContain('[stdout] warming up');
    expect(error.message).toContain('[stderr] still loading the world');
    expect(error.message).toContain(instance.logFile);
    expect(instance.status).toBe('stopped');
    expect(instance.pid).toBeUndefined();
  });

  it('says when the ready line appeared but the probe never succeeded', async () => {
    const instance = shellInstance(`echo booting; echo 'ready on 4242'; exec sleep 60`, {
      startTimeoutMs: outputDeadlineMs,
      probeReady: () => Promise.reject(new Error('connection refused')),
    });
    const error = await startError(instance);
    expect(error.reason).toBe('timeout');
    expect(error.message).toContain('the probe kept failing: connection refused');
  });

  it('rejects with the exit code when the child exits during start, and kills nothing else', async () => {
    const instance = nodeInstance(`console.error('fatal: unknown flag --frobnicate'); process.exit(3);`, {
      name: 'crashing-node',
    });
    const error = await startError(instance);

    expect(error.reason).toBe('exited');
    expect(error.exitCode).toBe(3);
    expect(error.message).toContain('crashing-node exited during start (exit code 3)');
    expect(error.message).toContain('[stderr] fatal: unknown flag --frobnicate');
    expect(instance.status).toBe('stopped');
  });

  it('rejects when the command cannot be spawned', async () => {
    const instance = nodeInstance('', { command: join(scratch, 'no-such-binary') });
    const error = await startError(instance);
    expect(error.reason).toBe('spawn-failed');
    expect(error.message).toContain('ENOENT');
  });

  it('stop() kills the child, and is a no-op when called again or when nothing runs', async () => {
    const instance = nodeInstance(readyThenIdle);
    await instance.stop();
    expect(instance.status).toBe('idle');

    await instance.start();
    const pid = instance.pid;
    if (pid === undefined) throw new Error('expected a pid');
    const firstStop = instance.stop();
    expect(instance.status).toBe('stopping');
    expect(instance.stop()).toBe(firstStop);
    await firstStop;

    expect(instance.status).toBe('stopped');
    expect(isAlive(pid)).toBe(false);
    await instance.stop();
    expect(instance.status).toBe('stopped');
  });

  it('stop() escalates to SIGKILL when the child ignores SIGTERM', async () => {
    const instance = nodeInstance(`process.on('SIGTERM', () => console.log('ignoring SIGTERM')); ${readyThenIdle}`, {
      stopTimeoutMs: 200,
    });
    await instance.start();
    const pid = instance.pid ?? -1;
    await instance.stop();
    expect(isAlive(pid)).toBe(false);
    expect(readFileSync(instance.logFile, 'utf8')).toContain('killed by SIGKILL');
  });

  it('stop() during start cancels the start', async () => {
    const instance = nodeInstance(`setInterval(() => {}, 1000);`);
    const starting = instance.start();
    const stopping = instance.stop();
    await stopping;
    await expect(starting).rejects.toMatchObject({ reason: 'stopped' });
    expect(instance.status).toBe('stopped');
  });

  it('can start again after a stop', async () => {
    const instance = nodeInstance(readyThenIdle);
    await instance.start();
    const firstPid = instance.pid;
    await instance.stop();
    await expect(instance.start()).resolves.toBe('4242');
    expect(instance.pid).not.toBe(firstPid);
  });

  it('calls onUnexpectedExit when a started child is killed from outside', async () => {
    const instance = nodeInstance(readyThenIdle);
    const exited = new Promise<UnexpectedExit>((resolve) => instance.onUnexpectedExit(resolve));
    await instance.start();
    const pid = instance.pid ?? -1;

    process.kill(pid, 'SIGKILL');
    const exit = await exited;

    expect(exit).toMatchObject({ name: instance.name, pid, signal: 'SIGKILL', exitCode: null });
    expect(exit.lastOutputLines.map((line) => line.text)).toContain('ready on 4242');
    expect(instance.status).toBe('stopped');
  });

  it('does not call onUnexpectedExit for a requested stop', async () => {
    const instance = nodeInstance(readyThenIdle);
    let calls = 0;
    instance.onUnexpectedExit(() => {
      calls += 1;
    });
    await instance.start();
    await instance.stop();
    expect(calls).toBe(0);
  });

  it('stopAllChildProcesses() stops every live child', async () => {
    const first = nodeInstance(readyThenIdle);
    const second = nodeInstance(readyThenIdle);
    await Promise.all([first.start(), second.start()]);
    const pids = [first.pid ?? -1, second.pid ?? -1];

    await stopAllChildProcesses();

    expect([first.status, second.status]).toEqual(['stopped', 'stopped']);
    expect(pids.map(isAlive)).toEqual([false, false]);
  });

  it('kills live children when the parent Node process exits', () => {
    const script = join(scratch, 'parent.mjs');
    const modulePath = join(process.cwd(), 'src/process/ChildProcessInstance.ts');
    writeBundledScript(
      script,
      `import { ChildProcessInstance } from ${JSON.stringify(modulePath)};
const instance = new ChildProcessInstance({
  name: 'orphan-candidate',
  command: process.execPath,
  args: ['-e', ${JSON.stringify(readyThenIdle)}],
  logFile: ${JSON.stringify(join(scratch, 'logs/orphan.log'))},
  readyLine: (line) => (line.startsWith('ready') ? line : undefined),
});
await instance.start();
console.log(instance.pid);
process.exit(0);
`,
    );
    const parent = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 10_000 });
    expect(parent.stderr).toBe('');
    const childPid = Number(parent.stdout.trim());
    expect(childPid).toBeGreaterThan(0);
    // SIGKILL was sent synchronously in the parent's 'exit' handler; the signal lands right after.
    return expect.poll(() => isAlive(childPid), { timeout: 2_000, interval: 20 }).toBe(false);
  });
});
