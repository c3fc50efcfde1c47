import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ChainError, ConfigurationError, IntentsimError, LifecycleError, ProcessError } from '../../src/errors/IntentsimError';
import { SimulatorError } from '../../src/errors/SimulatorError';
import { typeScriptFilesUnder } from '../support/typeScriptFilesUnder';

/** Errors that must extend a library's class instead, each with why. */
const EXCEPTIONS: Record<string, string> = {
  'src/errors/upstreamRpcErrors.ts: QuoteRpcFault': "a viem RpcError, so viem's transport passes it through without retrying",
};

describe('one error hierarchy', () => {
  it('every error class exported from src/ descends from IntentsimError', async () => {
    const errorClasses: Array<{ file: string; name: string; cls: Function }> = [];
    // the CLI entry and the test runners' isolation setup files (they register hooks) run on import; everything else is side-effect free
    for (const file of typeScriptFilesUnder('src').filter((f) => !f.endsWith('cli.ts') && !/testRunners[\\/]\w+Isolate\.ts$/.test(f))) {
      const module = (await import(pathToFileURL(join(process.cwd(), file)).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        if (typeof value === 'function' && value.prototype instanceof Error) errorClasses.push({ file: relative('.', file), name, cls: value });
      }
    }
    expect(errorClasses.length).toBeGreaterThan(30);
    const strays = errorClasses.filter(
      (entry) => !(entry.cls.prototype instanceof IntentsimError) && entry.cls !== IntentsimError && !EXCEPTIONS[`${entry.file}: ${entry.name}`],
    );
    expect(strays.map((entry) => `${entry.file}: ${entry.name}`)).toEqual([]);
  }, 60_000);

  it('API errors and the internal areas are separate branches with the names and messages they were made with', () => {
    const api = new SimulatorError('SOME_CODE', 400, 'short', { details: 'for logs', cause: new Error('root') });
    expect(api).toBeInstanceOf(IntentsimError);
    expect(api).toMatchObject({ name: 'SimulatorError', shortMessage: 'short', message: 'short', details: 'for logs', errorCode: 'SOME_CODE', httpStatus: 400 });
    expect((api.cause as Error).message).toBe('root');
    for (const Area of [ConfigurationError, ProcessError, ChainError, LifecycleError]) {
      const error = new Area('went wrong');
      expect(error).toBeInstanceOf(IntentsimError);
      expect(error).not.toBeInstanceOf(SimulatorError);
      expect(error.name).toBe(Area.name);
    }
  });
});
