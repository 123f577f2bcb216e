/**
 * Keeps the directory's scope orders in step with the keys: one load that sets the scopes kept to
 * the company lists of the keys not revoked (`LoadSession.keepScopes`), all or nothing like any load.
 * New scopes' orders are derived before the flip; until then, and for any key whose scope is not
 * kept, persons searches are answered from each company's entries (slower, never different).
 */
import type { DirectoryWriter } from "../store/port.js";
import { distinctScopes } from "../store/scopes.js";

/** Sets the scopes kept to these company lists (lists of one company need none); the number kept. */
export async function keepScopes(
  directory: DirectoryWriter,
  companyLists: readonly (readonly string[])[],
): Promise<number> {
  const scopes = distinctScopes(companyLists);
  const session = await directory.beginLoad(`the scopes of ${companyLists.length} keys`);
  try {
    await session.keepScopes(scopes);
    await session.commit();
  } catch (error) {
    // The first error is the one to report; an undo that fails too is finished by the next load.
    await session.abort().catch(() => undefined);
    throw error;
  }
  return scopes.length;
}
