/**
 * `npm run check:types-and-lint` (the first half of `npm run check:static`): the TypeScript check of the whole project (what `tsc --noEmit` reports:
 * tests, scripts and the route types Next.js generates included), then ESLint over the repository with
 * its type-aware rules reading the SAME TypeScript programs. ESLint alone builds the programs again and
 * asks for most of the types the check has just computed: one process for both took 91 CPU-seconds on a
 * clean clone where `tsc --noEmit` and `eslint .` took 40 and 97 (2026-11-30). `npm run lint` is plain
 * ESLint, which builds its own programs (eslint.config.mjs).
 *
 * Route types: `next typegen` writes them to .next/types, which `next build` deletes when it starts. So
 * scripts/test-all.sh, which builds beside this check, generates them first and passes a copy in
 * FDP_ROUTE_TYPES_DIR; the check reads .next/types/* from there. Without it, this script runs
 * `next typegen` itself.
 *
 * Exit 1 on any TypeScript error or ESLint problem (warnings included, as `--max-warnings 0`).
 */
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import ts from "typescript";

const root = path.resolve(import.meta.dirname, "..");
const routeTypes = path.join(root, ".next", "types");
const routeTypesCopy = process.env.FDP_ROUTE_TYPES_DIR ? path.resolve(process.env.FDP_ROUTE_TYPES_DIR) : undefined;

const underRouteTypes = (file: string): boolean => file.startsWith(routeTypes + path.sep);
/** A path under .next/types, read from the copy when there is one. */
const routeTypesPath = (file: string): string => (routeTypesCopy && underRouteTypes(file) ? path.join(routeTypesCopy, file.slice(routeTypes.length + 1)) : file);

/** `routeTypesRoot`: the config lists .next/types among its files (tsconfig.json does). */
function programOf(configFile: string, { routeTypesRoot }: { routeTypesRoot: boolean }): ts.Program {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(root, configFile),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(`${configFile}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
      },
    },
  );
  if (!parsed) throw new Error(`${configFile}: not readable`);
  if (parsed.errors.length > 0) throw new Error(ts.formatDiagnostics(parsed.errors, formatHost));
  // Parent pointers set, as typescript-eslint's own programs have them (createProgramFromConfigFile).
  const host = ts.createCompilerHost(parsed.options, true);
  let rootNames = parsed.fileNames;
  if (routeTypesCopy) {
    // The files under .next/types as the copy holds them, whatever a concurrent build has left there now.
    const copied = routeTypesRoot ? readdirSync(routeTypesCopy).filter((f) => f.endsWith(".ts")) : [];
    rootNames = [...rootNames.filter((f) => !f.startsWith(path.join(root, ".next") + path.sep)), ...copied.map((f) => path.join(routeTypes, f))];
    // Every way TypeScript looks at a path: module resolution asks whether the folder exists before it
    // looks for a file in it (validator.ts's `./routes.js`), and the build may have deleted it meanwhile.
    // The host's getSourceFile reads through host.readFile, so the source files keep their .next/types names.
    const fileExists = host.fileExists.bind(host);
    const readFile = host.readFile.bind(host);
    const directoryExists = host.directoryExists?.bind(host);
    const realpath = host.realpath?.bind(host);
    host.fileExists = (file) => fileExists(routeTypesPath(file));
    host.readFile = (file) => readFile(routeTypesPath(file));
    if (directoryExists) host.directoryExists = (dir) => dir === routeTypes || underRouteTypes(dir) || directoryExists(dir);
    if (realpath) host.realpath = (file) => (underRouteTypes(file) ? file : realpath(file));
  }
  return ts.createProgram({ rootNames, options: parsed.options, host, projectReferences: parsed.projectReferences });
}

const formatHost: ts.FormatDiagnosticsHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => "\n" };

async function main(): Promise<number> {
  if (!routeTypesCopy) execFileSync("npx", ["next", "typegen"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });

  const program = programOf("tsconfig.json", { routeTypesRoot: true });
  const mjsProgram = programOf("tsconfig.eslint-mjs.json", { routeTypesRoot: false });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length > 0) process.stdout.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost));
  const typeErrors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
  console.log(`[check] TypeScript: ${typeErrors} error(s) in ${program.getRootFileNames().length} files`);

  const eslint = new ESLint({
    cwd: root,
    overrideConfig: [
      { languageOptions: { parserOptions: { programs: [program, mjsProgram], project: null } } },
      // The partner samples are linted without type information (eslint.config.mjs says why).
      { files: ["samples/**"], languageOptions: { parserOptions: { programs: null } } },
    ],
  });
  const results = await eslint.lintFiles(["."]);
  const output = await (await eslint.loadFormatter("stylish")).format(results);
  if (output) process.stdout.write(output);
  const problems = results.reduce((n, r) => n + r.errorCount + r.warningCount + r.fatalErrorCount, 0);
  console.log(`[check] ESLint: ${problems} problem(s) in ${results.length} files`);
  return typeErrors > 0 || problems > 0 ? 1 : 0;
}

process.exitCode = await main();
