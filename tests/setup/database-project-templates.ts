import { makeTemplates } from "../helpers/database-templates";

/**
 * Global setup of the db project, whose files run on both drivers: a migrated Postgres database and PGlite
 * data directory to copy per file, the sandbox seeded at a fixed clock for the files that read its stories, and
 * seeded at the run's start for the OpenAPI examples' (shared with api-postgres: tests/helpers/database-templates.ts).
 */
export default makeTemplates(["postgresMigrated", "pgliteMigrated", "postgresSandboxFixed", "postgresSeeded"]);
