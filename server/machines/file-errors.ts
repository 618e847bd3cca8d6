/** The two ways reading a project's file fails the same on every machine. */
import { OdError } from "../errors.ts";

export function fileNotFound(relPath: string): OdError {
  return new OdError("not_found", "FILE_NOT_FOUND", `no file ${JSON.stringify(relPath)} in this project`);
}

export function fileTooLarge(relPath: string, maxBytes: number): OdError {
  const limit = maxBytes >= 1024 * 1024 ? `${Math.round(maxBytes / 1024 / 1024)} MB` : maxBytes >= 1024 ? `${Math.round(maxBytes / 1024)} KB` : `${maxBytes} bytes`;
  return new OdError("too_large", "FILE_TOO_LARGE", `${relPath} is larger than ${limit}`);
}
