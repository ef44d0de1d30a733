#!/usr/bin/env bash
# Makes the two developer-notes corpora of eval/qrels from clones of their public repositories, markdown only,
# at the commits the sets were judged on:
#   til-en.tar.gz    https://github.com/jbranchaud/til (MIT): 1,873 short English "today I learned" notes
#                    on git, vim, postgres, rails, unix, … — a developer's own notes, the kind tsm is for;
#   tldr-ja.tar.gz   https://github.com/tldr-pages/tldr (CC BY 4.0), its pages.ja/ folder: 492 Japanese
#                    command pages (tar, git, ssh, …), one section each.
# Usage:
#   git clone https://github.com/jbranchaud/til /tmp/til
#   git clone https://github.com/tldr-pages/tldr /tmp/tldr
#   bash eval/make-dev-corpora.sh /tmp/til /tmp/tldr DIR     # then TSM_CORPORA=DIR npm run eval
set -euo pipefail
til=${1:?usage: make-dev-corpora.sh TIL_CLONE TLDR_CLONE OUT_DIR}
tldr=${2:?usage: make-dev-corpora.sh TIL_CLONE TLDR_CLONE OUT_DIR}
out=$(mkdir -p "${3:?usage: make-dev-corpora.sh TIL_CLONE TLDR_CLONE OUT_DIR}" && cd "$3" && pwd)
til_commit=453e9edbdf2be4165b65cbcce7342ac7bb9c4859
tldr_commit=08e345f42639f67d99282813247ac670dc6e87cb
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# copy CLONE COMMIT FOLDER_IN_REPO NAME: every .md under the folder ('' for the whole tree) into $work/NAME.
copy() {
  local clone=$1 commit=$2 folder=$3 name=$4 f dest
  git -C "$clone" cat-file -e "$commit^{commit}" || { echo "make-dev-corpora: $clone lacks commit $commit (git -C $clone fetch)" >&2; exit 1; }
  git -C "$clone" ls-tree -r -z --name-only "$commit" -- $folder | while IFS= read -r -d '' f; do
    case "$f" in *.md) ;; *) continue ;; esac
    case "$f" in .github/*) continue ;; esac
    dest="$work/$name/${f#"$folder"/}"
    mkdir -p "$(dirname "$dest")"
    git -C "$clone" show "$commit:$f" >"$dest"
  done
  tar -czf "$out/$name.tar.gz" -C "$work" "$name"
  echo "$out/$name.tar.gz: $(find "$work/$name" -name '*.md' | wc -l) notes"
}
copy "$til" "$til_commit" '' til-en
copy "$tldr" "$tldr_commit" pages.ja tldr-ja
