#!/bin/sh
# Fetches every remote of the git mirror $1 and tells Drover whether anything changed: the last line
# of stdout is {"status": "eventful", "refs": N} when the mirror's refs changed, else
# {"status": "uneventful", "refs": N}, N being how many refs it has now. A missing mirror is
# {"status": "not_found"} (Drover disables the task); a failed fetch exits non-zero (Drover retries).
set -eu

mirror=${1:?usage: mirror-fetch.sh MIRROR}
if [ ! -d "$mirror" ]; then
  echo "no mirror at $mirror" >&2
  echo '{"status": "not_found"}'
  exit 0
fi

before=$(git -C "$mirror" show-ref || true)
git -C "$mirror" fetch --all --prune --quiet
after=$(git -C "$mirror" show-ref || true)

refs=$(printf '%s\n' "$after" | grep -c . || true)
if [ "$before" = "$after" ]; then
  status=uneventful
else
  status=eventful
fi
printf '{"status": "%s", "refs": %d}\n' "$status" "$refs"
