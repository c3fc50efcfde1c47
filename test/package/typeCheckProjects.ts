import { dirname } from 'node:path';
import ts from 'typescript';

/**
 * `tsc -p <tsconfig>` run by the project's TypeScript in this process: what tsc prints (its
 * diagnostics, empty when the project type-checks) and the files it writes. The checks share
 * the declaration files they parsed (the package's, @types/node, viem's …), as an editor's
 * language service does: each `tsc` process parsed those same ~1,400 files again, seconds each.
 * A declaration file is shared only between checks that parse it the same way (language version
 * and module format), so a nodenext and a bundler check see what tsc would show each.
 */
export class TypeChecks {
  private readonly declarations = new Map<string, ts.SourceFile>();

  /** Type-checks (and, unless `noEmit`, emits) the project of `tsconfigPath`; returns tsc's diagnostics text. */
  run(tsconfigPath: string): string {
    const projectDir = dirname(tsconfigPath);
    const config = ts.getParsedCommandLineOfConfigFile(tsconfigPath, undefined, {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    });
    if (!config) throw new Error(`cannot read ${tsconfigPath}`);
    const host = ts.createCompilerHost(config.options);
    host.getCurrentDirectory = () => projectDir;
    const parse = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
      if (!/\.d\.[cm]?ts$/.test(fileName)) return parse(fileName, languageVersionOrOptions, onError, shouldCreate);
      const settings = typeof languageVersionOrOptions === 'object' ? languageVersionOrOptions : { languageVersion: languageVersionOrOptions, impliedNodeFormat: undefined };
      const key = `${fileName}\0${settings.languageVersion}\0${settings.impliedNodeFormat ?? ''}`;
      let sourceFile = this.declarations.get(key);
      if (!sourceFile) {
        sourceFile = parse(fileName, languageVersionOrOptions, onError, shouldCreate);
        if (sourceFile) this.declarations.set(key, sourceFile);
      }
      return sourceFile;
    };
    const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, host, configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(config) });
    const emitted = program.emit();
    const diagnostics = ts.sortAndDeduplicateDiagnostics([...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics]);
    return ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (name) => name, getCurrentDirectory: () => projectDir, getNewLine: () => '\n' });
  }
}
