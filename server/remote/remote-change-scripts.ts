/**
 * The scripts that snapshot a remote project before and after a run, one round trip each. They follow the local
 * tracker's rules (server/projects/changes/tracker.ts): git's view in a work tree, else a bounded walk; content kept
 * for small files only, within a byte budget. Their output is framed sections (framed-sections.ts); file contents
 * travel as a tar stream (tar-entries.ts), so any byte of a name or a file arrives intact.
 *
 * Positional arguments: `$1` folder, `$2` the smallest size whose content is not kept (bytes), `$3` the byte budget
 * of one content section, `$4` the most files a walk lists. Inputs a script needs from the earlier phase come on
 * stdin. Exit 3: no such folder; 4: no temp folder there; 6: not the GNU tools these scripts need.
 */
import { GNU_TOOLS_CHECK, HIDDEN_DIRS_FIND_TEST } from "../machines/remote-scripts.ts";

/** What git reports as changed in the project: vs the index, untracked files too, od's own folders left out. */
const GIT_STATUS = "git status --porcelain=v1 -z --untracked-files=all --no-renames -- . ':(exclude).od' ':(exclude).od-skills'";

const PRELUDE = String.raw`cd -- "$1" 2>/dev/null || exit 3
t=$(mktemp -d 2>/dev/null) || exit 4
trap 'rm -rf -- "$t"' EXIT
trap 'exit 1' HUP INT TERM PIPE
export LC_ALL=C
# git only looks: no index refresh written back under .git/index.lock while the agent or the user may commit.
export GIT_OPTIONAL_LOCKS=0
section() { printf '%s\0' "$(($(wc -c < "$1")))"; cat -- "$1"; }
# NUL-separated paths on stdin (relative to here) → two sections: one record per existing path,
# "k|u TYPE SIZE ./PATH" (k: its content follows), then a tar stream of the kept ones, cut at the budget.
contents() {
  sed -z 's#^#./#' | xargs -0 -r sh -c 'exec find "$@" -maxdepth 0 \( \( -type l -o -type f -size "$0" \) -printf "k%y %s %p\0" \) -o -printf "u%y %s %p\0"' "-$2c" > "$t/stat" 2>/dev/null
  section "$t/stat"
  sed -z -n 's/^k. [0-9]* //p' "$t/stat" | tar --null --no-recursion --hard-dereference -T - -cf - 2>/dev/null | head -c "$3" > "$t/tar"
  section "$t/tar"
}
# The folder's regular files, "SIZE MTIME PATH" NUL-terminated, at most $4 (the local walk's bounds).
walk() { find . -maxdepth 9 \( -type d \( ${HIDDEN_DIRS_FIND_TEST} \) -prune \) -o -type f -printf '%s %T@ %P\0' 2>/dev/null | head -z -n "$4"; }
`;

/**
 * Sections: mode (`git` or `walk`); for git the project's prefix in its work tree (`--show-prefix`, newline-ended)
 * and `git status`, for a walk its listing; then `contents` of what was dirty (git) or listed, newest first (walk).
 */
export const SNAPSHOT_BEFORE_SCRIPT = `${PRELUDE}
${GNU_TOOLS_CHECK}
if command -v git >/dev/null 2>&1 && [ "$(git rev-parse --is-inside-work-tree 2>/dev/null)" = true ] &&
  ${GIT_STATUS} > "$t/status" 2>/dev/null && git rev-parse --show-prefix > "$t/prefix" && cdup=$(git rev-parse --show-cdup); then
  printf git > "$t/mode"; section "$t/mode"; section "$t/prefix"; section "$t/status"
  cd "./$cdup" || exit 5
  sed -z 's/^...//' "$t/status" | sort -z -u | contents "$@"
else
  walk "$@" > "$t/list"
  printf walk > "$t/mode"; section "$t/mode"; section "$t/list"
  sort -z -t ' ' -k2,2gr "$t/list" | sed -z 's/^[0-9]* [0-9.]* //' | contents "$@"
fi`;

/**
 * stdin: the git status of the before phase. Sections: git status now (empty when git failed), `contents` of every
 * path dirty before or now, the index entries (`ls-files -s`) of the paths clean before, and those entries' blobs
 * (`cat-file --batch`, small ones only, cut at the budget).
 */
export const SNAPSHOT_AFTER_GIT_SCRIPT = `${PRELUDE}
sed -z 's/^...//' | sort -z -u > "$t/before"
${GIT_STATUS} > "$t/status" 2>/dev/null || : > "$t/status"
section "$t/status"
cdup=$(git rev-parse --show-cdup 2>/dev/null) && cd "./$cdup" || exit 5
sed -z 's/^...//' "$t/status" | sort -z -u > "$t/after"
sort -z -u "$t/before" "$t/after" | contents "$@"
comm -z -13 "$t/before" "$t/after" | xargs -0 -r git --literal-pathspecs ls-files -s -z -- > "$t/index" 2>/dev/null
section "$t/index"
sed -z -n 's/^[0-7]* \\([0-9a-f]*\\) 0\\t.*/\\1/p' "$t/index" | tr '\\0' '\\n' |
  git cat-file --batch-check='%(objectname) %(objecttype) %(objectsize)' 2>/dev/null |
  while read -r oid type size; do [ "$type" = blob ] && [ "$size" -lt "$2" ] && echo "$oid"; done |
  git cat-file --batch 2>/dev/null | head -c "$3" > "$t/blobs"
section "$t/blobs"`;

/** stdin: the listing of the before phase. Sections: the listing now, then `contents` of the files whose stamp changed. */
export const SNAPSHOT_AFTER_WALK_SCRIPT = `${PRELUDE}
sort -z -u > "$t/before"
walk "$@" > "$t/list"
section "$t/list"
sort -z -u "$t/list" | comm -z -13 "$t/before" - | sed -z 's/^[0-9]* [0-9.]* //' | contents "$@"`;
