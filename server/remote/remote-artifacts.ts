/**
 * Plain-stream artifacts of a run in a remote project, written there: one command per artifact, its body on stdin,
 * its name chosen there (the first of `<stem>.<ext>`, `<stem>-2.<ext>`, … no entry of the folder has, case
 * ignored, as locally) and created with noclobber, so an existing file or symlink is never written through.
 */
import { createReadStream } from "node:fs";
import type { ArtifactPlacer } from "../runtimes/streams/artifacts.ts";
import type { Machine } from "../machines/machine.ts";
import { staysInside } from "../machines/folder-paths.ts";

const WRITE_TIMEOUT_MS = 60_000;
/** What slugify and the artifact types can produce; anything else is refused before it reaches a command line. */
const STEM = /^[a-z0-9][a-z0-9._-]*$/;
const EXT = /^[a-z]+$/;

/** `$1` folder, `$2` stem, `$3` extension; stdin the body. Prints the name written. Exit 3: no folder; 4: not written. */
const WRITE_ARTIFACT_SCRIPT = `cd -- "$1" 2>/dev/null || exit 3
name="$2.$3"; n=1
while [ -n "$(find . -mindepth 1 -maxdepth 1 -iname "$name" -print -quit 2>/dev/null)" ]; do
  n=$((n + 1)); [ "$n" -le 1000 ] || exit 4
  name="$2-$n.$3"
done
set -C
cat > "./$name" || exit 4
printf '%s' "$name"`;

/** The body file's bytes, opened only once the command reads them. */
async function* bodyOf(path: string): AsyncIterable<Uint8Array> {
  yield* createReadStream(path);
}

/** Writes artifacts into `folder` on `machine`; `note` receives why one could not be written. */
export function remoteArtifactPlacer(machine: Machine, folder: string, note: (message: string) => void): ArtifactPlacer {
  return async ({ stem, ext, bodyFile }) => {
    if (!STEM.test(stem) || !EXT.test(ext)) return undefined;
    const result = await machine.exec(WRITE_ARTIFACT_SCRIPT, [folder, stem, ext], {
      timeoutMs: WRITE_TIMEOUT_MS,
      maxBytes: 4096,
      stdin: bodyOf(bodyFile),
    });
    const name = result.kind === "exited" && result.code === 0 ? new TextDecoder().decode(result.stdout) : "";
    if (name.startsWith(stem) && name.endsWith(`.${ext}`) && staysInside(name)) return name;
    const why = result.kind === "exited" ? result.stderr.trim().split("\n").at(-1) || `exit ${result.code}` : result.kind === "timeout" ? "no answer" : result.stderr;
    note(`could not write the artifact ${stem}.${ext} on ${machine.label}: ${why}`);
    return undefined;
  };
}
