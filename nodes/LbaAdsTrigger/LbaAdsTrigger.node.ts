import type { IDataObject, INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { catalogueChanges, type CatalogueEvent, type CatalogueState } from './catalogueChanges';
import { fetchProducts, simplifyProduct } from '../shared/api/products';
import { transportFor } from '../shared/transport';
import { LBA_ADS_DESCRIPTION } from '../shared/packageDescription';
import { AUTHENTICATION, CREDENTIALS } from '../shared/transport/authentication';

/**
 * Starts a workflow when the data packages of GET /io/products change. The API has no events,
 * so n8n polls (Poll Times) and the node compares the catalogue with the one it saw last, kept in
 * the node's static data (n8n saves it with the workflow, so a restart does not re-emit).
 */
export class LbaAdsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'LBA Ads Trigger',
		name: 'lbaAdsTrigger',
		icon: { light: 'file:lbaAds.svg', dark: 'file:lbaAds.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ ($parameter["events"] || []).length + " event(s)" }}',
		// n8n's node picker shows one entry for both nodes, with this description: the action node's (see packageDescription.ts).
		description: LBA_ADS_DESCRIPTION,
		defaults: { name: 'LBA Ads Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: CREDENTIALS,
		properties: [
			AUTHENTICATION,
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['newProduct', 'priceChanged'],
				options: [
					{ name: 'New Product', value: 'newProduct', description: 'A data package appears in the catalogue' },
					{ name: 'Price Changed', value: 'priceChanged', description: 'A data package costs more or less than before' },
					{ name: 'Product Removed', value: 'productRemoved', description: 'A data package is no longer offered' },
					{ name: 'Quota Changed', value: 'quotaChanged', description: 'Its main, night or apps quota changed' },
				],
				description: 'Which changes start the workflow; each change is one item',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Emit Current Catalogue on First Poll',
						name: 'emitCurrentCatalogue',
						type: 'boolean',
						default: false,
						description:
							'Whether the first poll after activation emits every package as New Product. Off: it only records the catalogue, and later polls emit the changes.',
					},
				],
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const events = this.getNodeParameter('events', []) as CatalogueEvent[];
		const emitCurrent = this.getNodeParameter('options.emitCurrentCatalogue', false) === true;
		const transport = await transportFor(this, this.getNodeParameter('authentication', 'accessToken'));
		const products = (await fetchProducts(this, transport)).map(simplifyProduct);
		const state = this.getWorkflowStaticData('node') as CatalogueState;

		if (this.getMode() === 'manual') {
			// "Fetch Test Event": show real data at once, and leave the recorded catalogue alone.
			const changes = catalogueChanges(state, products, events, false, new Date());
			const sample = changes.items.length
				? changes.items
				: products.slice(0, 1).map((product) => ({ event: events[0] ?? 'newProduct', sample: true, ...product, changes: {} }));
			return sample.length ? [sample.map((json) => ({ json }))] : null;
		}

		const { items, next } = catalogueChanges(state, products, events, emitCurrent, new Date());
		state.products = next.products;
		state.truncated = next.truncated;
		return items.length ? [items.map((json: IDataObject) => ({ json }))] : null;
	}
}
