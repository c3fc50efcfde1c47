/**
 * Compiles the simulator's contracts (`fixtures/contracts/*.sol`) offline with the npm `solc`
 * package and renders them as a TypeScript module of typed artifacts.
 *
 * Usage: `npm run compile-contracts` (= `tsx scripts/compile-contracts.ts`) rewrites
 * `fixtures/contracts/artifacts.generated.ts`. `test/contracts/artifactsDrift.test.ts` checks that
 * the committed module still matches the sources (compiled once per change of their inputs:
 * scripts/compiledContractsCache.ts).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

type Solc = { compile(input: string, options: { import: (path: string) => { error: string } }): string; version(): string };
// loaded on the first compile (~1 s of CPU): a test that finds the compile in its cache
// (scripts/compiledContractsCache.ts) never loads it
const loadSolc = (): Solc => createRequire(import.meta.url)('solc') as Solc;

export const contractsDir = fileURLToPath(new URL('../fixtures/contracts/', import.meta.url));
export const artifactsPath = fileURLToPath(
  new URL('../fixtures/contracts/artifacts.generated.ts', import.meta.url),
);

export type AbiItem = Record<string, unknown>;

export interface CompiledContract {
  contractName: string;
  sourceName: string;
  abi: AbiItem[];
  bytecode: `0x${string}`;
  deployedBytecode: `0x${string}`;
}

export interface CompiledContracts {
  /** Full solc version string, e.g. `0.8.37+commit.….Emscripten.clang`. */
  solcVersion: string;
  /** Sorted by contract name. */
  contracts: CompiledContract[];
  /** Formatted solc warnings (not rendered into the module). */
  warnings: string[];
}

interface SolcError {
  severity: 'error' | 'warning' | 'info';
  type: string;
  message: string;
  formattedMessage?: string;
}

interface SolcOutput {
  errors?: SolcError[];
  contracts?: Record<
    string,
    Record<
      string,
      {
        abi: AbiItem[];
        evm: { bytecode: { object: string }; deployedBytecode: { object: string } };
      }
    >
  >;
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Reads every `*.sol` file of `dir` (sorted by file name), keyed by bare file name. */
export function readSources(dir: string = contractsDir): Record<string, string> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sol'))
    .sort(compare);
  if (files.length === 0) throw new Error(`no .sol files in ${dir}`);
  const sources: Record<string, string> = {};
  for (const f of files) sources[f] = readFileSync(`${dir}/${f}`, 'utf8');
  return sources;
}

/**
 * Compiles all sources (standard JSON, optimizer 200 runs, evmVersion cancun). Source units are
 * named by bare file name so the metadata hash in the bytecode does not depend on the checkout path.
 */
export function compileContracts(dir: string = contractsDir): CompiledContracts {
  const sources = readSources(dir);
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(
      Object.entries(sources).map(([name, content]) => [name, { content }]),
    ),
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: {
        '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] },
      },
    },
  };
  const solc = loadSolc();
  const output = JSON.parse(
    solc.compile(JSON.stringify(input), {
      import: (path: string) => ({ error: `imports are not supported (${path})` }),
    }) as string,
  ) as SolcOutput;

  const format = (e: SolcError): string => e.formattedMessage ?? `${e.type}: ${e.message}`;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  const warnings = (output.errors ?? []).filter((e) => e.severity === 'warning').map(format);
  if (errors.length > 0) {
    throw new Error(
      `solc compilation failed:\n${errors.map(format).join('\n')}`,
    );
  }

  const contracts: CompiledContract[] = [];
  const seen = new Set<string>();
  for (const sourceName of Object.keys(output.contracts ?? {}).sort(compare)) {
    const unit = output.contracts?.[sourceName] ?? {};
    for (const contractName of Object.keys(unit).sort(compare)) {
      const c = unit[contractName];
      if (!c) continue;
      if (seen.has(contractName)) {
        throw new Error(`duplicate contract name ${contractName} (in ${sourceName})`);
      }
      seen.add(contractName);
      const bytecode = c.evm.bytecode.object;
      const deployedBytecode = c.evm.deployedBytecode.object;
      // an interface (or abstract contract) compiles to nothing deployable: no artifact
      if (bytecode === '') continue;
      if (!/^[0-9a-f]*$/.test(bytecode) || !/^[0-9a-f]*$/.test(deployedBytecode)) {
        throw new Error(`${contractName}: bytecode has unlinked library references`);
      }
      contracts.push({
        contractName,
        sourceName,
        abi: c.abi,
        bytecode: `0x${bytecode}`,
        deployedBytecode: `0x${deployedBytecode}`,
      });
    }
  }
  contracts.sort((a, b) => compare(a.contractName, b.contractName));
  return { solcVersion: solc.version() as string, contracts, warnings };
}

/** `ServiceReceiver` → `serviceReceiverArtifact`. */
export function artifactConstName(contractName: string): string {
  return `${contractName.charAt(0).toLowerCase()}${contractName.slice(1)}Artifact`;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function quote(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

/** Stable TS literal: object keys sorted, two-space indentation, single quotes. */
function renderValue(value: unknown, indent: string): string {
  const inner = `${indent}  `;
  if (value === null) return 'null';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => `${inner}${renderValue(v, inner)},\n`).join('')}${indent}]`;
  }
  if (typeof value === 'object') {
    const keys = Object.keys(value).sort(compare);
    if (keys.length === 0) return '{}';
    const rec = value as Record<string, unknown>;
    return `{\n${keys
      .map((k) => `${inner}${IDENT.test(k) ? k : quote(k)}: ${renderValue(rec[k], inner)},\n`)
      .join('')}${indent}}`;
  }
  throw new Error(`cannot render ${typeof value}`);
}

/** Renders the artifacts module; identical input always yields identical bytes. */
export function renderArtifactsModule(compiled: CompiledContracts): string {
  const contracts = [...compiled.contracts].sort((a, b) => compare(a.contractName, b.contractName));
  const lines: string[] = [
    '// This file is generated by `npm run compile-contracts` (scripts/compile-contracts.ts)',
    '// from fixtures/contracts/*.sol. Do not edit it by hand; edit the sources and regenerate.',
    `// solc ${compiled.solcVersion}, optimizer 200 runs, evmVersion cancun.`,
    '/* eslint-disable */',
    '',
  ];
  for (const c of contracts) {
    lines.push(
      `/** \`${c.contractName}\` from fixtures/contracts/${c.sourceName}. */`,
      `export const ${artifactConstName(c.contractName)} = {`,
      `  contractName: ${quote(c.contractName)},`,
      `  sourceName: ${quote(c.sourceName)},`,
      `  abi: ${renderValue(c.abi, '  ')} as const,`,
      `  bytecode: ${quote(c.bytecode)} as const,`,
      `  deployedBytecode: ${quote(c.deployedBytecode)} as const,`,
      '} as const;',
      '',
    );
  }
  lines.push(
    '/** All artifacts, keyed by contract name. */',
    'export const contractArtifacts = {',
    ...contracts.map((c) => `  ${c.contractName}: ${artifactConstName(c.contractName)},`),
    '} as const;',
    '',
    'export type ContractName = keyof typeof contractArtifacts;',
    '',
  );
  return lines.join('\n');
}

function main(): void {
  const compiled = compileContracts();
  for (const w of compiled.warnings) console.warn(w);
  writeFileSync(artifactsPath, renderArtifactsModule(compiled));
  console.log(
    `wrote ${artifactsPath}: ${compiled.contracts.map((c) => c.contractName).join(', ')} (solc ${compiled.solcVersion})`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main();
}
