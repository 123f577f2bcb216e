/** POST /v1/persons/search (draft): each matching person once, with all authorized employments. */
import { httpRoute } from "../lib/http/pipeline.js";
import { searchPersons } from "../lib/search/search-persons.js";
import { directoryFromEnv } from "../lib/store/directory-from-env.js";

const directory = directoryFromEnv();

export const handler = httpRoute("persons-search", async ({ body, principal }) =>
  searchPersons(body, principal, directory),
);
