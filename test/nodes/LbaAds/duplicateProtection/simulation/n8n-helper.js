/**
 * n8n's own processed-items store (DeduplicationHelper of n8n 2.40.7, on SQLite in memory, through
 * TypeORM as n8n sets it up), driven by a list of calls read from stdin; prints, for each call, its
 * answer (or error) and every row after it. store.differential.test.ts compares this with the model.
 *
 *   node n8n-helper.js <n8n install's node_modules> < calls.json
 */
const { AsyncLocalStorage } = require('node:async_hooks');

const N = process.argv[2];
process.env.DB_TYPE = 'sqlite';
const load = (name) => require(require.resolve(name, { paths: [N] }));
load('reflect-metadata');

async function main() {
	const calls = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
	const { DataSource } = load('@n8n/typeorm');
	const db = load('@n8n/db');
	const { Container } = load('@n8n/di');
	const dataSource = new DataSource({ type: 'sqlite', database: ':memory:', entities: [db.ProcessedData], synchronize: true });
	await dataSource.initialize();
	Container.set(db.ProcessedDataRepository, new db.ProcessedDataRepository(dataSource));
	const { DeduplicationHelper } = require(`${N}/n8n/dist/deduplication/deduplication-helper.js`);
	const helper = new DeduplicationHelper();
	const repository = Container.get(db.ProcessedDataRepository);
	// A pair (a call marked `together` and the one before it) runs in one fixed interleaving: the
	// first call's first statement, then the whole second call, then the rest of the first (the
	// order in which a write-back can undo another's write). The model is driven the same way.
	const turn = new AsyncLocalStorage();
	for (const method of ['findOne', 'insert', 'update', 'delete']) {
		const original = repository[method].bind(repository);
		repository[method] = async (...args) => {
			const call = turn.getStore();
			if (!call) return await original(...args);
			if (call.statements++ > 0) await call.gate;
			try {
				return await original(...args);
			} finally {
				call.firstDone();
			}
		};
	}
	const out = [];
	for (let start = 0; start < calls.length; ) {
		const pair = start + 1 < calls.length && calls[start + 1].together;
		let answers;
		if (pair) {
			let open;
			const first = { statements: 0, gate: new Promise((resolve) => (open = resolve)) };
			const firstStatement = new Promise((resolve) => (first.firstDone = resolve));
			const running = turn.run(first, () => run(helper, calls[start]));
			// The second call starts once the first call's first statement has answered (or the call ended without one).
			await Promise.race([firstStatement, running]);
			const second = await run(helper, calls[start + 1]);
			open();
			answers = [await running, second];
		} else answers = [await run(helper, calls[start])];
		const rows = (await repository.find()).map((row) => ({ row: `${row.workflowId}|${row.context}`, value: row.value }));
		for (const answer of answers) out.push({ answer: answer ?? null, rows: rows.sort((a, b) => a.row.localeCompare(b.row)) });
		start += answers.length;
	}
	process.stdout.write(JSON.stringify(out));
	await dataSource.destroy();
}

async function run(helper, call) {
	const context = { workflow: { id: call.workflow }, node: { id: 'lba' } };
	try {
		if (call.op === 'record') return await helper.checkProcessedAndRecord(call.items, call.scope, context, call.options);
		if (call.op === 'remove') return await helper.removeProcessed(call.items, call.scope, context, call.options);
		if (call.op === 'clear') return await helper.clearAllProcessedItems(call.scope, context, call.options);
		return await helper.getProcessedDataCount(call.scope, context, call.options);
	} catch (error) {
		return { error: error.message };
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
