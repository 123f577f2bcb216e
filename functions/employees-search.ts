/** POST /v1/employees/search (draft): employee records of one authorized company. */
import { httpRoute } from "../lib/http/pipeline.js";
import { searchEmployees } from "../lib/search/search-employees.js";
import { directoryFromEnv } from "../lib/store/directory-from-env.js";

const directory = directoryFromEnv();

export const handler = httpRoute("employees-search", async ({ body, principal }) =>
  searchEmployees(body, principal, directory),
);
