/**
 * The declaration files the package's bundled declarations are made of (scripts/build-package.ts
 * bundles them with rollup-plugin-dts): tsc's declaration emit of the project `tsconfigPath`, for the
 * entries and, transitively, for each source file an emitted declaration imports — not for every file
 * of the program. A declaration keeps only the imports its types name, so about a third of the
 * sources are reached (~170 of ~560); emitting the declarations of all of them was most of the build.
 * The emit is tsc's own (`program.emit` of one source file, declarations only), without checking the
 * program (`noCheck`): the project's type check is `npm run typecheck`, run by `npm test`. What stops
 * a declaration being written (a syntax error, a type that cannot be named) fails the build.
 */
import { dirname, resolve } from 'node:path';
import ts from 'typescript';

/** Relative module specifiers of a declaration file: imports, re-exports, `import('…')` types and `/// <reference path>`. */
function relativeSpecifiersOf(declaration: string): string[] {
  const found = [
    ...declaration.matchAll(/\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]/g),
    ...declaration.matchAll(/\bimport\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g),
    ...declaration.matchAll(/^\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/gm),
    ...declaration.matchAll(/^\/\/\/\s*<reference\s+path=['"]([^'"]+)['"]/gm),
  ];
  return [...new Set(found.map((match) => match[1]!))];
}

/**
 * Writes below `outDir` the declaration (`.d.ts`, at its path below the project's `rootDir`) of each
 * of `entries` (source paths below `root`) and of every source file they reach through their
 * declarations' imports. Returns how many it wrote.
 */
export function emitDeclarations({ root, tsconfigPath, entries, outDir }: { root: string; tsconfigPath: string; entries: readonly string[]; outDir: string }): number {
  const config = ts.getParsedCommandLineOfConfigFile(tsconfigPath, { outDir, noCheck: true, declaration: true, emitDeclarationOnly: true, noEmit: false }, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (!config) throw new Error(`cannot read ${tsconfigPath}`);
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(config) });
  const diagnostics: ts.Diagnostic[] = [...program.getConfigFileParsingDiagnostics(), ...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  const pending = entries.map((entry) => resolve(root, entry));
  const visited = new Set<string>();
  let written = 0;
  while (pending.length > 0) {
    const fileName = pending.pop()!;
    if (visited.has(fileName)) continue;
    visited.add(fileName);
    const sourceFile = program.getSourceFile(fileName);
    if (!sourceFile) throw new Error(`${fileName}: not a file of ${tsconfigPath} (a declaration imports it)`);
    diagnostics.push(...program.getSyntacticDiagnostics(sourceFile));
    if (sourceFile.isDeclarationFile) continue; // written by hand: rollup reads it where it is
    let declaration: string | undefined;
    const emitted = program.emit(sourceFile, (path, text) => {
      ts.sys.writeFile(path, text);
      if (path.endsWith('.d.ts')) declaration = text;
    }, undefined, true);
    diagnostics.push(...emitted.diagnostics);
    if (declaration === undefined) continue;
    written++;
    for (const specifier of relativeSpecifiersOf(declaration)) {
      const resolved = ts.resolveModuleName(specifier, fileName, config.options, ts.sys).resolvedModule?.resolvedFileName;
      pending.push(resolved ?? resolve(dirname(fileName), specifier));
    }
  }
  if (diagnostics.length > 0) {
    const host = { getCanonicalFileName: (name: string) => name, getCurrentDirectory: () => root, getNewLine: () => '\n' };
    throw new Error(`the declarations could not be written:\n${ts.formatDiagnostics(ts.sortAndDeduplicateDiagnostics(diagnostics), host)}`);
  }
  return written;
}
