#!/usr/bin/env bash
# n8n's own lint, `n8n-node lint` (@n8n/node-cli), on exactly what is published: package.json,
# nodes/ and credentials/, in a copy. Why a copy: with "strict": true in package.json's n8n
# section, n8n-node lint insists that eslint.config.mjs is its two-line default, which lints every
# .ts file, test/ included (where process, setTimeout and console are fine); the repository's own
# eslint.config.mjs applies the same rule sets to the published code only. See docs/development.md.
# The CLI is pinned in scripts/n8n-node-cli/package.json and installed once into the cache outside
# the clone (not a devDependency: its own dependencies were a quarter of `npm ci`'s CPU time); the
# copy's node_modules is that install's, so n8n-node resolves its config and rules there.
set -euo pipefail
cd "$(dirname "$0")/.."
tool="$(LBA_N8N_MANIFEST=scripts/n8n-node-cli/package.json LBA_N8N_PACKAGE=@n8n/node-cli LBA_N8N_NODE=system \
	bash scripts/install-n8n.sh | tail -1)"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
cp package.json tsconfig.json "$stage/"
cp -r nodes credentials "$stage/"
# n8n-node's default config, as `n8n-node new` writes it (its strict check compares with that file).
printf "import { config } from '@n8n/node-cli/eslint';\n\nexport default config;\n" >"$stage/eslint.config.mjs"
ln -s "$tool/node_modules" "$stage/node_modules"
cd "$stage"
"$tool/node_modules/.bin/n8n-node" lint
