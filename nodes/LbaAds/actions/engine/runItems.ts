import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Operation, Prepared, SentResult } from './operation';
import type { Transport } from '../../../shared/transport';
import { runsAsTool, withDescriptionInMessage } from '../../helpers/aiTool';

/**
 * The item engine: every operation's items go through here. It prepares (checks) items, asks a
 * write's guard which may be sent, sends them with `concurrency` requests at a time in waves,
 * and builds the output in input order with pairedItem, honouring continueOnFail.
 */

/** A guarded run claims items in waves of this many per concurrent request (at least MIN_WAVE). */
const WAVE_PER_CONCURRENCY = 4;
const MIN_WAVE = 4;

export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 64;

type Outcome = { json: IDataObject[] } | { error: Error };

export async function runItems<Request>(
	ctx: IExecuteFunctions,
	operation: Operation<Request>,
	transport: Transport | undefined,
	concurrency: number,
): Promise<INodeExecutionData[]> {
	const itemCount = ctx.getInputData().length;
	const continueOnFail = ctx.continueOnFail();
	const toErrorOutput = ctx.getNode().onError === 'continueErrorOutput';
	const outcomes: Outcome[] = new Array(itemCount);
	const prepared: Array<Request | undefined> = new Array(itemCount);

	const prepare = (itemIndex: number): boolean => {
		try {
			prepared[itemIndex] = operation.prepare(ctx, itemIndex, transport);
			return true;
		} catch (error) {
			outcomes[itemIndex] = { error: asNodeError(ctx, error, itemIndex) };
			return false;
		}
	};

	if (operation.checkAllBeforeSending) {
		for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
			if (!prepare(itemIndex) && !continueOnFail) throw (outcomes[itemIndex] as { error: Error }).error;
		}
	}

	if (operation.checkAllBeforeSending && operation.checkWithService && transport) {
		const candidates = preparedItems(prepared, outcomes, itemCount);
		if (candidates.length) {
			let refused: Map<number, Error>;
			try {
				refused = await operation.checkWithService(ctx, candidates, transport);
			} catch (error) {
				if (!continueOnFail) throw asNodeError(ctx, error, candidates[0].itemIndex);
				for (const { itemIndex } of candidates) outcomes[itemIndex] = { error: asNodeError(ctx, error, itemIndex) };
				return output(outcomes, itemCount, continueOnFail, toErrorOutput);
			}
			// In input order: without continueOnFail the first refused item stops the run, nothing sent.
			for (const itemIndex of [...refused.keys()].sort((a, b) => a - b)) {
				const error = asNodeError(ctx, refused.get(itemIndex), itemIndex);
				if (!continueOnFail) throw error;
				outcomes[itemIndex] = { error };
			}
		}
	}

	const ready = operation.guard || operation.sendAll || operation.checkExecution ? preparedItems(prepared, outcomes, itemCount) : [];
	if (operation.checkExecution) {
		try {
			operation.checkExecution(ctx, ready);
		} catch (error) {
			if (!continueOnFail) throw asNodeError(ctx, error, 0);
			for (const { itemIndex } of ready) outcomes[itemIndex] = { error: asNodeError(ctx, error, itemIndex) };
			return output(outcomes, itemCount, continueOnFail, toErrorOutput);
		}
	}
	if (operation.sendAll) {
		const result = await operation.sendAll(ctx, ready);
		if ('forAllItems' in result) return [{ json: result.forAllItems, pairedItem: Array.from({ length: itemCount }, (_, item) => ({ item })) }];
		for (const [itemIndex, json] of result.perItem) outcomes[itemIndex] = { json };
		return output(outcomes, itemCount, continueOnFail, toErrorOutput);
	}
	const guard = operation.guard?.(ctx, ready);

	let stopped = false;
	/** Sends the items of `queue` with `concurrency` requests at a time; output order is kept by index. */
	const sendAll = async (queue: number[]) => {
		let next = 0;
		const worker = async () => {
			while (!stopped && next < queue.length) {
				const itemIndex = queue[next++];
				if (!operation.checkAllBeforeSending && !prepare(itemIndex)) {
					if (!continueOnFail) stopped = true;
					continue;
				}
				if (outcomes[itemIndex]) continue; // checked earlier and failed (continueOnFail)
				try {
					const json = await operation.send!(ctx, prepared[itemIndex] as Request, transport!, itemIndex);
					outcomes[itemIndex] = { json };
				} catch (error) {
					outcomes[itemIndex] = { error: asNodeError(ctx, error, itemIndex) };
					if (!continueOnFail) stopped = true; // in-flight requests finish; no new ones start
				}
				prepared[itemIndex] = undefined;
			}
		};
		await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, queue.length)) }, worker));
	};

	if (!guard) {
		await sendAll(Array.from({ length: itemCount }, (_, itemIndex) => itemIndex));
	} else {
		// Waves: each wave's items are claimed in one store call just before they are sent, and
		// settled in one after. If n8n dies mid-run, only the wave in flight is left "may have
		// been created"; the items after it were never claimed, so a Retry sends them.
		const waveSize = Math.max(concurrency * WAVE_PER_CONCURRENCY, MIN_WAVE);
		for (let start = 0; start < ready.length && !stopped; start += waveSize) {
			const wave = ready.slice(start, start + waveSize).map(({ itemIndex }) => itemIndex);
			let skipped: Map<number, IDataObject>;
			try {
				skipped = await guard.claim(wave);
			} catch (error) {
				// Earlier waves' results stand: every item from here on is "not sent", with the reason.
				const notSent = ready.slice(start).map(({ itemIndex }) => itemIndex);
				if (start === 0) throw asNodeError(ctx, error, wave[0]);
				if (!continueOnFail) throw stoppedMidRun(ctx, error as Error, outcomes, notSent, operation);
				for (const itemIndex of notSent) outcomes[itemIndex] = { error: notSentError(ctx, error as Error, itemIndex) };
				break;
			}
			for (const [itemIndex, json] of skipped) outcomes[itemIndex] = { json: [json] };
			const toSend = wave.filter((itemIndex) => !skipped.has(itemIndex));
			await sendAll(toSend);
			const results: SentResult[] = toSend.map((itemIndex) => {
				const outcome = outcomes[itemIndex];
				if (outcome === undefined) return { itemIndex, status: 'notSent' };
				return 'error' in outcome ? { itemIndex, status: 'failed', error: outcome.error } : { itemIndex, status: 'done' };
			});
			try {
				await guard.settle(results);
			} catch (error) {
				// The keys stay recorded as claimed, so nothing can be sent twice; a re-run only words
				// these items as "may have been created". The campaigns' answers stand, with a warning.
				const items = toSend.map((itemIndex) => itemIndex + 1).join(', ');
				ctx.addExecutionHints({
					message: `Items ${items} were sent, but how they ended was not recorded (${(error as Error).message}): a re-run reports them as "may have been created" and does not send them.`,
					type: 'warning',
					location: 'outputPane',
				});
			}
		}
	}

	const items = output(outcomes, itemCount, continueOnFail, toErrorOutput);
	operation.ended?.(ctx);
	return items;
}

/** A later wave could not start: the run's error says what earlier waves did, and what was not sent. */
function stoppedMidRun<Request>(ctx: IExecuteFunctions, error: Error, outcomes: Outcome[], notSent: number[], operation: Operation<Request>): Error {
	const done: string[] = [];
	outcomes.forEach((outcome, itemIndex) => {
		if (outcome && 'json' in outcome) done.push(`item ${itemIndex + 1}: ${outcome.json.map((json) => operation.describeDone?.(json) ?? 'done').join(', ')}`);
		else if (outcome) done.push(`item ${itemIndex + 1}: failed (${outcome.error.message})`);
	});
	const description = (error as { description?: string | null }).description;
	const nodeError = new NodeOperationError(
		ctx.getNode(),
		`${error.message}. Items ${notSent[0] + 1}-${notSent[notSent.length - 1] + 1} were not sent; the ${done.length} items before them were handled: ${done.join('; ')}`,
		{ description: description ?? undefined, itemIndex: notSent[0] },
	);
	return runsAsTool(ctx) ? withDescriptionInMessage(nodeError) : nodeError;
}

function notSentError(ctx: IExecuteFunctions, error: Error, itemIndex: number): Error {
	const description = (error as { description?: string | null }).description;
	return asNodeError(ctx, new NodeOperationError(ctx.getNode(), `Not sent: ${error.message}`, { itemIndex, description: description ?? undefined }), itemIndex);
}

/** Items in input order: each item's output items, or its error item (continueOnFail). */
function output(outcomes: Outcome[], itemCount: number, continueOnFail: boolean, toErrorOutput: boolean): INodeExecutionData[] {
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		const outcome = outcomes[itemIndex];
		if (outcome === undefined) continue; // never started because an earlier item failed
		if ('error' in outcome) {
			if (!continueOnFail) throw outcome.error;
			const item: INodeExecutionData = { json: errorJson(outcome.error), pairedItem: { item: itemIndex } };
			// `error` sends the item to the error output (n8n then shows { error: message } as its json):
			// n8n would not recognise our { error, description } json as an error item.
			if (toErrorOutput) item.error = outcome.error as NodeApiError;
			output.push(item);
			continue;
		}
		for (const json of outcome.json) output.push({ json, pairedItem: { item: itemIndex } });
	}
	return output;
}

/** The items that passed their check (all of them are prepared before a guard is asked). */
function preparedItems<Request>(prepared: Array<Request | undefined>, outcomes: Outcome[], itemCount: number) {
	const items: Array<Prepared<Request>> = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		if (!outcomes[itemIndex]) items.push({ itemIndex, request: prepared[itemIndex] as Request });
	}
	return items;
}

function asNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	const nodeError =
		error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
	return runsAsTool(ctx) ? withDescriptionInMessage(nodeError) : nodeError;
}

function errorJson(error: Error): IDataObject {
	const description = (error as { description?: string | null }).description;
	return description ? { error: error.message, description } : { error: error.message };
}
