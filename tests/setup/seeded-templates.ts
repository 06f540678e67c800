import { makeTemplates } from "../helpers/database-templates";

/** Global setup of the integration project: migrated and sandbox-seeded Postgres templates for the app boots. */
export default makeTemplates(["postgresMigrated", "postgresSeeded"]);
