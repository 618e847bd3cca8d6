/**
 * A run's `files` are what it left in its project: paths named by its write tool calls, its artifacts, and what
 * its change snapshot found changed. A tool call naming a path says nothing of whether the write worked, so each is
 * checked once the run is over, on this machine's disk or there (remote-existing.ts), and only those that exist
 * are listed, wherever the project is.
 */
import { resolveInsideProject } from "../machines/folder-paths.ts";
import type { RemoteLocation } from "../machines/machine-url.ts";
import type { RemoteContext } from "../machines/remote-exec.ts";
import { existingRemoteFiles } from "../remote/remote-existing.ts";

/** Where the run's project is: a folder here, or one on a remote location. */
export type RunPlace = { dir: string } | { location: RemoteLocation; context: RemoteContext };

/**
 * The paths of `files` that exist in the project now, sorted. When a remote project cannot be checked, only those
 * its change snapshot saw there after the run (`seenAfter`), and `note` says why the others are left out.
 */
export async function existingRunFiles(place: RunPlace, files: Iterable<string>, seenAfter: ReadonlySet<string>, note: (message: string) => void): Promise<string[]> {
  const paths = [...new Set(files)];
  if (paths.length === 0) return [];
  if ("dir" in place) return paths.filter((path) => resolveInsideProject(place.dir, path) !== undefined).sort();
  const existing = await existingRemoteFiles(place.location, place.context, paths);
  if (existing) return existing.sort();
  note("could not check which of the run's files exist in the project folder; only those its change snapshot saw are listed");
  return paths.filter((path) => seenAfter.has(path)).sort();
}
