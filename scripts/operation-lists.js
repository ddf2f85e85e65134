'use strict';
// The operation lists of docs/operations.md (the list at the top) and of the README (under
// "## Operations"), written from the node's registry: one line per registered operation, linking
// its "## <Resource> → <Operation> (`METHOD /path`)" section of docs/operations.md (the section is
// written by hand; the lists are not). `npm run fixtures:update` rewrites them;
// test/agreements/operations-docs.test.ts fails, naming that command, when they differ.

const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const OPERATIONS_PAGE = path.join(ROOT, 'docs/operations.md');
const README = path.join(ROOT, 'README.md');
const START = '<!-- operation list: written by npm run fixtures:update -->';
const END = '<!-- end of operation list -->';

/** GitHub's heading anchor (as test/docs/links.test.ts `slug`): lower case, punctuation other than - and _ gone, spaces to -. */
function slug(heading) {
  return heading.replace(/`/g, '').trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

/** The anchor of an operation's section in docs/operations.md, or its heading's anchor without the endpoint when there is no section yet. */
function anchorOf(operationsPage, name) {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const heading = new RegExp(`^## (${escaped}(?: \\(.*\\))?)$`, 'm').exec(operationsPage);
  return slug(heading ? heading[1] : name);
}

/** `resources`: the registry (nodes/LbaAds/actions/resources.ts RESOURCES). */
function operationNames(resources) {
  return resources.flatMap((resource) => resource.operations.map((module) => ({ name: `${resource.name} → ${module.option.name}`, action: module.option.action })));
}

function operationsPageList(resources, operationsPage) {
  const lines = operationNames(resources).map(({ name }) => `- [${name}](#${anchorOf(operationsPage, name)})`);
  return [START, ...lines, END].join('\n');
}

function readmeList(resources, operationsPage) {
  const lines = operationNames(resources).map(({ name, action }) => `- **[${name}](docs/operations.md#${anchorOf(operationsPage, name)})**: ${action}.`);
  return [START, ...lines, END].join('\n');
}

/** The page with its operation list replaced by `list`. */
function withList(page, list, file) {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${path.relative(ROOT, file)} has no "${START}" … "${END}" block`);
  return page.slice(0, start) + list + page.slice(end + END.length);
}

/** { file: expected text } for both pages. */
function expectedPages(resources) {
  const operationsPage = fs.readFileSync(OPERATIONS_PAGE, 'utf8');
  return {
    [OPERATIONS_PAGE]: withList(operationsPage, operationsPageList(resources, operationsPage), OPERATIONS_PAGE),
    [README]: withList(fs.readFileSync(README, 'utf8'), readmeList(resources, operationsPage), README),
  };
}

function writeOperationLists(resources) {
  for (const [file, text] of Object.entries(expectedPages(resources))) {
    fs.writeFileSync(file, text);
    console.log(`Wrote the operation list of ${path.relative(process.cwd(), file)}.`);
  }
}

module.exports = { OPERATIONS_PAGE, README, expectedPages, writeOperationLists, slug };
