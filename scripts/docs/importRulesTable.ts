/**
 * The import rules of `.dependency-cruiser.cjs` as a table for ARCHITECTURE.md ("What may import
 * what"): the config is the one place the rules live; the page shows them as the config says now.
 */

type PathCondition = string | string[] | undefined;

interface RuleEnd {
  path?: PathCondition;
  pathNot?: PathCondition;
  dependencyTypes?: string[];
  dependencyTypesNot?: string[];
  circular?: boolean;
}

export interface ImportRule {
  name: string;
  comment?: string;
  from: RuleEnd;
  to: RuleEnd;
}

const list = (condition: PathCondition): string[] => (condition === undefined ? [] : Array.isArray(condition) ? condition : [condition]);

/** A rule's path pattern as a reader names it: `^src/(index|cli)\.ts$` → `src/{index,cli}.ts`, `[^/]+` → `*`. */
export function readablePath(pattern: string): string {
  return pattern
    .replace(/^\^/, '')
    .replace(/\$(?!1)/g, '')
    .replace(/\\\./g, '.')
    .replace(/\[\^\/\]\+/g, '*')
    .replace(/\(([^()]*)\)/g, (_, alternatives: string) => (alternatives.includes('|') ? `{${alternatives.split('|').join(',')}}` : alternatives))
    .replace(/\$1/g, '<the same>');
}

const paths = (condition: PathCondition) => list(condition).map((pattern) => `\`${readablePath(pattern)}\``).join(', ');

function describeFrom(from: RuleEnd): string {
  const except = list(from.pathNot).length > 0 ? ` except ${paths(from.pathNot)}` : '';
  return `${paths(from.path)}${except}`;
}

function describeTo(to: RuleEnd): string {
  const parts: string[] = [];
  if (to.circular) parts.push('an import that closes a cycle');
  if (to.path !== undefined) parts.push(paths(to.path) + (list(to.pathNot).length > 0 ? ` except ${paths(to.pathNot)}` : ''));
  else if (to.pathNot !== undefined) parts.push(`anything but ${paths(to.pathNot)}`);
  if (to.dependencyTypes?.includes('core')) parts.push('Node built-ins');
  if (to.dependencyTypesNot?.includes('type-only')) parts.push('(type-only imports allowed)');
  return parts.join(' ');
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** One row per rule: its name, where it applies, what it forbids, and why (the rule's comment). */
export function renderImportRulesTable(rules: readonly ImportRule[]): string {
  const missing = rules.filter((rule) => !rule.comment).map((rule) => rule.name);
  if (missing.length > 0) throw new Error(`.dependency-cruiser.cjs: every rule says why in its comment; these do not: ${missing.join(', ')}`);
  const rows = rules.map((rule) => `| \`${rule.name}\` | ${cell(describeFrom(rule.from))} | ${cell(describeTo(rule.to))} | ${cell(rule.comment!)} |`);
  return ['| rule | in | must not import | why |', '|---|---|---|---|', ...rows].join('\n');
}
