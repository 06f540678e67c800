import { makeTemplates } from "../helpers/database-templates";

/**
 * Global setup of the db project, whose files run on both drivers: a migrated Postgres database and PGlite
 * data directory to copy per file, and the sandbox seeded at a fixed clock for the files that read its stories.
 */
export default makeTemplates(["postgresMigrated", "pgliteMigrated", "postgresSandboxFixed"]);
