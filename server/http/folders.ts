/** `GET /api/folders`: the folders in a folder of this machine or another (the new-project form's folder picker). */
import { Elysia } from "elysia";
import type { FolderListResponse } from "../contracts/folders.ts";
import { listFolders } from "../machines/folder-list.ts";
import { LocationError } from "../machines/machine-url.ts";
import { machineAt } from "../machines/machine-of.ts";
import type { RemoteContext } from "../machines/remote-exec.ts";
import { HttpError, parseBody } from "./errors.ts";
import { foldersContract } from "./request-schemas.ts";

export const folderRoutes = (remote: RemoteContext) =>
  new Elysia({ name: "folders" }).get("/api/folders", async ({ query }): Promise<FolderListResponse> => {
    const { location, path, hidden } = parseBody(foldersContract().ListFoldersQuery, query);
    let machine;
    try {
      machine = machineAt(location ?? "", remote);
    } catch (error) {
      if (error instanceof LocationError) throw new HttpError(400, "INVALID_LOCATION", error.message);
      throw error;
    }
    return listFolders(machine, path, hidden === "1");
  });
