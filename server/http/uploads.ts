/**
 * `POST /api/projects/:id/uploads` — attach an image to a project. JSON body (every POST must be
 * `application/json`): `{ "name": "shot.png", "dataBase64": "<base64>", "mimeType"?: "image/png" }`.
 * Stored under `<project>/.od/uploads/`; answers 201 `{ path, name, mimeType, size }` where `path` is
 * project-relative and goes into a run's `attachments`. 413 over 10 MB, 415 for anything but png/jpeg/gif/webp.
 */
import { Elysia } from "elysia";
import { MAX_UPLOAD_BASE64_CHARS } from "../contracts/body-limits.ts";
import { decodeBase64, storeUpload, UploadError } from "../inputs/uploads.ts";
import { HttpError, parseBody } from "./errors.ts";
import type { ProjectDirOf } from "./skills.ts";
import { uploadsContract } from "./request-schemas.ts";

const STATUS: Record<UploadError["code"], number> = { UPLOAD_TOO_LARGE: 413, UNSUPPORTED_IMAGE_TYPE: 415, INVALID_BASE64: 400, EMPTY_UPLOAD: 400 };

export const uploadRoutes = (projectDirOf: ProjectDirOf) =>
  new Elysia({ name: "uploads" }).post("/api/projects/:id/uploads", ({ params, body, set }) => {
    const projectDir = projectDirOf(params.id);
    const request = parseBody(uploadsContract().UploadRequest, body);
    try {
      if (request.dataBase64.length > MAX_UPLOAD_BASE64_CHARS) throw new UploadError("UPLOAD_TOO_LARGE", "the image is larger than 10 MB");
      const stored = storeUpload(projectDir, request.name, decodeBase64(request.dataBase64));
      set.status = 201;
      return stored;
    } catch (error) {
      if (error instanceof UploadError) throw new HttpError(STATUS[error.code], error.code, error.message);
      throw error;
    }
  });
