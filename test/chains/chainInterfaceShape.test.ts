import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { typeScriptFilesUnder } from '../support/typeScriptFilesUnder';

const root = join(__dirname, '..', '..');
const chainsDir = join(root, 'src', 'chains');

function sourceOf(path: string): ts.SourceFile {
  return ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** Methods (and function-valued properties) whose body is one `throw` and nothing else. */
function methodsThatOnlyThrow(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const onlyThrows = (body: ts.ConciseBody | undefined) => body !== undefined && ts.isBlock(body) && body.statements.length === 1 && ts.isThrowStatement(body.statements[0]!);
  const visit = (node: ts.Node) => {
    if (ts.isClassDeclaration(node)) {
      for (const member of node.members) {
        const name = member.name && ts.isIdentifier(member.name) ? member.name.text : '?';
        if ((ts.isMethodDeclaration(member) || ts.isGetAccessorDeclaration(member)) && onlyThrows(member.body)) found.push(`${node.name?.text}.${name}`);
        if (ts.isPropertyDeclaration(member) && member.initializer && (ts.isArrowFunction(member.initializer) || ts.isFunctionExpression(member.initializer)) && onlyThrows(member.initializer.body)) {
          found.push(`${node.name?.text}.${name}`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function interfaceIn(file: string, name: string): ts.InterfaceDeclaration {
  const found = sourceOf(join(chainsDir, file)).statements.find((statement): statement is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(statement) && statement.name.text === name);
  if (!found) throw new Error(`no interface ${name} in ${file}`);
  return found;
}

function memberNames(declaration: ts.InterfaceDeclaration): string[] {
  return declaration.members.map((member) => (member.name && ts.isIdentifier(member.name) ? member.name.text : '?'));
}

describe('the chain interface: a core and capabilities (ARCHITECTURE.md, "chains")', () => {
  it('ChainAdapter has at most 26 members, the optional capabilities included', () => {
    const source = sourceOf(join(chainsDir, 'ChainAdapter.ts'));
    const adapter = source.statements.find((statement): statement is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(statement) && statement.name.text === 'ChainAdapter');
    expect(adapter).toBeDefined();
    const members = adapter!.members.map((member) => (member.name && ts.isIdentifier(member.name) ? member.name.text : '?'));
    expect(members.length).toBeLessThanOrEqual(26);
    // the capabilities are optional properties, not methods a chain must stub
    for (const capability of ['cheats', 'userWallet', 'depositAddresses', 'fixtureContracts', 'gaslessRelay']) {
      const member = adapter!.members.find((m) => m.name && ts.isIdentifier(m.name) && m.name.text === capability);
      expect(member && ts.isPropertySignature(member) && member.questionToken !== undefined, capability).toBe(true);
    }
  });

  it('the solver wallet is a required part of every chain, with the solver-facing members, and they are not core members', () => {
    const adapter = interfaceIn('ChainAdapter.ts', 'ChainAdapter');
    const wallet = adapter.members.find((m) => m.name && ts.isIdentifier(m.name) && m.name.text === 'solverWallet');
    expect(wallet && ts.isPropertySignature(wallet) && wallet.questionToken === undefined).toBe(true);
    const solverWallet = interfaceIn('SolverWallet.ts', 'SolverWallet');
    expect(memberNames(solverWallet)).toEqual(['simulateFill', 'sendPayment', 'transactionStatus', 'awaitPayment', 'failedTransactionFacts']);
    for (const moved of ['simulateSolverFill', 'sendSolverPayment', 'hasTransaction', 'awaitSolverTransaction', 'failedTransactionFacts']) expect(memberNames(adapter)).not.toContain(moved);
  });

  it('no class under src/chains has a method whose body only throws (a chain lacking something lacks the capability)', () => {
    const offenders = typeScriptFilesUnder(chainsDir).flatMap((path) => methodsThatOnlyThrow(sourceOf(path)).map((method) => `${relative(root, path)}: ${method}`));
    expect(offenders).toEqual([]);
  });

  it('the check finds a method that only throws (it can fail)', () => {
    const source = ts.createSourceFile('x.ts', 'class Stub { async reorg(): Promise<void> { throw new Error("no"); } ok() { return 1; } }', ts.ScriptTarget.Latest, true);
    expect(methodsThatOnlyThrow(source)).toEqual(['Stub.reorg']);
  });
});
