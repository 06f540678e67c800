/**
 * The entry point of a bench script: runs `main`, exits with the code it returns (0 when it returns
 * nothing), and on an error writes one `failed:` line (with the stack) through `log` and exits 1. The
 * explicit exit ends the script even when a pool or a child process would keep Node alive.
 */
export function runMain(main: () => Promise<number | void>, log: (message: string) => void): void {
  main().then(
    (code) => process.exit(code ?? 0),
    (err: unknown) => {
      log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      process.exit(1);
    },
  );
}
