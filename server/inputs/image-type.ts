/** Image types od accepts, recognised by their magic bytes (never by name or a client's claim). */

export type ImageType = { mimeType: "image/png" | "image/jpeg" | "image/gif" | "image/webp"; extension: "png" | "jpg" | "gif" | "webp" };

/** The type of an image from its first bytes; undefined when it is none of png/jpeg/gif/webp. */
export function sniffImageType(bytes: Uint8Array): ImageType | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  const ascii = (offset: number, text: string) => [...text].every((c, i) => bytes[offset + i] === c.charCodeAt(0));
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return { mimeType: "image/png", extension: "png" };
  if (starts(0xff, 0xd8, 0xff)) return { mimeType: "image/jpeg", extension: "jpg" };
  if (ascii(0, "GIF87a") || ascii(0, "GIF89a")) return { mimeType: "image/gif", extension: "gif" };
  if (ascii(0, "RIFF") && ascii(8, "WEBP")) return { mimeType: "image/webp", extension: "webp" };
  return undefined;
}
