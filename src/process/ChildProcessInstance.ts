import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { finished } from 'node:stream';
import type { Readable } from 'node:stream';
import { reapWhenThisProcessDies, stopReaping } from './orphanReaper';
import { spawnDyingWithParent } from './spawnDyingWithParent';
import { ChildProcessStartError, type ChildProcessExit, type ChildProcessStartFailure, type OutputLine, type OutputStreamName } from './ChildProcessStartError';
import { registerLiveChildProcess, unregisterLiveChildProcess, type LiveChildProcess } from './liveChildProcesses';
import { splitIntoLines } from './splitIntoLines';

export { ChildProcessStartError } from './ChildProcessStartError';
export type { ChildProcessExit, ChildProcessStartFailure, OutputLine, OutputStreamName } from './ChildProcessStartError';
export { stopAllChildProcesses } from './liveChildProcesses';

/** idle → starting → started → stopping → stopped (and from stopped, start again). */
export type ChildProcessStatus = 'idle' | 'starting' | 'started' | 'stopping' | 'stopped';

export type ReadyProbeContext = {
  /** Aborted when the start fails or is cancelled; pass it to fetch. */
  signal: AbortSignal;
};

export type ChildProcessInstanceOptions<TReady> = {
  /** Names the instance in errors and log headers, e.g. `anvil-8453`. */
  name: string;
  /** Spawned directly, without a shell. */
  command: string;
  args?: readonly string[];
  /** stdout and stderr are appended here; the directory is created. */
  logFile: string;
  /**
   * Looks at each output line while starting. The first value other than `undefined` is the ready
   * signal and is what `start()` resolves with (e.g. the port read from a "listening on" line).
   */
  readyLine?: (line: string, stream: OutputStreamName) => TReady | undefined;
  /**
   * Instead of `readyLine`, for a child that prints nothing when ready (`solana-test-validator
   * --quiet`): the ready value is known before the spawn and only `probeReady` decides.
   */
  readyAtSpawn?: TReady;
  /** Runs after the ready line; retried until it resolves or the start times out. */
  probeReady?: (ready: TReady, context: ReadyProbeContext) => Promise<void>;
  /** Default 10 000. */
  startTimeoutMs?: number;
  /** Time between SIGTERM and SIGKILL in `stop()`. Default 5 000. */
  stopTimeoutMs?: number;
  /** Pause between failed probes. Default 25. */
  probeRetryDelayMs?: number;
  /** Output lines kept in memory for error messages. Default 50. */
  keptOutputLines?: number;
  /**
   * Sent to a child still alive when this Node process exits. Default SIGKILL; SIGTERM lets a child
   * that saves its state on a graceful exit (anvil --state) do so.
   */
  signalOnParentExit?: 'SIGKILL' | 'SIGTERM';
};

export type UnexpectedExit = ChildProcessExit & {
  name: string;
  pid: number | undefined;
  lastOutputLines: readonly OutputLine[];
  logFile: string;
};

export type UnexpectedExitListener = (exit: UnexpectedExit) => void;

type StartAttempt = {
  /** Ends the attempt: kills the child with `signal`, waits for it to close, rejects `start()`. */
  fail: (reason: ChildProcessStartFailure, signal: NodeJS.Signals) => Promise<void>;
};

/**
 * One external process with an explicit lifecycle: spawned without a shell, output appended to a
 * log file and its tail kept in memory, ready once a log line matches and a probe succeeds.
 * What to run and how to tell it is ready is the caller's definition (see AnvilInstance).
 */
export class ChildProcessInstance<TReady> {
  readonly name: string;
  readonly logFile: string;
  readonly #options: ChildProcessInstanceOptions<TReady>;
  #status: ChildProcessStatus = 'idle';
  #child: ChildProcessByStdio<null, Readable, Readable> | undefined;
  #closed: Promise<ChildProcessExit> | undefined;
  #startPromise: Promise<TReady> | undefined;
  #startAttempt: StartAttempt | undefined;
  #stopPromise: Promise<void> | undefined;
  #outputTail: OutputLine[] = [];
  readonly #unexpectedExitListeners = new Set<UnexpectedExitListener>();

  constructor(options: ChildProcessInstanceOptions<TReady>) {
    this.#options = options;
    this.name = options.name;
    this.logFile = options.logFile;
  }

  get status(): ChildProcessStatus {
    return this.#status;
  }

  /** The pid of the running child, or `undefined` when none is running. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  get lastOutputLines(): readonly OutputLine[] {
    return [...this.#outputTail];
  }

  /** Spawns the child and resolves once it is ready. While starting or started, returns the same promise. */
  start(): Promise<TReady> {
    if ((this.#status === 'starting' || this.#status === 'started') && this.#startPromise !== undefined) {
      return this.#startPromise;
    }
    if (this.#status === 'stopping' && this.#stopPromise !== undefined) {
      return this.#stopPromise.then(() => this.start());
    }
    this.#startPromise = this.#spawnAndAwaitReady();
    return this.#startPromise;
  }

  /** SIGTERM, then SIGKILL after `stopTimeoutMs`; resolves once the child has exited. No-op when nothing runs. */
  stop(): Promise<void> {
    if (this.#stopPromise !== undefined) return this.#stopPromise;
    if (this.#status === 'idle' || this.#status === 'stopped') return Promise.resolve();
    // A start that is still running ends here; its failure path owns the stop promise.
    if (this.#status === 'starting' && this.#startAttempt !== undefined) return this.#startAttempt.fail('stopped', 'SIGTERM');

    this.#stopPromise = this.#terminateStartedChild().finally(() => {
      this.#stopPromise = undefined;
    });
    return this.#stopPromise;
  }

  /** Called when a started child exits without `stop()` being asked. Returns an unsubscribe function. */
  onUnexpectedExit(listener: UnexpectedExitListener): () => void {
    this.#unexpectedExitListeners.add(listener);
    return () => {
      this.#unexpectedExitListeners.delete(listener);
    };
  }

  async #terminateStartedChild(): Promise<void> {
    const child = this.#child;
    const closed = this.#closed;
    this.#status = 'stopping';
    if (child === undefined || closed === undefined) {
      this.#status = 'stopped';
      return;
    }
    await signalAndAwaitClose(child, closed, 'SIGTERM', this.#options.stopTimeoutMs ?? 5_000);
    this.#status = 'stopped';
  }

  #spawnAndAwaitReady(): Promise<TReady> {
    const options = this.#options;
    const args = options.args ?? [];
    try {
      mkdirSync(dirname(this.logFile), { recursive: true });
    } catch (error) {
      return Promise.reject(error);
    }
    this.#status = 'starting';
    this.#outputTail = [];
    const log = createWriteStream(this.logFile, { flags: 'a' });
    log.on('error', (error) => {
      this.#keepOutputLine({ stream: 'stderr', text: `[${this.name}] cannot write log file: ${error.message}` });
    });
    log.write(`--- ${new Date().toISOString()} ${this.name}: ${[options.command, ...args].join(' ')}\n`);

    // dies with this process even when it is killed with SIGKILL (no exit handler runs then)
    const parentExitSignal = options.signalOnParentExit ?? 'SIGKILL';
    const spawned = spawnDyingWithParent(options.command, args, parentExitSignal);
    const child = spawn(spawned.command, spawned.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const reapedPid = spawned.diesWithParent ? undefined : child.pid;
    // Resolves once the child has exited, its output is read and the log file is flushed.
    let resolveClosed: (exit: ChildProcessExit) => void = () => {};
    const closed = new Promise<ChildProcessExit>((resolve) => {
      resolveClosed = resolve;
    });
    this.#child = child;
    this.#closed = closed;

    let spawnError: Error | undefined;
    child.once('error', (error) => {
      spawnError = error;
    });

    const liveChild: LiveChildProcess = {
      stop: () => this.stop(),
      signalOnParentExit: () => child.kill(parentExitSignal),
    };
    if (child.pid !== undefined) registerLiveChildProcess(liveChild);
    // without setpriv: the reaper process does what the kernel's parent-death signal does
    if (reapedPid !== undefined) reapWhenThisProcessDies(reapedPid);

    let readyValue: { value: TReady } | undefined;
    let lastProbeError: unknown;
    let settled = false;
    const probeAbort = new AbortController();

    const promise = new Promise<TReady>((resolveStart, rejectStart) => {
      const startTimeoutMs = options.startTimeoutMs ?? 10_000;
      const timeout = setTimeout(() => {
        const progress =
          readyValue === undefined
            ? 'the ready line was never printed'
            : `the ready line was printed but the probe kept failing: ${describeError(lastProbeError)}`;
        void fail('timeout', 'SIGKILL', lastProbeError, `${this.name} did not become ready within ${startTimeoutMs} ms: ${progress}.`);
      }, startTimeoutMs);

      const fail = (
        reason: ChildProcessStartFailure,
        signal: NodeJS.Signals,
        cause?: unknown,
        summary?: string,
      ): Promise<void> => {
        if (settled) return this.#stopPromise ?? Promise.resolve();
        settled = true;
        this.#startAttempt = undefined;
        clearTimeout(timeout);
        probeAbort.abort();
        this.#status = 'stopping';
        const stopping = signalAndAwaitClose(child, closed, signal, options.stopTimeoutMs ?? 5_000).then((exit) => {
          this.#status = 'stopped';
          rejectStart(
            new ChildProcessStartError({
              instanceName: this.name,
              reason,
              summary: summary ?? this.#describeStartFailure(reason, exit, options.command, cause),
              exit,
              lastOutputLines: this.lastOutputLines,
              logFile: this.logFile,
              cause,
            }),
          );
        });
        this.#stopPromise = stopping.finally(() => {
          this.#stopPromise = undefined;
        });
        return this.#stopPromise;
      };
      this.#startAttempt = { fail: (reason, signal) => fail(reason, signal) };

      const becomeReady = async (value: TReady): Promise<void> => {
        const probe = options.probeReady;
        while (probe !== undefined && !settled) {
          try {
            await probe(value, { signal: probeAbort.signal });
            break;
          } catch (error) {
            lastProbeError = error;
            await pause(options.probeRetryDelayMs ?? 25);
          }
        }
        if (settled) return;
        settled = true;
        this.#startAttempt = undefined;
        clearTimeout(timeout);
        this.#status = 'started';
        resolveStart(value);
      };

      const onLine = (text: string, stream: OutputStreamName): void => {
        this.#keepOutputLine({ stream, text });
        if (readyValue !== undefined || settled) return;
        if (options.readyLine === undefined) return;
        let matched: TReady | undefined;
        try {
          matched = options.readyLine(text, stream);
        } catch (error) {
          void fail('ready-check-failed', 'SIGKILL', error);
          return;
        }
        if (matched === undefined) return;
        readyValue = { value: matched };
        void becomeReady(matched);
      };

      const stdoutLines = splitIntoLines((line) => onLine(line, 'stdout'));
      const stderrLines = splitIntoLines((line) => onLine(line, 'stderr'));
      child.stdout.setEncoding('utf8');
      child.stderr.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        log.write(chunk);
        stdoutLines.push(chunk);
      });
      child.stderr.on('data', (chunk: string) => {
        log.write(chunk);
        stderrLines.push(chunk);
      });

      if (options.readyAtSpawn !== undefined && child.pid !== undefined) {
        readyValue = { value: options.readyAtSpawn };
        void becomeReady(options.readyAtSpawn);
      }

      child.once('close', (exitCode, signal) => {
        stdoutLines.flush();
        stderrLines.flush();
        log.end(`--- ${new Date().toISOString()} ${this.name} exited (${describeExit({ exitCode, signal })})\n`);
        finished(log, () => resolveClosed({ exitCode, signal }));
        unregisterLiveChildProcess(liveChild);
        if (reapedPid !== undefined) stopReaping(reapedPid);
        if (this.#child === child) this.#child = undefined;
        if (!settled) {
          void fail(spawnError === undefined ? 'exited' : 'spawn-failed', 'SIGKILL', spawnError);
          return;
        }
        if (this.#status === 'started') {
          this.#status = 'stopped';
          void closed.then((exit) => this.#notifyUnexpectedExit(exit, child.pid));
        }
      });
    });
    return promise;
  }

  #keepOutputLine(line: OutputLine): void {
    this.#outputTail.push(line);
    const kept = this.#options.keptOutputLines ?? 50;
    if (this.#outputTail.length > kept) this.#outputTail.splice(0, this.#outputTail.length - kept);
  }

  #describeStartFailure(
    reason: ChildProcessStartFailure,
    exit: ChildProcessExit,
    command: string,
    cause: unknown,
  ): string {
    switch (reason) {
      case 'exited':
        return `${this.name} exited during start (${describeExit(exit)}).`;
      case 'spawn-failed':
        return `${this.name} could not be spawned (${command}): ${describeError(cause)}.`;
      case 'ready-check-failed':
        return `${this.name}: the ready-line check threw: ${describeError(cause)}.`;
      case 'stopped':
        return `${this.name} was stopped before it became ready.`;
      case 'timeout':
        return `${this.name} did not become ready in time.`;
    }
  }

  #notifyUnexpectedExit(exit: ChildProcessExit, pid: number | undefined): void {
    const event: UnexpectedExit = {
      ...exit,
      name: this.name,
      pid,
      lastOutputLines: this.lastOutputLines,
      logFile: this.logFile,
    };
    for (const listener of [...this.#unexpectedExitListeners]) listener(event);
  }
}

/** Sends `signal` unless the child already exited, escalates to SIGKILL after `killAfterMs`, waits for close. */
async function signalAndAwaitClose(
  child: ChildProcessByStdio<null, Readable, Readable>,
  closed: Promise<ChildProcessExit>,
  signal: NodeJS.Signals,
  killAfterMs: number,
): Promise<ChildProcessExit> {
  const alive = child.pid !== undefined && child.exitCode === null && child.signalCode === null;
  if (!alive) return closed;
  child.kill(signal);
  const escalation = signal === 'SIGKILL' ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  const exit = await closed;
  clearTimeout(escalation);
  return exit;
}

function describeExit(exit: ChildProcessExit): string {
  return exit.signal !== null ? `killed by ${exit.signal}` : `exit code ${String(exit.exitCode)}`;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function pause(ms: number): Promise<void> {
  return new Promise((resolvePause) => setTimeout(resolvePause, ms));
}
