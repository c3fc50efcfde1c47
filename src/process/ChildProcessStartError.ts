import { ProcessError } from '../errors/IntentsimError';

export type OutputStreamName = 'stdout' | 'stderr';

export type OutputLine = { stream: OutputStreamName; text: string };

export type ChildProcessExit = {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
};

export type ChildProcessStartFailure = 'timeout' | 'exited' | 'spawn-failed' | 'ready-check-failed' | 'stopped';

const linesShownInErrors = 20;

/** A start that failed: why, how the child ended, its last output lines and its log file. */
export class ChildProcessStartError extends ProcessError {
  override readonly name = 'ChildProcessStartError';
  readonly instanceName: string;
  readonly reason: ChildProcessStartFailure;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly lastOutputLines: readonly OutputLine[];
  readonly logFile: string;

  constructor(details: {
    instanceName: string;
    reason: ChildProcessStartFailure;
    summary: string;
    exit: ChildProcessExit;
    lastOutputLines: readonly OutputLine[];
    logFile: string;
    cause?: unknown;
  }) {
    const shownLines = details.lastOutputLines.slice(-linesShownInErrors);
    const outputSection =
      shownLines.length === 0
        ? 'No output.'
        : [`Last ${shownLines.length} output lines:`, ...shownLines.map((line) => `  [${line.stream}] ${line.text}`)].join('\n');
    super(`${details.summary}\n${outputSection}\nLog file: ${details.logFile}`, { cause: details.cause });
    this.instanceName = details.instanceName;
    this.reason = details.reason;
    this.exitCode = details.exit.exitCode;
    this.signal = details.exit.signal;
    this.lastOutputLines = details.lastOutputLines;
    this.logFile = details.logFile;
  }
}
