/**
 * The operation contract (nodes/LbaAds/actions/engine/operation.ts): the router hands `send` a
 * transport only when `usesService` is true, so an operation with `send` says it uses the
 * service, and one with `sendAll` (work on n8n's own data) says it does not.
 */
import { RESOURCES } from '../../../../../nodes/LbaAds/actions/resources';
import { expectAgreement } from '../../../../agreements/openapi';

describe('every operation', () => {
	it('has usesService: true exactly when it sends with send() (and so gets a transport)', () => {
		const wrong = RESOURCES.flatMap((resource) =>
			resource.operations
				.filter(({ operation }) => operation.usesService !== Boolean(operation.send))
				.map(({ option, operation }) => `${resource.name} → ${option.name}: usesService is ${operation.usesService}, ${operation.send ? 'but it has send()' : 'but it has no send()'}`),
		);
		expectAgreement(wrong, "An operation that calls the LBA service has send() and usesService: true; work on n8n's own data has sendAll() and usesService: false.");
	});
});
