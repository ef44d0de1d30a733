#!/usr/bin/env bash
# Makes the Obsidian Help corpora of eval/qrels (obsidian-help-en.tar.gz, obsidian-help-ja.tar.gz) from a
# clone of https://github.com/obsidianmd/obsidian-help: its en/ and ja/ folders, markdown only (the images,
# videos and icons are left out), at the commit the sets were judged on. Usage:
#   git clone https://github.com/obsidianmd/obsidian-help /tmp/obsidian-help
#   bash eval/make-obsidian-help.sh /tmp/obsidian-help DIR     # then TSM_CORPORA=DIR npm run eval
set -euo pipefail
clone=${1:?usage: make-obsidian-help.sh CLONE OUT_DIR}
out=$(mkdir -p "${2:?usage: make-obsidian-help.sh CLONE OUT_DIR}" && cd "$2" && pwd)
commit=fa179e91e86eaff5859226cc045c81000d64e3cd
git -C "$clone" cat-file -e "$commit^{commit}" || { echo "make-obsidian-help: $clone lacks commit $commit (git -C $clone fetch)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for lang in en ja; do
  git -C "$clone" ls-tree -r -z --name-only "$commit" -- "$lang" | while IFS= read -r -d '' f; do
    case "$f" in *.md) ;; *) continue ;; esac
    dest="$work/obsidian-help-$lang/${f#"$lang"/}"
    mkdir -p "$(dirname "$dest")"
    git -C "$clone" show "$commit:$f" >"$dest"
  done
  tar -czf "$out/obsidian-help-$lang.tar.gz" -C "$work" "obsidian-help-$lang"
  echo "$out/obsidian-help-$lang.tar.gz: $(find "$work/obsidian-help-$lang" -name '*.md' | wc -l) notes"
done
