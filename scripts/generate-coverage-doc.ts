/**
 * `npm run coverage-doc`: writes docs/coverage.md, the interface's items and the tests and
 * scenarios that declare they cover them (docs/testing.md, "Coverage of SPEC items").
 *
 * The items come from docs/interface-items.json (the project's own copy of what the SPEC lists,
 * written by scripts/extract-interface-items.ts), the transitions from `TRANSITIONS` of
 * src/domain/request/transitions.ts, as `<from>-><to>`.
 *
 * Annotations: a line comment `// covers: kind:item, kind:item` anywhere in `test/**\/*.test.ts`,
 * or a top-level `covers:` list of `kind:item` strings in `scenarios/**\/*.yaml`.
 *
 * A status or a transition counts only where a running simulator reaches it: in a scenario, or
 * in a test file that starts a simulator (`drivesSimulator`), and there the vitest setup
 * `test/support/reachedTransitions.setup.ts` fails the file when an annotated status or transition
 * was not reached during its run. Tests of the table itself count for nothing.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { TRANSITIONS, UNREACHED_TRANSITIONS } from '../src/domain/request/transitions';
import { allChecks, type ConformanceCheck } from '../conformance';
import { allDeviations } from '../test/conformance/deviations';
import { compareText, INTERFACE_ITEM_KINDS, type InterfaceItems, uniqueSorted } from './extract-interface-items';
import { CHAIN_KIND_TITLES, CHAIN_KINDS, chainKindsOf } from './coverageChainKinds';
import type { VmType } from '../src/domain/chain/chainDescription';

export const COVERAGE_KINDS = ['endpoint', 'operation', 'status', 'transition', 'failReason', 'refundFailReason', 'errorCode', 'limit', 'field'] as const;
export type CoverageKind = (typeof COVERAGE_KINDS)[number];

export type SpecItems = Record<CoverageKind, string[]>;

export interface SourceFile {
  /** Repository-relative path with forward slashes. */
  path: string;
  text: string;
}

export interface Annotation {
  /** The annotation as written, e.g. `status:success`. */
  raw: string;
  kind: string;
  item: string;
  file: string;
  /** The chain kinds its file reaches items on (scripts/coverageChainKinds.ts). */
  chainKinds: VmType[];
}

const KIND_TITLES: Record<CoverageKind, string> = {
  endpoint: 'Endpoints',
  operation: 'Named operations without a path (§4.7)',
  status: 'Statuses (§3)',
  transition: 'Transitions (src/domain/request/transitions.ts)',
  failReason: 'failReason values (§7.3)',
  refundFailReason: 'refundFailReason values (§7.4)',
  errorCode: 'Error codes (§7.1)',
  limit: 'Limits (§8)',
  field: 'Request record fields (§2.3)',
};

// ---------------------------------------------------------------------------------------------
// Annotations

const KIND_PREFIX = /^([A-Za-z]+):(.*)$/;
/** Annotations are comma-separated, but an item may hold commas: split only before `kind:`. */
const ANNOTATION_SEPARATOR = /,\s*(?=[A-Za-z]+:)/;

function parseAnnotation(raw: string, file: string, chainKinds: VmType[]): Annotation {
  const text = raw.trim();
  const match = KIND_PREFIX.exec(text);
  if (!match) return { raw: text, kind: '', item: text, file, chainKinds };
  return { raw: text, kind: match[1]!, item: match[2]!.trim(), file, chainKinds };
}

/** Kinds that count only where a running simulator reaches them. */
export const REACHED_KINDS: readonly string[] = ['status', 'transition'];

/** A test file that starts a simulator or takes its worker's shared one (and so can reach statuses for real). */
export function drivesSimulator(file: SourceFile): boolean {
  return /\.ya?ml$/.test(file.path) || /\b(start(Test)?Simulator|sharedTestSimulator)\(/.test(file.text);
}

/** Every `covers:` annotation of the given test files and scenario files. */
export function collectCoverage(files: readonly SourceFile[]): Annotation[] {
  const annotations: Annotation[] = [];
  for (const file of files) {
    if (/\.ya?ml$/.test(file.path)) {
      let parsed: unknown;
      try {
        parsed = parseYaml(file.text);
      } catch (error) {
        throw new Error(`${file.path}: not valid YAML (${error instanceof Error ? error.message : String(error)})`);
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) continue;
      const covers = (parsed as Record<string, unknown>).covers;
      if (covers === undefined) continue;
      if (!Array.isArray(covers) || covers.some((entry) => typeof entry !== 'string')) {
        throw new Error(`${file.path}: "covers" must be a list of "kind:item" strings`);
      }
      const chainKinds = chainKindsOf(file);
      for (const entry of covers as string[]) annotations.push(parseAnnotation(entry, file.path, chainKinds));
      continue;
    }
    const matches = [...file.text.matchAll(/^[ \t]*\/\/[ \t]*covers:(.*)$/gm)];
    const chainKinds = matches.length > 0 ? chainKindsOf(file) : [];
    for (const match of matches) {
      for (const part of match[1]!.split(ANNOTATION_SEPARATOR)) {
        if (part.trim()) annotations.push(parseAnnotation(part, file.path, chainKinds));
      }
    }
  }
  return annotations;
}

// ---------------------------------------------------------------------------------------------
// Rendering

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** docs/coverage.md, from the SPEC items and the annotations. Deterministic: everything sorted. */
export function renderCoverageDoc(items: SpecItems, annotations: readonly Annotation[], unreached: Readonly<Record<string, string>> = {}): string {
  const coveredBy = new Map<string, Set<string>>();
  const unknown = new Map<string, Set<string>>();
  /** Per covered item: the files that reach it on each chain kind. */
  const byKind = new Map<string, Map<VmType, Set<string>>>();
  const known = new Set(COVERAGE_KINDS.flatMap((kind) => items[kind].map((item) => `${kind}:${item}`)));
  for (const annotation of annotations) {
    const key = `${annotation.kind}:${annotation.item}`;
    const target = known.has(key) ? coveredBy : unknown;
    const name = known.has(key) ? key : annotation.raw;
    if (!target.has(name)) target.set(name, new Set());
    target.get(name)!.add(annotation.file);
    if (!known.has(key)) continue;
    if (!byKind.has(key)) byKind.set(key, new Map());
    for (const chainKind of annotation.chainKinds) {
      const kinds = byKind.get(key)!;
      if (!kinds.has(chainKind)) kinds.set(chainKind, new Set());
      kinds.get(chainKind)!.add(annotation.file);
    }
  }
  const reachedOn = (key: string, chainKind: VmType) => byKind.get(key)?.get(chainKind)?.size ?? 0;
  const files = (set: Set<string> | undefined) => [...(set ?? [])].sort(compareText).map((f) => `\`${f}\``).join(', ');

  const out: string[] = [];
  out.push('# SPEC coverage');
  out.push('');
  out.push('<!-- Generated by `npm run coverage-doc` (scripts/generate-coverage-doc.ts). Do not edit. -->');
  out.push('');
  out.push('Generated by `npm run coverage-doc` from `docs/interface-items.json` and the `covers:` annotations of');
  out.push('`test/**/*.test.ts` and `scenarios/**/*.yaml` (see docs/testing.md). Do not edit by hand: change');
  out.push('the annotations and run `npm run coverage-doc`. Annotation names: `endpoint:<METHOD> <path>`, `operation:<name>`,');
  out.push('`status:<status>`, `transition:<from>-><to>`, `failReason:<value>`, `refundFailReason:<value>`,');
  out.push('`errorCode:<code>`, `limit:<Limit> @ <Applies to>` (the two columns of the §8 table), `field:<name>`');
  out.push('(a top-level field of the §2.3 request record, set by the behaviour the test drives). A status or a');
  out.push('transition counts only where a running simulator reaches it (a scenario, or a test that starts a');
  out.push('simulator and, at the end of its run, is checked to have reached every status and transition it names).');
  out.push('');
  out.push(`The columns ${CHAIN_KINDS.map((chainKind) => CHAIN_KIND_TITLES[chainKind]).join(', ')} count the files that reach an item on a chain of that kind (vmType`);
  out.push(`${CHAIN_KINDS.join(', ')}): a scenario on the chains of its \`chains:\` and of the chain ids its steps name; a test file on`);
  out.push('those its `// chain kinds:` line declares, else the non-EVM chains it names and EVM (see scripts/coverageChainKinds.ts).');
  out.push('"—" is a kind that reaches it nowhere: a failReason with a count under EVM only is covered on EVM only.');
  out.push('');
  out.push('## Summary');
  out.push('');
  out.push(`| Kind | Covered | ${CHAIN_KINDS.map((chainKind) => CHAIN_KIND_TITLES[chainKind]).join(' | ')} | Total |`);
  out.push(`|---|---|${CHAIN_KINDS.map(() => '---|').join('')}---|`);
  let coveredTotal = 0;
  let total = 0;
  const kindTotals = new Map<VmType, number>();
  for (const kind of COVERAGE_KINDS) {
    const covered = items[kind].filter((item) => coveredBy.has(`${kind}:${item}`)).length;
    coveredTotal += covered;
    total += items[kind].length;
    const perKind = CHAIN_KINDS.map((chainKind) => {
      const count = items[kind].filter((item) => reachedOn(`${kind}:${item}`, chainKind) > 0).length;
      kindTotals.set(chainKind, (kindTotals.get(chainKind) ?? 0) + count);
      return count;
    });
    out.push(`| ${kind} | ${covered} | ${perKind.join(' | ')} | ${items[kind].length} |`);
  }
  out.push(`| **all** | **${coveredTotal}** | ${CHAIN_KINDS.map((chainKind) => `**${kindTotals.get(chainKind) ?? 0}**`).join(' | ')} | **${total}** |`);

  for (const kind of COVERAGE_KINDS) {
    out.push('');
    out.push(`## ${KIND_TITLES[kind]}`);
    out.push('');
    out.push(`| Item | ${CHAIN_KINDS.map((chainKind) => CHAIN_KIND_TITLES[chainKind]).join(' | ')} | Covered by |`);
    out.push(`|---|${CHAIN_KINDS.map(() => '---|').join('')}---|`);
    for (const item of items[kind]) {
      const by = coveredBy.get(`${kind}:${item}`);
      const notYet = kind === 'transition' ? unreached[item] : undefined;
      const counts = CHAIN_KINDS.map((chainKind) => reachedOn(`${kind}:${item}`, chainKind) || '—').join(' | ');
      out.push(`| \`${escapeCell(item)}\` | ${counts} | ${by ? escapeCell(files(by)) : notYet ? `not reached yet (${escapeCell(notYet)})` : 'not covered'} |`);
    }
  }

  out.push('');
  out.push('## Annotations that match no SPEC item');
  out.push('');
  if (unknown.size === 0) {
    out.push('None.');
  } else {
    out.push('| Annotation | In |');
    out.push('|---|---|');
    for (const name of [...unknown.keys()].sort(compareText)) {
      out.push(`| \`${escapeCell(name)}\` | ${escapeCell(files(unknown.get(name)))} |`);
    }
  }
  out.push('');
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------
// I/O

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** docs/interface-items.json: the project's own list of what the interface's SPEC names. */
export function interfaceItemsPath(repoRoot: string = REPO_ROOT): string {
  return join(repoRoot, 'docs', 'interface-items.json');
}

export function readInterfaceItems(repoRoot: string = REPO_ROOT): InterfaceItems {
  return JSON.parse(readFileSync(interfaceItemsPath(repoRoot), 'utf8')) as InterfaceItems;
}

/** The coverage doc's items: the interface's, and the transitions of the simulator's state machine. */
export function specItemsOf(items: InterfaceItems, transitions: Readonly<Record<string, readonly string[]>> = TRANSITIONS): SpecItems {
  const out = Object.fromEntries(INTERFACE_ITEM_KINDS.map((kind) => [kind, items[kind]])) as Omit<SpecItems, 'transition'>;
  return { ...out, transition: uniqueSorted(Object.entries(transitions).flatMap(([from, tos]) => tos.map((to) => `${from}->${to}`))) };
}

function listFiles(root: string, directory: string, accept: (name: string) => boolean): string[] {
  const base = join(root, directory);
  if (!existsSync(base)) return [];
  return (readdirSync(base, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((entry) => entry.isFile() && accept(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((path) => !path.split('/').includes('node_modules'))
    .sort(compareText);
}

/** The test and scenario files that can carry annotations, repository-relative and sorted. */
export function readAnnotatedFiles(repoRoot: string = REPO_ROOT): SourceFile[] {
  const paths = [
    ...listFiles(repoRoot, 'test', (name) => name.endsWith('.test.ts')),
    ...listFiles(repoRoot, 'scenarios', (name) => name.endsWith('.yaml')),
  ];
  return paths.map((path) => ({ path, text: readFileSync(join(repoRoot, path), 'utf8') }));
}

/** What docs/coverage.md should hold now. */
export function buildCoverageDoc(repoRoot: string = REPO_ROOT): string {
  const doc = renderCoverageDoc(specItemsOf(readInterfaceItems(repoRoot)), countedAnnotations(readAnnotatedFiles(repoRoot)), UNREACHED_TRANSITIONS);
  return `${doc}\n${renderConformanceSection(allChecks, allDeviations)}`;
}

/**
 * The conformance suite by SPEC section: its checks (id, mode) and how many injected deviations
 * (test/conformance/deviations/) the deviation test shows it catching there.
 */
export function renderConformanceSection(checks: readonly ConformanceCheck[], deviations: readonly { section: string }[]): string {
  const sectionKey = (section: string) => section.split('.').map((part) => part.padStart(3, '0')).join('.');
  const sections = uniqueSorted(checks.map((check) => check.section)).sort((a, b) => compareText(sectionKey(a), sectionKey(b)));
  const lines = [
    '## Conformance checks by SPEC section',
    '',
    'The checks of `conformance/` (`npx intentsim conformance`), and the number of deviations the',
    'deviation test (`test/conformance/deviations.test.ts`) injects in each section, every one caught there.',
    '',
    '| Section | Checks | Deviations caught |',
    '|---|---|---|',
  ];
  for (const section of sections) {
    const ids = checks.filter((check) => check.section === section).map((check) => `\`${check.id}\`${check.mode === 'full' ? ' (full)' : ''}`);
    const caught = deviations.filter((deviation) => deviation.section === section).length;
    lines.push(`| §${section} | ${ids.join(', ')} | ${caught} |`);
  }
  lines.push('', `${checks.length} checks, ${deviations.length} deviations.`, '');
  return lines.join('\n');
}

/** The annotations that count: statuses and transitions only from files that drive a simulator. */
export function countedAnnotations(files: readonly SourceFile[]): Annotation[] {
  return files.flatMap((file) => collectCoverage([file]).filter((a) => !REACHED_KINDS.includes(a.kind) || drivesSimulator(file)));
}

export function coverageDocPath(repoRoot: string = REPO_ROOT): string {
  return join(repoRoot, 'docs', 'coverage.md');
}

function main(): void {
  try {
    const doc = buildCoverageDoc();
    writeFileSync(coverageDocPath(), doc);
    const unknownSection = doc.split('## Annotations that match no SPEC item')[1] ?? '';
    process.stdout.write(`wrote ${relative(process.cwd(), coverageDocPath()) || coverageDocPath()}\n`);
    if (!unknownSection.includes('None.')) {
      process.stderr.write('warning: some annotations match no SPEC item; see the last section of docs/coverage.md\n');
    }
  } catch (error) {
    process.stderr.write(`coverage-doc: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
