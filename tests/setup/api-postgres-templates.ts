import { makeTemplates } from "../helpers/database-templates";

/**
 * Global setup of the API files on Postgres: the migrated template, and the sandbox seeded at the run's
 * start for the files that read a live sandbox (tests/helpers/databases.ts createSeededTestDatabase).
 */
export default makeTemplates(["postgresMigrated", "postgresSeeded"]);
