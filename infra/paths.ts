/** Absolute paths from the repository root, so synthesis does not depend on the working directory. */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));

export function repoPath(relative: string): string {
  return join(REPO_ROOT, relative);
}
