#!/usr/bin/env bash
# Makes a release: bump the version, date the changelog, commit, tag, push. The tag starts
# .github/workflows/release.yml, which tests and publishes to npm with provenance.
#   bash scripts/release.sh patch|minor|major
#   bash scripts/release.sh 1.0.0     an exact version; the first release is package.json's own
set -euo pipefail
cd "$(dirname "$0")/.."
bump="${1:?usage: bash scripts/release.sh patch|minor|major|<version>}"
test -z "$(git status --porcelain)" || { echo "release: the working tree is not clean" >&2; exit 1; }
grep -q '^## Unreleased' CHANGELOG.md || { echo "release: CHANGELOG.md has no '## Unreleased' section" >&2; exit 1; }
version="$(npm version "$bump" --no-git-tag-version --allow-same-version | tr -d v)"
if git rev-parse -q --verify "refs/tags/v${version}" >/dev/null; then
  git checkout -q -- package.json package-lock.json
  echo "release: v${version} is already released" >&2
  exit 1
fi
sed -i "s/^## Unreleased$/## ${version} ($(date -u +%Y-%m-%d))/" CHANGELOG.md
git commit -qam "Release ${version}"
git tag -a "v${version}" -m "Release ${version}"
git push --follow-tags
echo "pushed v${version}: the Release workflow tests and publishes it"
