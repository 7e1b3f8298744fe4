#!/usr/bin/env bash
# Turns a workbench screenshot into the image the README shows (issue 15: the README's
# images ship inside the VSIX). pngquant reduces it to a palette (UI screenshots need a few
# dozen colours; text stays crisp), then cwebp stores that palette image as lossless WebP:
# the same pixels, about 30 % smaller than the best PNG. VS Code's extension page and GitHub
# show WebP.
#   bash scripts/readme-image.sh SHOT.png docs/images/NAME.webp
# Screenshots come from `npx tsx scripts/screenshots.ts` (which calls this) and from the
# end-to-end tests, which leave theirs in test-results/. Needs Debian's `pngquant` and
# `webp`; CI never runs it.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 SHOT.png OUT.webp" >&2; exit 2; }
palette=$(mktemp --suffix=.png)
trap 'rm -f "$palette"' EXIT
pngquant --quality=65-90 --speed 1 --strip --force --output "$palette" "$1"
cwebp -quiet -lossless -z 9 -metadata none "$palette" -o "$2"
