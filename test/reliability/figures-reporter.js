// Prints the figures every reliability suite recorded (test/reliability/figures.ts) as one
// table after the run, and writes them to artifacts/reliability/figures.{json,md}.
const { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const path = require('node:path');

// LBA_RELIABILITY_ARTIFACTS: another run of these suites (npm run test:n8n1) keeps its figures apart.
const OUT_DIR = path.resolve(__dirname, '../..', process.env.LBA_RELIABILITY_ARTIFACTS ?? 'artifacts/reliability');
const FIGURES_DIR = path.join(OUT_DIR, 'figures');
const CONNECTIONS_DIR = path.join(OUT_DIR, 'connections'); // written by loopback-only.ts

class FiguresReporter {
	onRunStart() {
		rmSync(FIGURES_DIR, { recursive: true, force: true });
		rmSync(CONNECTIONS_DIR, { recursive: true, force: true });
		this.error = undefined;
	}

	/** Jest fails the run when a reporter reports an error. */
	getLastError() {
		return this.error;
	}

	onRunComplete() {
		const figures = readJsonFiles(FIGURES_DIR).flat();
		const connections = readJsonFiles(CONNECTIONS_DIR);
		if (connections.length > 0) {
			const loopback = connections.reduce((sum, c) => sum + c.loopback, 0);
			const refused = connections.flatMap((c) => c.refused);
			figures.push({
				section: 'Whole suite',
				figure: 'TCP connections opened by the test process: loopback / elsewhere (refused)',
				value: `${loopback} / ${refused.length}${refused.length ? ` (${[...new Set(refused)].join(', ')})` : ''}`,
				target: 'elsewhere = 0',
				ok: refused.length === 0,
			});
			if (refused.length > 0) this.error = new Error(`The reliability suite tried to leave loopback: ${refused.join(', ')}`);
		}
		if (figures.length === 0) return;
		const lines = [
			'| Section | Figure | Value | Target | Met |',
			'|---|---|---|---|---|',
			...figures.map((f) => `| ${f.section} | ${f.figure} | ${f.value} | ${f.target} | ${f.ok ? 'yes' : '**NO**'} |`),
		];
		const table = lines.join('\n');
		writeFileSync(path.join(OUT_DIR, 'figures.json'), JSON.stringify(figures, null, 2));
		writeFileSync(path.join(OUT_DIR, 'figures.md'), `${table}\n`);
		process.stdout.write(`\nReliability figures (${new Date().toISOString()}):\n\n${table}\n\n`);
	}
}

function readJsonFiles(dir) {
	if (!existsSync(dir)) return [];
	return readdirSync(dir)
		.filter((name) => name.endsWith('.json'))
		.sort()
		.map((name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')));
}

module.exports = FiguresReporter;
