/**
 * The documentation's relative links and images point at files that exist, and every `#anchor`
 * names a heading of its target (GitHub's slug rules). The README stays a short page for users:
 * at most 260 lines, with Install and the test command on its first screen, and the commands CI
 * runs (.ci/run) written in it.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** The Markdown files whose links are checked, relative to the repository root. */
function documentationFiles(): string[] {
	const files = ['README.md', 'ARCHITECTURE.md', 'bench/README.md', 'sandbox/README.md', 'test/e2e/README.md'];
	const docs = readdirSync(path.join(ROOT, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`);
	return [...files, ...docs].filter((file) => existsSync(path.join(ROOT, file)));
}

/** Blanks out fenced code blocks, inline code and HTML comments, keeping the line count. */
function withoutCode(markdown: string): string {
	const lines = markdown.split('\n');
	let fence: string | undefined;
	const kept = lines.map((line) => {
		const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
		if (fence) {
			if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
			return '';
		}
		if (marker) {
			fence = marker;
			return '';
		}
		return line;
	});
	return kept
		.join('\n')
		.replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, ''))
		.replace(/(`+)(?:(?!\1)[^\n])*?\1/g, 'code');
}

/** GitHub's heading anchor: lowercase, punctuation other than - and _ removed, spaces to -. */
export function slug(heading: string): string {
	const text = heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or image in a heading keeps its text
		.replace(/<[^>]+>/g, '') // inline HTML
		.trim()
		.toLowerCase();
	return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

/** Every anchor a Markdown file offers: its headings (duplicates numbered -1, -2, …) and HTML ids. */
export function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	const plain = markdown.split('\n');
	const text = withoutCode(markdown).split('\n');
	text.forEach((line, i) => {
		let heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
		// Setext headings: a text line underlined with === or ---.
		if (heading === undefined && i + 1 < text.length && /^\s{0,3}(=+|-+)\s*$/.test(text[i + 1]) && line.trim() !== '' && !/^\s{0,3}([-*+]\s|\||>)/.test(line)) {
			heading = line.trim();
		}
		if (heading === undefined) return;
		// Inline code in a heading keeps its text in the slug: take the heading from the raw line.
		const raw = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(plain[i])?.[1] ?? plain[i].trim();
		const base = slug(raw.replace(/`/g, ''));
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	});
	for (const match of markdown.matchAll(/<a\s[^>]*(?:name|id)="([^"]+)"/g)) anchors.add(match[1]);
	return anchors;
}

/** Relative link and image targets of a Markdown file, with their line numbers. */
export function linksOf(markdown: string): Array<{ target: string; line: number }> {
	const links: Array<{ target: string; line: number }> = [];
	withoutCode(markdown)
		.split('\n')
		.forEach((line, i) => {
			const patterns = [
				/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g, // [text](target "title"), ![alt](src)
				/^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/g, // [label]: target
				/<(?:img|a)\s[^>]*?(?:src|href)="([^"]+)"/g, // <img src>, <a href>
			];
			for (const pattern of patterns) {
				for (const match of line.matchAll(pattern)) links.push({ target: match[1], line: i + 1 });
			}
		});
	return links.filter(({ target }) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('//'));
}

/** The broken links of one file, as "file:line → target (reason)". */
export function brokenLinks(root: string, file: string): string[] {
	const markdown = readFileSync(path.join(root, file), 'utf8');
	const broken: string[] = [];
	for (const { target, line } of linksOf(markdown)) {
		const hash = target.indexOf('#');
		const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
		const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
		const resolved = pathPart === '' ? path.join(root, file) : path.resolve(path.dirname(path.join(root, file)), pathPart);
		const where = `${file}:${line} → ${target}`;
		if (!existsSync(resolved)) {
			broken.push(`${where} (no such file)`);
			continue;
		}
		if (anchor === undefined || anchor === '' || statSync(resolved).isDirectory() || !resolved.endsWith('.md')) continue;
		if (!anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)) broken.push(`${where} (no heading "#${anchor}")`);
	}
	return broken;
}

describe('the slug of a heading, as GitHub makes it', () => {
	it.each([
		['Installing through Settings → Community nodes', 'installing-through-settings--community-nodes'],
		["As an AI agent's tool", 'as-an-ai-agents-tool'],
		['Never the same campaign twice: duplicate protection', 'never-the-same-campaign-twice-duplicate-protection'],
		['Campaign → Create (`POST /lba/campaign`)', 'campaign--create-post-lbacampaign'],
		['`npm run demo`', 'npm-run-demo'],
		['Supported n8n versions', 'supported-n8n-versions'],
	])('%s → #%s', (heading, expected) => {
		expect(anchorsOf(`# ${heading}\n`)).toEqual(new Set([expected]));
	});

	it('numbers repeated headings and ignores # lines in code blocks', () => {
		expect(anchorsOf('# Notes\n\n```bash\n# not a heading\n```\n\n## Notes\n')).toEqual(new Set(['notes', 'notes-1']));
	});
});

describe('the link checker', () => {
	let dir: string;
	beforeAll(() => {
		dir = mkdtempSync(path.join(tmpdir(), 'lba-docs-links-'));
		writeFileSync(path.join(dir, 'b.md'), '# B page\n\n## Part two\n');
		writeFileSync(
			path.join(dir, 'a.md'),
			[
				'# A',
				'[ok](b.md) [ok anchor](b.md#part-two) [own](#a) [web](https://example.com/x.md)',
				'[missing file](c.md)',
				'![missing image](images/none.png)',
				'[missing anchor](b.md#part-three)',
				'[missing own anchor](#nowhere)',
				'`[in code](nowhere.md)`',
				'```',
				'[in a block](nowhere.md)',
				'```',
			].join('\n'),
		);
	});
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	it('reports exactly the broken links and images, not code or web addresses', () => {
		expect(brokenLinks(dir, 'a.md')).toEqual([
			'a.md:3 → c.md (no such file)',
			'a.md:4 → images/none.png (no such file)',
			'a.md:5 → b.md#part-three (no heading "#part-three")',
			'a.md:6 → #nowhere (no heading "#nowhere")',
		]);
	});
});

describe('the documentation', () => {
	const files = documentationFiles();

	it('covers the README and the docs folder', () => {
		expect(files).toContain('README.md');
		expect(files.filter((file) => file.startsWith('docs/')).length).toBeGreaterThan(5);
	});

	it('has links the checker finds (so a parser that finds none cannot pass)', () => {
		const count = (file: string) => linksOf(readFileSync(path.join(ROOT, file), 'utf8')).length;
		expect(count('README.md')).toBeGreaterThan(20);
		expect(files.reduce((sum, file) => sum + count(file), 0)).toBeGreaterThan(60);
	});

	it.each(files)('%s has no broken relative link, image or anchor', (file) => {
		expect(brokenLinks(ROOT, file)).toEqual([]);
	});
});

describe('the README', () => {
	const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
	const lines = readme.replace(/\n$/, '').split('\n');
	const firstScreen = lines.slice(0, 40);

	it('is at most 260 lines', () => {
		expect(lines.length).toBeLessThanOrEqual(260);
	});

	it('has Install, the demo command and the test command in its first 40 lines', () => {
		expect(firstScreen.some((line) => /^## Install\b/.test(line))).toBe(true);
		expect(firstScreen.some((line) => /^npm run demo\b/.test(line.trim()))).toBe(true);
		expect(firstScreen.some((line) => /^npm test\b/.test(line.trim()))).toBe(true);
	});

	it('shows every command CI runs (.ci/run), in that order', () => {
		const ciCommands = readFileSync(path.join(ROOT, '.ci/run'), 'utf8')
			.split('\n')
			.map((line) => line.trim())
			// `step logged npm test` runs `npm test` with its output kept for the closing line.
			.map((line) => line.replace(/^step (logged )?/, ''))
			// `together a b` runs `npm run a` and `npm run b` at once; `together`'s own body names no script.
			.flatMap((line) => (line.startsWith('together ') ? line.split(/\s+/).slice(1).map((name) => `npm run ${name}`) : [line]))
			.filter((line) => /^npm /.test(line) && !line.includes('$'));
		expect(ciCommands).toEqual(expect.arrayContaining(['npm ci', 'npm test']));
		const commandLines = lines.map((line) => line.trim().replace(/\s+#.*$/, '').trim());
		for (const command of ciCommands) expect(commandLines).toContain(command);
		// The README says CI runs them in this order.
		const positions = ciCommands.map((command) => commandLines.lastIndexOf(command));
		expect(positions).toEqual([...positions].sort((x, y) => x - y));
	});
});

describe("the marketers' page on duplicate protection (issue 41)", () => {
	const page = readFileSync(path.join(ROOT, 'docs', 'duplicate-protection.md'), 'utf8');

	it("reads in four minutes: at most 900 words, tables included (issue 60)", () => {
		const words = page.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word));
		expect(words.length).toBeLessThanOrEqual(900);
		// And as `wc -w` counts them (every run of non-blanks, table bars and bullets included): the issue's measure.
		expect(page.split(/\s+/).filter(Boolean).length).toBeLessThanOrEqual(900);
	});

	it.each(['retry key', 'execution context', 'establishedAt', 'run index', 'tool call id', 'hash', 'node id', 'lock row'])('uses no internal word: %s', (word) => {
		expect(page.toLowerCase()).not.toContain(word.toLowerCase());
	});

	it('answers the everyday questions in its first screen', () => {
		const firstScreens = page.slice(0, page.indexOf('## Choose how campaigns are compared'));
		for (const question of ['Retry', 'instead of Retry', 'next week', 'May have been created', 'copied', 'Queue mode', 'How much']) expect(firstScreens).toContain(question);
	});
});
