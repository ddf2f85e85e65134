// tsc compiles TypeScript only; n8n also needs the node icons next to the compiled node.
const { src, dest, task } = require('gulp');

task('build:icons', () =>
	src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], { base: '.', encoding: false }).pipe(dest('dist')),
);
