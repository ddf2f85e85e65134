'use strict';
// The tools table of docs/ai-agent-tool.md, written from the node's registry: each operation's
// Tool Description (its first sentence) and the fields the model fills (the `$fromAI` keys of
// its tool defaults). `npm run fixtures:update` rewrites it; test/agreements/operations-docs.test.ts
// fails, naming that command, when the page and the registry differ.

const fs = require('node:fs');
const path = require('node:path');

const PAGE = path.resolve(__dirname, '../docs/ai-agent-tool.md');
const START = '<!-- tools table: written by npm run fixtures:update -->';
const END = '<!-- end of tools table -->';

const onTool = (property) => property.displayOptions?.show?.['@tool']?.[0] === true;
/** The texts of a default: itself, or a picker's `{ mode, value }` (nodes/LbaAds/helpers/picker.ts), whose value holds the `$fromAI`. */
const texts = (value) => (typeof value === 'string' ? [value] : value !== null && typeof value === 'object' ? Object.values(value).flatMap(texts) : []);
const cell = (text) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

/** `resources`: the registry (nodes/LbaAds/actions/resources.ts RESOURCES). */
function toolTable(resources) {
  const rows = resources.flatMap((resource) =>
    resource.operations.map((module) => {
      const text = String(module.description.find((property) => property.name === 'toolDescription' && onTool(property))?.default ?? '');
      const first = /^(.+?[.!?])(?=\s+[A-Z]|$)/s.exec(text)?.[1] ?? text;
      const fields = module.description
        .filter(onTool)
        .flatMap((property) => texts(property.default))
        .flatMap((text) => [...text.matchAll(/\$fromAI\('([^']+)', `[^`]*`, '([a-z]+)'\)/g)])
        .map(([, key, type]) => (type === 'string' ? `\`${key}\`` : `\`${key}\` (${type})`));
      return `| ${resource.name} → ${module.option.name} | ${cell(first)} | ${fields.join(', ') || 'none'} |`;
    }),
  );
  return [START, '| Tool | Description (its first sentence) | Fields the model fills |', '|---|---|---|', ...rows, END].join('\n');
}

/** The page with its tools table replaced by `table`. */
function withTable(page, table) {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${path.relative(process.cwd(), PAGE)} has no "${START}" … "${END}" block`);
  return page.slice(0, start) + table + page.slice(end + END.length);
}

function writeToolTable(resources) {
  fs.writeFileSync(PAGE, withTable(fs.readFileSync(PAGE, 'utf8'), toolTable(resources)));
  console.log(`Wrote the tools table of ${path.relative(process.cwd(), PAGE)}.`);
}

module.exports = { PAGE, toolTable, withTable, writeToolTable };
