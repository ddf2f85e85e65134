// Prints the figures every reliability suite recorded (test/reliability/figures.ts) as one
// table after the run, and writes them to artifacts/reliability/figures.{json,md}.
const { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const FIGURES_DIR = path.resolve(__dirname, '../../artifacts/reliability/figures');
const OUT_DIR = path.dirname(FIGURES_DIR);

class FiguresReporter {
	onRunStart() {
		rmSync(FIGURES_DIR, { recursive: true, force: true });
	}

	onRunComplete() {
		if (!existsSync(FIGURES_DIR)) return;
		const figures = readdirSync(FIGURES_DIR)
			.filter((name) => name.endsWith('.json'))
			.sort()
			.flatMap((name) => JSON.parse(readFileSync(path.join(FIGURES_DIR, name), 'utf8')));
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

module.exports = FiguresReporter;
