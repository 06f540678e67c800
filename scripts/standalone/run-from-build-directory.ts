import { fileURLToPath } from "node:url";

/**
 * The self-host build's processes run from their own directory, wherever they are started from: the app
 * and its CLIs read the migrations, methodology documents, fonts, `.next` and (without DATABASE_URL) the
 * embedded database from the working directory. `entryUrl` is the entry's `import.meta.url`; the
 * bundle beside it, `file`, is imported after the change, so nothing it loads has read the old directory.
 */
export async function runFromBuildDirectory(entryUrl: string, file: string): Promise<void> {
  process.chdir(fileURLToPath(new URL(".", entryUrl)));
  // A URL, not a literal path: the bundler leaves the import to run time, after the change above.
  await import(new URL(file, entryUrl).href);
}
