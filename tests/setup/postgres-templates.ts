import { makeTemplates } from "../helpers/database-templates";

/** Global setup of the projects that run on Postgres: a migrated template (tests/helpers/database-templates.ts). */
export default makeTemplates(["postgresMigrated"]);
