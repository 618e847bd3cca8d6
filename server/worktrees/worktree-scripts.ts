/**
 * The `sh` scripts behind isolated runs, run on the project's machine with `Machine.exec` (this machine, an ssh host
 * or a container alike): make a run's git worktree, read what it changed against its base, bring that into the
 * checkout, remove it. Inputs are positional arguments, never script text (remote-scripts.ts).
 *
 * A worktree's state is read as a git tree: a copy of its index with every file added (untracked ones too, ignored
 * ones not, od's own `.od/` and `.od-skills/` of the project left out) and written as a tree object. Its changes are
 * the diff of that tree against the base, whatever the agent committed, staged or left as files; the real index is
 * never written by reading. The checkout's uncommitted changes reach a new worktree the same way: its snapshot
 * becomes the base, a commit on top of HEAD that only the worktree's branch holds.
 *
 * Exit codes shared by all: 3 the worktree's folder is gone; 4 no temp folder; 5 git failed (stderr says why);
 * 6 not the GNU tools; 7 no git there; 8 not a git work tree; 9 a repository without a commit yet; 10 `git worktree
 * add` refused; 11 nothing to apply; 12 a conflict (stdout: its kind, then the paths git named, NUL-separated);
 * 13 the checkout's folder is gone; 14 the checkout's HEAD moved while applying; 15 this git cannot merge without
 * touching the checkout (`merge-tree --write-tree`, git ≥ 2.38).
 */
import { GNU_TOOLS_CHECK } from "../machines/remote-scripts.ts";

const PRELUDE = String.raw`t=$(mktemp -d 2>/dev/null) || exit 4
trap 'rm -rf -- "$t"' EXIT
trap 'exit 1' HUP INT TERM PIPE
export LC_ALL=C
section() { printf '%s\0' "$(($(wc -c < "$1")))"; cat -- "$1"; }
# Commits od makes (the carried-over changes, a merge) need an author: the person's, else od's own.
identity() {
  git config user.name >/dev/null 2>&1 || export GIT_AUTHOR_NAME=od GIT_COMMITTER_NAME=od
  git config user.email >/dev/null 2>&1 || export GIT_AUTHOR_EMAIL=od@localhost GIT_COMMITTER_EMAIL=od@localhost
}
# The tree of the work tree here (run at its top), the project at prefix $1: a copy of the index (its file stamps
# spare re-reading unchanged files; its own mtime kept, so git still re-reads a file changed in the same second), every file added, written as a tree. The real index is not touched.
snapshot() {
  cp -p -- "$(git rev-parse --git-path index)" "$t/index" 2>/dev/null || GIT_INDEX_FILE="$t/index" git read-tree HEAD || return 1
  GIT_INDEX_FILE="$t/index" git add -A -- ":(top)" ":(top,exclude)$1.od" ":(top,exclude)$1.od-skills" >/dev/null 2>"$t/err" || { cat "$t/err" >&2; return 1; }
  GIT_INDEX_FILE="$t/index" git write-tree
}
# The project's part of a diff: under prefix $1, od's own folders left out.
project() { printf '%s\0' ":(top)$1" ":(top,exclude)$1.od" ":(top,exclude)$1.od-skills"; }
`;

/**
 * `$1` the project's folder (in the checkout), `$2` the folder worktrees go in (empty: `~/.od/worktrees` there),
 * `$3` this worktree's name in it, `$4` its branch, `$5` the base to start from (empty: the checkout as it is now).
 * Prints, NUL-terminated: the worktree's folder, its base, the checkout's HEAD, how many paths the base carries over
 * from the checkout's uncommitted changes, and the project's prefix in the repository.
 */
export const CREATE_WORKTREE_SCRIPT = String.raw`cd -- "$1" 2>/dev/null || exit 13
command -v git >/dev/null 2>&1 || exit 7
[ "$(git rev-parse --is-inside-work-tree 2>/dev/null)" = true ] || exit 8
head=$(git rev-parse -q --verify 'HEAD^{commit}') || exit 9
prefix=$(git rev-parse --show-prefix) && cdup=$(git rev-parse --show-cdup) && cd "./$cdup" || exit 5
${PRELUDE}
base=$5; carried=0
if [ -z "$base" ]; then
  tree=$(snapshot "$prefix") || exit 5
  if [ "$tree" = "$(git rev-parse "$head^{tree}")" ]; then
    base=$head
  else
    identity
    carried=$(git diff-tree -r -z --name-only "$head" "$tree" | tr -cd '\000' | wc -c)
    base=$(git commit-tree "$tree" -p "$head" -m "od: the checkout's uncommitted changes, carried into a worktree") || exit 5
  fi
fi
root=$2; [ -n "$root" ] || root="$HOME/.od/worktrees"
umask 077
mkdir -p -- "$root/$3" && rmdir -- "$root/$3" || exit 10
git worktree add -q -b "$4" "$root/$3" "$base" >"$t/err" 2>&1 || { cat "$t/err" >&2; exit 10; }
printf '%s\0%s\0%s\0%s\0%s\0' "$root/$3" "$base" "$head" "$(($carried))" "$prefix"`;

/**
 * `$1` the worktree's folder, `$2` its base, `$3` the project's prefix, `$4` the smallest blob size not sent,
 * `$5` the byte budget of the blobs. Sections: the tree now, the raw diff against the base (`--raw -z`, the project's
 * part), and the blobs of both sides that fit (`cat-file --batch`, cut at the budget).
 */
export const WORKTREE_CHANGES_SCRIPT = String.raw`cd -- "$1" 2>/dev/null || exit 3
${PRELUDE}
${GNU_TOOLS_CHECK}
snapshot "$3" > "$t/tree" || exit 5
project "$3" | xargs -0 git diff-tree -r -z --no-renames --raw "$2" "$(cat "$t/tree")" -- > "$t/raw" || exit 5
sed -z -n 's/^:[0-7]* [0-7]* \([0-9a-f]*\) \([0-9a-f]*\) .*$/\1\n\2/p' "$t/raw" | tr '\000' '\n' | grep -v '^0*$' | sort -u |
  git cat-file --batch-check='%(objectname) %(objecttype) %(objectsize)' 2>/dev/null |
  while read -r oid type size; do [ "$type" = blob ] && [ "$size" -lt "$4" ] && echo "$oid"; done |
  git cat-file --batch 2>/dev/null | head -c "$5" > "$t/blobs"
section "$t/tree"; section "$t/raw"; section "$t/blobs"`;

/**
 * `$1` the project's folder in the checkout, `$2` the worktree's folder, `$3` its base, `$4` the project's prefix,
 * `$5` how (`uncommitted`, `commit`, `merge`), `$6` the commit message, `$7` the worktree's branch. Brings the
 * worktree's changes against its base into the checkout, or changes nothing there (exit 12, with the conflict).
 * Prints, NUL-terminated: the paths applied, then the commit made (for `commit` and `merge`).
 */
export const APPLY_WORKTREE_SCRIPT = String.raw`cd -- "$2" 2>/dev/null || exit 3
${PRELUDE}
snapshot "$4" > "$t/tree" || exit 5
tree=$(cat "$t/tree")
project "$4" | xargs -0 git diff-tree -p --binary --full-index --no-renames "$3" "$tree" -- > "$t/patch" || exit 5
project "$4" | xargs -0 git diff-tree -r -z --name-only --no-renames "$3" "$tree" -- > "$t/paths" || exit 5
[ -s "$t/patch" ] || exit 11
conflict() { printf '%s\0' "$1"; [ -f "$t/conflicts" ] && cat -- "$t/conflicts"; cat -- "$t/err" >&2 2>/dev/null; exit 12; }
if [ "$5" = merge ]; then
  # The branch holds what the worktree holds: its files committed on it first.
  identity
  wthead=$(git rev-parse HEAD) || exit 5
  if [ "$(git rev-parse "$wthead^{tree}")" != "$tree" ]; then
    c=$(git commit-tree "$tree" -p "$wthead" -m "od: the run's changes") && git update-ref "refs/heads/$7" "$c" "$wthead" && git reset -q || exit 5
  fi
fi
cd -- "$1" 2>/dev/null || exit 13
cdup=$(git rev-parse --show-cdup) && cd "./$cdup" || exit 13
case "$5" in
uncommitted)
  # git apply is all or nothing: a hunk that does not apply leaves every file as it was.
  git apply --check "$t/patch" 2>"$t/err" || conflict patch
  git apply "$t/patch" 2>"$t/err" || conflict patch
  cat -- "$t/paths" ;;
commit)
  # Only the run's files go into the commit: they must be as HEAD has them, the rest of the checkout is left alone.
  xargs -0 -r git --literal-pathspecs status --porcelain=v1 -z --untracked-files=all --no-renames -- < "$t/paths" | sed -z 's/^...//' > "$t/conflicts"
  [ -s "$t/conflicts" ] && conflict dirty
  rm -f -- "$t/conflicts"
  identity
  old=$(git rev-parse -q --verify HEAD) || exit 5
  GIT_INDEX_FILE="$t/commit-index" git read-tree "$old" && GIT_INDEX_FILE="$t/commit-index" git apply --cached "$t/patch" 2>"$t/err" || conflict patch
  new=$(GIT_INDEX_FILE="$t/commit-index" git write-tree) && c=$(git commit-tree "$new" -p "$old" -m "$6") || exit 5
  git apply --index "$t/patch" 2>"$t/err" || conflict patch
  git update-ref -m "od: apply $7" HEAD "$c" "$old" || { git apply -R --index "$t/patch"; exit 14; }
  cat -- "$t/paths"; printf '%s\0' "$c" ;;
merge)
  git merge-tree --write-tree -z --name-only --no-messages HEAD "$7" > "$t/merge" 2>"$t/err"; rc=$?
  if [ "$rc" -eq 1 ]; then tr '\n' '\000' < "$t/merge" | tail -z -n +2 | sed -z '/^$/d' > "$t/conflicts"; conflict merge; fi
  [ "$rc" -eq 0 ] || exit 15
  identity
  git merge -q --no-edit -m "$6" "$7" > "$t/err" 2>&1 || { git merge --abort 2>/dev/null; conflict overwrite; }
  cat -- "$t/paths"; git rev-parse HEAD | tr '\n' '\000' ;;
esac`;

/**
 * `$1` the project's folder in the checkout, `$2` the worktree's folder, `$3` its branch, `$4` its base, `$5`
 * `force` (the person discards it) or `keep-unapplied` (the conversation went: a branch with commits of its own that
 * the checkout's HEAD does not hold is kept). Prints `deleted` or `kept` (the branch), NUL-terminated.
 */
export const REMOVE_WORKTREE_SCRIPT = String.raw`cd -- "$1" 2>/dev/null || exit 13
cdup=$(git rev-parse --show-cdup 2>/dev/null) && cd "./$cdup" || exit 8
if [ -e "$2" ]; then
  git worktree remove --force --force "$2" 2>/dev/null || case "$2" in */worktrees/*) rm -rf -- "$2" ;; esac
fi
git worktree prune 2>/dev/null
if git rev-parse -q --verify "refs/heads/$3" >/dev/null; then
  if [ "$5" = keep-unapplied ] && [ -n "$(git rev-list -n 1 "refs/heads/$3" --not "$4" HEAD 2>/dev/null)" ]; then
    printf 'kept\0'; exit 0
  fi
  git branch -q -D "$3" >/dev/null 2>&1 || exit 5
fi
printf 'deleted\0'`;

/** `$1…` worktree folders: for each, its size on disk in KiB, or `-` when it is gone; NUL-terminated. */
export const WORKTREE_SIZES_SCRIPT = String.raw`for d; do
  if [ -d "$d" ]; then printf '%s\0' "$(du -sk -- "$d" 2>/dev/null | cut -f1)"; else printf -- '-\0'; fi
done`;

/** `$1` a checkout's folder: forgets the worktrees whose folders are gone (`git worktree prune`). */
export const PRUNE_WORKTREES_SCRIPT = String.raw`cd -- "$1" 2>/dev/null || exit 13
git worktree prune 2>/dev/null || exit 5`;
