import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions, NodeHint } from 'n8n-workflow';

import type { Transport } from '../../../shared/transport';
import type { ListSearch } from '../../helpers/picker';

/**
 * What an operation is to the item engine (runItems): read and check one item's parameters
 * (`prepare`, no I/O), then do its work (`send`). The engine owns concurrency, continueOnFail
 * and pairedItem, so every operation behaves the same.
 */
export interface Operation<Request> {
	/**
	 * Writes check every item before the first request, so a bad item stops the run before
	 * anything is sent. Reads stream: item 5 is read while item 4's request is in flight.
	 */
	checkAllBeforeSending: boolean;
	/** Whether it calls the LBA service (and so needs the credential); false for work on n8n's own data. */
	usesService: boolean;
	/** `transport` is there for an operation that calls the service (e.g. to know where it sends). */
	prepare(ctx: IExecuteFunctions, itemIndex: number, transport?: Transport): Request;
	/**
	 * Asked once every item is prepared, before the first request: a check of the whole
	 * execution (e.g. a spending limit). What it throws refuses every item, and nothing is sent.
	 */
	checkExecution?(ctx: IExecuteFunctions, prepared: Array<Prepared<Request>>): void;
	/**
	 * Writes only: asked once every item is prepared, before `checkExecution` and the first
	 * request, with the items that passed `prepare`. It may ask the service (one request for the
	 * whole run, say: I/O is not allowed in `prepare`). Returns the items it refuses, each with its
	 * error; what it throws refuses every item, and nothing is sent.
	 */
	checkWithService?(ctx: IExecuteFunctions, prepared: Array<Prepared<Request>>, transport: Transport): Promise<Map<number, Error>>;
	/**
	 * Writes only: asked once every item is prepared, before the first request. Its waves of
	 * claims say which items must not be sent, and it is told how each sent item ended.
	 */
	guard?(ctx: IExecuteFunctions, prepared: Array<Prepared<Request>>): SendGuard | undefined;
	/** One item's work; its answer becomes that item's output items. */
	send?(ctx: IExecuteFunctions, request: Request, transport: Transport, itemIndex: number): Promise<IDataObject[]>;
	/** One sent item's output in a few words (a campaign's id and status), for an error that stops a run midway. */
	describeDone?(json: IDataObject): string;
	/** Once the node's run has returned its items (not when it throws): what it must remember of a run that is over. */
	ended?(ctx: IExecuteFunctions): void;
	/** Another operation's work that this one's settings ask for instead (Create's Mode "Forget Sent Campaigns"). */
	instead?(ctx: IExecuteFunctions): Operation<unknown> | undefined;
	/** Instead of `send`: the work of all the prepared items at once (one store call, say). */
	sendAll?(ctx: IExecuteFunctions, prepared: Array<Prepared<Request>>): Promise<AllItemsResult>;
}

export interface Prepared<Request> {
	itemIndex: number;
	request: Request;
}

/** Output items by input item, or one output item that stands for every input item. */
export type AllItemsResult = { perItem: Map<number, IDataObject[]> } | { forAllItems: IDataObject };

export type SentResult = { itemIndex: number } & ({ status: 'done' } | { status: 'failed'; error: unknown } | { status: 'notSent' });

export interface SendGuard {
	/** Claims a wave of items just before they are sent; returns those that must not be sent, with the success item that says why. */
	claim(itemIndexes: number[]): Promise<Map<number, IDataObject>>;
	/** Told how each sent item of the wave ended. */
	settle(results: SentResult[]): Promise<void>;
}

/**
 * An operation as the node shows it and runs it; one file holds all of it. Its resource's
 * index lists it once, and the node's description and the router both read that list.
 */
export interface OperationModule<Request = unknown> {
	/** Its entry in the resource's Operation selector. */
	option: INodePropertyOptions & { value: string; action: string };
	/** Its fields (each shown only for this resource and operation). */
	description: INodeProperties[];
	/** Its own entries in the node's Options collection, if any. */
	options?: INodeProperties[];
	/** Hints the panel shows for it (each with a displayCondition naming this operation). */
	hints?: NodeHint[];
	/**
	 * The list functions of its pickers (helpers/picker.ts), by the name each picker gives:
	 * `{ searchProducts }`. The registry puts them into the node's `methods.listSearch`.
	 */
	listSearch?: ListSearch;
	operation: Operation<Request>;
}

export interface Resource {
	name: string;
	value: string;
	/** The operation the selector starts on. */
	defaultOperation: string;
	/** Each operation's own Request type fits here: the contract's members are methods, which TypeScript checks bivariantly. */
	operations: OperationModule[];
}
