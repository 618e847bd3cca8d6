/**
 * Where a project's uploads are kept: in the project for a local one (`<project>/.od/uploads/`), and on this
 * machine for one on another machine or in a container (`<remote uploads dir>/<project id>/.od/uploads/`), from
 * where a run copies the images it attaches to the remote side. Either way an upload's path is project-relative.
 */
import { join } from "node:path";
import { placeOf } from "../machines/machine-of.ts";

/** The folder `.od/uploads/…` paths of a remote project resolve in, on this machine. */
export function remoteUploadsRoot(remoteUploadsDir: string, projectId: string): string {
  return join(remoteUploadsDir, projectId);
}

/** The folder a project's upload paths resolve in, on this machine. */
export function uploadsRootOf(project: { id: string; path: string }, remoteUploadsDir: string): string {
  const { machine, folder } = placeOf(project.path, { env: {} });
  return machine.kind === "local" ? folder : remoteUploadsRoot(remoteUploadsDir, project.id);
}
