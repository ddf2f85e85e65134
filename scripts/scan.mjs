// n8n's verification scanner (@n8n/scan-community-package), run as its CLI would, on this
// checkout instead of the public registry: the source (SOURCE_FILE_PATTERNS, the full rule set)
// and the packed tarball's contents (compiled .js and package.json). Its CLI only reads published
// packages; its analyzer is exported. Prints the findings; exits 1 on any.
//   npm run build && node scripts/scan.mjs [package folder, default: this repository]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
const work = mkdtempSync(join(tmpdir(), 'lba-scan-'));
try {
	const [{ filename }] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8' }));
	execFileSync('tar', ['-xzf', join(work, filename), '-C', work]);
	const source = await analyzePackage(root, SOURCE_FILE_PATTERNS);
	const tarball = await analyzePackage(join(work, 'package'), ['**/*.js', 'package.json']);
	const report = { source, tarball: { ...tarball, file: filename } };
	for (const [part, result] of Object.entries(report)) {
		console.log(`${result.passed ? 'PASS' : 'FAIL'} ${part}${result.message ? `: ${result.message}` : ''}`);
		if (result.details) console.log(result.details);
	}
	process.exitCode = source.passed && tarball.passed ? 0 : 1;
} finally {
	rmSync(work, { recursive: true, force: true });
}
