import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The program of the snippet host: plain node in the user's project, it runs each snippet it is
 * sent (an ES module file, by IPC) with the environment it is given, one at a time, and answers
 * with what the snippet wrote to stdout or the error it threw. The packages the snippets import
 * (intentsim, viem, the SDK, express) load once for all of them instead of once per snippet.
 */
const HOST_PROGRAM = `
import { pathToFileURL } from 'node:url';
const startEnv = { ...process.env };
const write = process.stdout.write.bind(process.stdout);
let captured;
process.stdout.write = (chunk, ...rest) => {
  if (captured === undefined) return write(chunk, ...rest);
  captured += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  rest.find((arg) => typeof arg === 'function')?.();
  return true;
};
// once disconnected the host ends when nothing is left running; what still runs is named on stderr
process.on('disconnect', () => setTimeout(() => console.error(\`still running: \${process.getActiveResourcesInfo().join(', ')}\`), 3000).unref());
let queue = Promise.resolve();
process.on('message', ({ id, file, env }) => {
  queue = queue.then(async () => {
    for (const name of Object.keys(process.env)) if (!(name in startEnv)) delete process.env[name];
    Object.assign(process.env, startEnv, env);
    captured = '';
    let error;
    try {
      await import(pathToFileURL(file).href);
    } catch (thrown) {
      error = String(thrown?.stack ?? thrown);
    }
    const stdout = captured;
    captured = undefined;
    process.send({ id, stdout, error });
  });
});
`;

export interface SnippetHost {
  /** Runs one snippet (an ES module file in the project) with `env` added to the host's environment; resolves to its stdout. */
  run(file: string, env: Record<string, string>, timeoutMs: number): Promise<string>;
  /**
   * Disconnects and waits for the host to end on its own: it ends only when no snippet left
   * anything running (a server, a socket, a timer, a child process). Resolves to its exit code,
   * or 'still running' (then killed) when it has not ended within `timeoutMs`.
   */
  close(timeoutMs: number): Promise<{ code: number | null | 'still running'; stderr: string }>;
}

/** Starts the snippet host in `projectDir` (where the snippets' imports resolve). */
export function startSnippetHost(projectDir: string, env: Record<string, string | undefined>): SnippetHost {
  const program = join(projectDir, 'snippet-host.mjs');
  writeFileSync(program, HOST_PROGRAM);
  const child: ChildProcess = spawn(process.execPath, [program], { cwd: projectDir, env, stdio: ['ignore', 'inherit', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const waiting = new Map<number, (answer: { stdout: string; error?: string }) => void>();
  child.on('message', (answer: { id: number; stdout: string; error?: string }) => waiting.get(answer.id)?.(answer));
  let nextId = 0;
  return {
    async run(file, runEnv, timeoutMs) {
      const id = nextId++;
      const answered = new Promise<{ stdout: string; error?: string }>((done) => waiting.set(id, done));
      child.send({ id, file, env: runEnv });
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        answered,
        exited.then((code) => ({ stdout: '', error: `the snippet host exited (${code}): ${stderr}` })),
        new Promise<{ stdout: string; error: string }>((done) => (timer = setTimeout(() => done({ stdout: '', error: `${file} did not finish within ${timeoutMs} ms` }), timeoutMs))),
      ]);
      clearTimeout(timer);
      waiting.delete(id);
      if (outcome.error !== undefined) throw new Error(`${outcome.error}\nstdout: ${outcome.stdout}\nstderr: ${stderr}`);
      return outcome.stdout;
    },
    async close(timeoutMs) {
      if (child.connected) child.disconnect();
      let timer: NodeJS.Timeout | undefined;
      const code = await Promise.race([exited, new Promise<'still running'>((done) => (timer = setTimeout(() => done('still running'), timeoutMs)))]);
      clearTimeout(timer);
      if (code === 'still running') {
        child.kill('SIGKILL');
        await exited;
      }
      return { code, stderr };
    },
  };
}
