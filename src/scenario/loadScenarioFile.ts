import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { isMap, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { IntentsimError } from '../errors/IntentsimError';
import { ScenarioHeaderSchema, STEP_KINDS, STEP_SCHEMAS, type Scenario, type ScenarioStep, type StepKind } from './scenarioSchema';

/** A scenario file that cannot be run: names the file, the line and the field. */
export class ScenarioFileError extends IntentsimError {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly field: string,
    problem: string,
  ) {
    super(`${file}${line === undefined ? '' : `:${line}`}: ${field ? `${field}: ` : ''}${problem}`);
  }
}

type Path = Array<string | number>;

function lineOf(doc: Document, counter: LineCounter, path: Path): number | undefined {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
    if (node && typeof node === 'object' && node.range) return counter.linePos(node.range[0]).line;
  }
  return undefined;
}

function fieldName(path: Path): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('');
}

/** Parses and validates one scenario file (YAML). Throws ScenarioFileError naming the file, line and field. */
export function loadScenarioFile(file: string, text: string = readFileSync(file, 'utf8')): Scenario {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false });
  const firstError = doc.errors[0];
  if (firstError) throw new ScenarioFileError(file, counter.linePos(firstError.pos[0]).line, '', `not valid YAML: ${firstError.message.split('\n')[0]}`);
  const fail = (path: Path, problem: string): never => {
    throw new ScenarioFileError(file, lineOf(doc, counter, path), fieldName(path), problem);
  };
  const check = <S extends z.ZodType>(schema: S, value: unknown, at: Path): z.output<S> => {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0]!;
    return fail([...at, ...(issue.path as Path)], issue.message);
  };

  const header = check(ScenarioHeaderSchema, doc.toJS(), []);
  const steps = header.steps.map((raw, index): ScenarioStep => {
    const at: Path = ['steps', index];
    const line = lineOf(doc, counter, at) ?? 0;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return fail(at, `a step is an object with one key, its kind (${STEP_KINDS.join(', ')})`);
    const keys = Object.keys(raw);
    if (keys.length !== 1) return fail(at, `a step has exactly one key, its kind; found ${keys.length === 0 ? 'none' : keys.join(', ')}`);
    const kind = keys[0] as StepKind;
    if (!STEP_KINDS.includes(kind)) return fail([...at, kind], `unknown step kind; one of ${STEP_KINDS.join(', ')}`);
    const spec = check(STEP_SCHEMAS[kind], (raw as Record<string, unknown>)[kind], [...at, kind]);
    return { kind, line, spec } as ScenarioStep;
  });
  const aliases = new Set<string>();
  const contractNames = new Set<string>();
  steps.forEach((step, index) => {
    if (step.kind === 'deployContract') {
      if (contractNames.has(step.spec.as)) fail(['steps', index, step.kind, 'as'], `"${step.spec.as}" names another contract already`);
      contractNames.add(step.spec.as);
    }
    const newName = step.kind === 'quote' || step.kind === 'deposit' ? step.spec.as : undefined;
    const named = step.kind === 'deposit' || step.kind === 'expect' ? step.spec.request : step.kind === 'solverRule' ? step.spec.match.request : undefined;
    if (named !== undefined && !aliases.has(named)) fail(['steps', index, step.kind, step.kind === 'solverRule' ? 'match' : 'request'], `no earlier quote is named "${named}"`);
    if (newName !== undefined) {
      if (aliases.has(newName)) fail(['steps', index, step.kind, 'as'], `"${newName}" names another request already`);
      aliases.add(newName);
    }
  });
  for (const id of Object.keys(header.fork ?? {})) {
    if (header.chains !== undefined && !header.chains.includes(Number(id))) fail(['fork', id], `chain ${id} is not one of the scenario's chains (${header.chains.join(', ')})`);
  }
  steps.forEach((step, index) => {
    if ((step.kind === 'solverAsUpstream' || step.kind === 'restoreDepositFunds') && header.fork?.[String(step.spec.chainId)] === undefined) fail(['steps', index, step.kind, 'chainId'], `chain ${step.spec.chainId} is not forked (name it in fork:)`);
  });
  return {
    file,
    name: header.name ?? basename(file).replace(/\.ya?ml$/, ''),
    description: header.description,
    covers: header.covers,
    chains: header.chains,
    seed: header.seed,
    config: header.config,
    webhook: header.webhook,
    fork: header.fork,
    stepBounds: header.stepBounds,
    steps,
  };
}

/** The document of a scenario file, for `--update` to rewrite expectations in place. */
export function scenarioDocument(text: string): Document {
  const doc = parseDocument(text);
  if (!isMap(doc.contents)) throw new Error('a scenario file is a YAML mapping');
  return doc;
}
