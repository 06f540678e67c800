import { makeTemplates } from "../helpers/database-templates";

/** Global setup of the api-pglite project: a migrated PGlite data directory to copy per file. */
export default makeTemplates(["pgliteMigrated"]);
