/** The finder the catalogue check relies on (issue 60): it sees what the old verb list missed, and lets statements be. */
import { clauses, instructionsNotCatalogued, tellsWhatToDo, uncatalogued } from './instructionFinder';
import { SAY } from '../../nodes/shared/instructions';

describe('which clauses tell someone what to do', () => {
	it.each([
		"run the workflow once, then empty Resend Keys.",
		'Retry this execution once the other executions have finished.',
		'If it is missing, send it again with Resend Keys.',
		'Never call it again for a campaign after an error.',
		'Create a new token or re-enter it in the credential.',
		'Lower the Timeout.',
		'Open Executions and pick the failed one.',
		'check the LBA Ads credential',
		'Do not run the workflow again instead',
		'In a moment, retry this execution.',
	])('an instruction: %s', (clause) => {
		expect(tellsWhatToDo(clause)).toBe(true);
	});

	it.each([
		'Created in an earlier run; not sent again',
		'Send Until is 09:00 in UTC, the workflow\'s timezone.',
		'Nothing was sent for this item.',
		'The history lives in n8n\'s database',
		'Resend works only in a run started from the editor',
		'Same campaign as item 2 of this run, which failed',
		'Limit must be a whole number of at least 1',
	])('a statement: %s', (clause) => {
		expect(tellsWhatToDo(clause)).toBe(false);
	});

	it('cuts steps after a colon or a semicolon, which the old finder never saw', () => {
		expect(clauses('Nothing was sent. The history is in the database: run the workflow again once it answers; then look in LBA Ads.')).toEqual([
			'Nothing was sent.',
			'The history is in the database:',
			'run the workflow again once it answers;',
			'then look in LBA Ads.',
		]);
		expect(instructionsNotCatalogued('Nothing was sent: run the workflow once.')).toEqual(['run the workflow once.']);
	});

	it('takes out the catalogue, templates included, and leaves the facts around them', () => {
		const shown = `Item 2 is too long. ${SAY.fixInPanel('it', ' (in Campaign (JSON))')} ${SAY.lowerSmsQuantity('1,000')} Nothing was sent.`;
		expect(instructionsNotCatalogued(shown)).toEqual([]);
		expect(uncatalogued(shown)).toContain('Nothing was sent.');
		expect(instructionsNotCatalogued(`${SAY.waitThenLook} Then run the workflow again.`)).toEqual(['Then run the workflow again.']);
	});
});
