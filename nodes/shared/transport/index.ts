import type {
	IAdditionalCredentialOptions,
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IPollFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';
import { SAY } from '../instructions';

/**
 * The one HTTP path of the LBA nodes. It adds the headers the spec requires, lets n8n sign the
 * request with the chosen credential, retries only what is safe to retry, and turns every
 * failure into an ApiRequestError that never carries the request (and so never the access
 * token) and says which class of failure it was. It knows no operation: each operation words
 * what a failure means for its own request.
 */

export type CredentialType = 'lbaAdsApi' | 'lbaAdsOAuth2Api';

export interface ApiRequest {
	method: IHttpRequestMethods;
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	itemIndex: number;
	/** Only idempotent reads may be retried; a write never is. */
	retry: boolean;
}

export interface Transport {
	/** The credential's Base URL without trailing slashes: where every request goes. */
	readonly baseUrl: string;
	request(options: ApiRequest): Promise<IDataObject>;
	/** Removes the credential's secrets from text a response put in an error. */
	redact(text: string): string;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const MIN_TIMEOUT_MS = 100;
export const MAX_TIMEOUT_MS = 600_000;

export const RETRY = {
	maxRetries: 3,
	firstDelayMs: 500,
	maxDelayMs: 8_000,
	/** A Retry-After longer than this is not waited for: the item fails with the server's hint. */
	maxRetryAfterMs: 60_000,
};

/** How the transport waits before a retry: n8n's sleep. Tests record the waits instead of waiting them. */
export const retryWait = { sleep: (ms: number): Promise<void> => sleep(ms) };

/**
 * The real service (Apigee) may answer token_type "BearerToken"; n8n's OAuth2 client
 * then puts the token in the query string. Always send the literal "Bearer <token>" header.
 */
const OAUTH2_OPTIONS: IAdditionalCredentialOptions = { oauth2: { tokenType: 'Bearer' } };

// 500 too: a gateway (Apigee) answers 500 for a backend hiccup, and a read is safe to repeat.
const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);
const TIMEOUT_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT']);
const RETRYABLE_NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'UND_ERR_SOCKET']);

interface Failure {
	status?: number;
	body?: unknown;
	retryAfterMs?: number;
	networkCode?: string;
	/** The OAuth2 token request failed, so the API request itself was never sent. */
	tokenEndpoint?: boolean;
}

/** Codes of n8n's OAuth2 client (@n8n/client-oauth2) for a refused or failed token request. */
const TOKEN_ERROR_CODES = new Set(['EAUTH', 'ESTATUS']);

/**
 * Whether a failed request can have changed anything at the service:
 * - 'refused': the answer proves nothing was done (a 4xx, a 503, a connection that was never
 *   opened, or an OAuth2 token request that failed before the API request was sent);
 * - 'unknown': it may have been done (500, 502, 504, a timeout, a reset after sending).
 * 503 counts as refused: RFC 9110 15.6.4 says the server is "unable to handle the request".
 */
export type FailureOutcome = 'refused' | 'unknown';
const NOT_CONNECTED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * The class of a failed request: its outcome, whether it was a transient failure (rate limit,
 * server error, timeout, network; a read would have been retried), and the service's own error
 * code (e.g. "G-400003") when its answer had one.
 */
export interface FailureClass {
	outcome: FailureOutcome;
	transient: boolean;
	status?: number;
	serviceCode?: string;
	/**
	 * A 404 whose body says which: 'resource' (RESOURCE_NOT_FOUND: the endpoint exists, the id in
	 * its path names nothing) or 'endpoint' (NOT_FOUND: no such path, e.g. a Base URL with a path
	 * after it). Absent for a 404 that does not say (a gateway's own page): it may be either.
	 */
	notFound?: 'resource' | 'endpoint';
}

/** Codes of a 404 that say what was not found (sandbox/openapi.yaml, SandboxError and ResourceNotFound). */
const NOT_FOUND_CODES: Record<string, FailureClass['notFound']> = { RESOURCE_NOT_FOUND: 'resource', NOT_FOUND: 'endpoint' };

/** A failed request to the LBA service, with its failure class. */
export class ApiRequestError extends NodeApiError {
	failureClass!: FailureClass;

	/** Adds `clause` to the message after a semicolon (without the service's own closing period before it). */
	addClause(clause: string): void {
		this.message = `${this.message.replace(/\.\s*$/, '')}; ${clause}`;
	}
}

/** The outcome of a request that threw (see FailureOutcome); 'unknown' for errors the transport did not make. */
export function failureOutcome(error: unknown): FailureOutcome {
	return error instanceof ApiRequestError ? error.failureClass.outcome : 'unknown';
}

function outcomeOf(failure: Failure): FailureOutcome {
	if (failure.tokenEndpoint) return 'refused';
	if (failure.status !== undefined) return (failure.status >= 400 && failure.status < 500) || failure.status === 503 ? 'refused' : 'unknown';
	return failure.networkCode !== undefined && NOT_CONNECTED_CODES.has(failure.networkCode) ? 'refused' : 'unknown';
}

/** A node run, a trigger's poll or the panel's list search: all make requests with n8n's helpers. */
type RequestContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

/** The transport for the credential the node's Authentication picks (reads the credential once). */
export async function transportFor(
	ctx: RequestContext,
	authentication: unknown,
	options: { timeoutMs?: number } = {},
): Promise<Transport> {
	const credentialType: CredentialType = authentication === 'oAuth2' ? 'lbaAdsOAuth2Api' : 'lbaAdsApi';
	return createTransport(ctx, credentialType, await ctx.getCredentials(credentialType), options);
}

export function createTransport(
	ctx: RequestContext,
	credentialType: CredentialType,
	credentials: ICredentialDataDecryptedObject,
	{ timeoutMs = DEFAULT_TIMEOUT_MS }: { timeoutMs?: number } = {},
): Transport {
	const base = String(credentials.baseUrl ?? '').trim().replace(/\/+$/, '');
	const redact = secretRedactor(credentials);
	// Handing n8n the credential read once per run spares it a database read and a
	// decryption per request (the largest cost in the bench profile of Reverse Geocode).
	// OAuth2 must not use it: n8n stores refreshed tokens on the credential it loads itself.
	const credentialOptions: IAdditionalCredentialOptions =
		credentialType === 'lbaAdsOAuth2Api'
			? OAUTH2_OPTIONS
			: { credentialsDecrypted: { id: '', name: credentialType, type: credentialType, data: credentials } };

	async function send(options: ApiRequest): Promise<IDataObject> {
		const request: IHttpRequestOptions = {
			method: options.method,
			url: `${base}${options.path}`,
			qs: options.qs,
			body: options.body,
			json: true,
			timeout: timeoutMs,
			headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
		};
		return (await (ctx as IExecuteFunctions).helpers.httpRequestWithAuthentication.call(
			ctx as IExecuteFunctions,
			credentialType,
			request,
			credentialOptions,
		)) as IDataObject;
	}

	return {
		baseUrl: base,
		redact,
		async request(options) {
			for (let attempt = 0; ; attempt++) {
				try {
					return await send(options);
				} catch (error) {
					const failure = describeFailure(error);
					const delayMs = options.retry ? retryDelayMs(failure, attempt) : undefined;
					if (delayMs === undefined) throw toNodeApiError(ctx, failure, options, attempt, timeoutMs, redact);
					await retryWait.sleep(delayMs);
				}
			}
		},
	};
}

/** Milliseconds to wait before the next attempt, or undefined to give up. */
export function retryDelayMs(failure: Failure, attempt: number): number | undefined {
	if (attempt >= RETRY.maxRetries) return undefined;
	const retryable =
		(failure.status !== undefined && RETRYABLE_STATUS.has(failure.status)) ||
		(failure.status === undefined && failure.networkCode !== undefined && RETRYABLE_NETWORK_CODES.has(failure.networkCode));
	if (!retryable) return undefined;
	if (failure.retryAfterMs !== undefined) {
		return failure.retryAfterMs <= RETRY.maxRetryAfterMs ? failure.retryAfterMs : undefined;
	}
	return Math.min(RETRY.firstDelayMs * 2 ** attempt, RETRY.maxDelayMs);
}

/**
 * Finds status, body, headers and network code in n8n's wrapped HTTP errors (error -> cause -> ...).
 * n8n 1.x keeps less: see failureFromNodeApiError.
 */
export function describeFailure(error: unknown): Failure {
	const failure: Failure = {};
	const seen = new Set<unknown>();
	for (let level = error as Record<string, unknown> | undefined; level && typeof level === 'object' && !seen.has(level); level = level.cause as Record<string, unknown> | undefined) {
		seen.add(level);
		const response = level.response as { status?: number; data?: unknown; body?: unknown; headers?: Record<string, unknown> } | undefined;
		if (response && typeof response.status === 'number' && failure.status === undefined) {
			failure.status = response.status;
			failure.body = response.data ?? response.body;
			failure.retryAfterMs = parseRetryAfter(headerValue(response.headers, 'retry-after'));
		}
		if (typeof level.code === 'string' && TOKEN_ERROR_CODES.has(level.code)) {
			failure.tokenEndpoint = true;
			failure.networkCode ??= level.code;
			failure.status ??= typeof level.status === 'number' ? level.status : undefined;
			failure.body ??= level.body;
			continue;
		}
		const config = level.config as { url?: string } | undefined;
		if (typeof config?.url === 'string' && /\/oauth\/token(\?|$)/.test(config.url)) failure.tokenEndpoint = true;
		if (typeof level.code === 'string' && /^[A-Z_]+$/.test(level.code) && failure.networkCode === undefined) {
			failure.networkCode = level.code;
		}
	}
	if (failure.status === undefined && failure.networkCode === undefined) return failureFromNodeApiError(error);
	return failure;
}

/**
 * n8n-workflow 1.x's NodeApiError drops the error it wraps (its class field `cause` overwrites
 * the one Error's constructor set), so the response is gone. What it keeps: `httpCode`, the
 * status ("429") or, without a response, the error's code ("ECONNRESET", "EAUTH"), and
 * `context.data`, the response body when it was a JSON object. The response headers are lost,
 * so on 1.x a Retry-After cannot be read and the retry falls back to our own backoff.
 */
function failureFromNodeApiError(error: unknown): Failure {
	if (typeof error !== 'object' || error === null) return {};
	const { httpCode, context, description } = error as { httpCode?: unknown; context?: { data?: unknown }; description?: unknown };
	if (typeof httpCode !== 'string') return {};
	if (/^\d{3}$/.test(httpCode)) {
		const failure: Failure = { status: Number(httpCode), body: context?.data };
		// n8n's OAuth2 client words a token answer it cannot read (such as the real service's
		// {"ErrorCode", "Error"}) "HTTP status 401"; axios, for the API itself, "Request failed with status code 401".
		if (typeof description === 'string' && /^HTTP status \d{3}$/.test(description)) failure.tokenEndpoint = true;
		return failure;
	}
	if (!/^[A-Z_]+$/.test(httpCode)) return {};
	const failure: Failure = { networkCode: httpCode };
	// 1.x also loses the OAuth2 client's answer: only its code tells a refused token request apart.
	if (TOKEN_ERROR_CODES.has(httpCode)) failure.tokenEndpoint = true;
	return failure;
}

function headerValue(headers: Record<string, unknown> | undefined, name: string): string | undefined {
	if (!headers) return undefined;
	const getter = (headers as { get?: (key: string) => unknown }).get;
	const value = typeof getter === 'function' ? getter.call(headers, name) : headers[name] ?? headers[name.toLowerCase()];
	return value === undefined || value === null ? undefined : String(value);
}

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 10.2.3). */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function toNodeApiError(
	ctx: RequestContext,
	failure: Failure,
	options: ApiRequest,
	attempt: number,
	timeoutMs: number,
	redact: (text: string) => string,
): NodeApiError {
	const received = bodyObject(failure.body);
	// A server (or proxy) that echoes the request back must not get the token into an output.
	const body = redactedBody(received, redact);
	const what = `${options.method} ${options.path}`;
	const tries = attempt > 0 ? ` after ${attempt + 1} attempts` : '';
	const explained = explain(failure, body, what, tries, timeoutMs);
	const message = redact(explained.message);
	// Only the response body and our own words go in: the request (and its Authorization header) never does.
	const error = new ApiRequestError(ctx.getNode(), { ...body, message } as JsonObject, {
		message,
		description: redact(explained.description),
		httpCode: failure.status !== undefined ? String(failure.status) : undefined,
		itemIndex: options.itemIndex,
	});
	const serviceCode = ((body.error ?? {}) as IDataObject).code;
	const notFound = failure.status === 404 && typeof serviceCode === 'string' ? NOT_FOUND_CODES[serviceCode] : undefined;
	error.failureClass = {
		outcome: outcomeOf(failure),
		transient: isTransient(failure),
		status: failure.status,
		...(typeof serviceCode === 'string' ? { serviceCode } : {}),
		...(notFound ? { notFound } : {}),
	};
	return error;
}

/** Rate limits, server errors, timeouts and network failures (not a refused token request). */
function isTransient(failure: Failure): boolean {
	if (failure.tokenEndpoint) return false;
	return failure.status === undefined || failure.status === 429 || failure.status >= 500;
}

/**
 * The answer's JSON body as an object. n8n's OAuth2 client keeps a refused token answer as raw
 * text when it is not in RFC 6749's shape, as the real service's {"ErrorCode", "Error"} is not.
 */
function bodyObject(body: unknown): IDataObject {
	if (typeof body === 'string') {
		try {
			body = JSON.parse(body);
		} catch {
			return {};
		}
	}
	return (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as IDataObject;
}

function redactedBody(body: IDataObject, redact: (text: string) => string): IDataObject {
	try {
		return JSON.parse(redact(JSON.stringify(body))) as IDataObject;
	} catch {
		return { message: 'The response body was withheld because it could not be cleaned of secrets.' };
	}
}

/** Replaces the credential's secrets, and anything after "Bearer ", with [redacted]. */
function secretRedactor(credentials: ICredentialDataDecryptedObject): (text: string) => string {
	const token = (credentials.oauthTokenData ?? {}) as IDataObject;
	const secrets = [credentials.accessToken, credentials.clientSecret, token.access_token, token.refresh_token]
		.filter((value): value is string => typeof value === 'string' && value.length >= 6)
		.sort((a, b) => b.length - a.length);
	return (text) => {
		let redacted = text.replace(/\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/]+=*/gi, '$1 [redacted]');
		for (const secret of secrets) redacted = redacted.split(secret).join('[redacted]');
		return redacted;
	};
}

function explain(failure: Failure, body: IDataObject, what: string, tries: string, timeoutMs: number): { message: string; description: string } {
	const apiError = (body.error ?? {}) as IDataObject;
	const fault = (body.fault ?? {}) as IDataObject;

	if (failure.tokenEndpoint) {
		// RFC 6749's error_description / error, or the real service's (Apigee) Error / ErrorCode.
		const reason = String(body.error_description ?? body.Error ?? body.error ?? body.ErrorCode ?? '').trim();
		const refused = failure.status === undefined ? failure.networkCode === 'EAUTH' : failure.status < 500;
		return refused
			? {
					message: `The LBA service refused the OAuth2 client credentials${reason ? `: ${reason}` : ''}`,
					description: `Nothing was sent to ${what}. ${SAY.checkClientSecret}`,
				}
			: {
					message: `Could not get an OAuth2 access token from the LBA service${failure.status !== undefined ? ` (HTTP ${failure.status})` : ''}${tries}`,
					description: `Nothing was sent to ${what}. ${SAY.checkTokenUrl}`,
				};
	}
	if (failure.status === 401) {
		return {
			message: `The LBA service refused the access token (HTTP 401): ${SAY.checkCredential}`,
			description: `${String(fault.faultstring ?? 'Invalid access token')}. ${SAY.newToken}`,
		};
	}
	if (failure.status === 429) {
		return {
			message: `The LBA service is rate limiting requests (HTTP 429)${tries}`,
			description: SAY.lowerConcurrency,
		};
	}
	if (failure.status !== undefined && failure.status >= 500) {
		return {
			message: `The LBA service failed to answer ${what} (HTTP ${failure.status})${tries}`,
			description: serverText(body),
		};
	}
	if (failure.status === 404) return notFoundText(apiError, body, what);
	if (failure.status !== undefined) {
		return {
			message: `The LBA service answered ${what} with HTTP ${failure.status}${apiError.code ? ` (${String(apiError.code)})` : ''}`,
			description: [serverText(body), ...fieldLines(apiError.details)].filter(Boolean).join('\n'),
		};
	}
	if (failure.networkCode !== undefined && TIMEOUT_CODES.has(failure.networkCode)) {
		return {
			message: `The LBA service did not answer ${what} within ${timeoutMs} ms${tries}`,
			description: SAY.raiseTimeout,
		};
	}
	// The network code stays out of the message: n8n would replace a message containing it with a generic one.
	return {
		message: `Could not reach the LBA service for ${what}${tries}`,
		description: `${failure.networkCode ? `Network error ${failure.networkCode}. ` : ''}${SAY.checkServiceRunning}`,
	};
}

/** A 404 in words a model can act on: a wrong id, a wrong Base URL, or (when the answer does not say) either. */
function notFoundText(apiError: IDataObject, body: IDataObject, what: string): { message: string; description: string } {
	const said = serverText(body);
	const notFound = typeof apiError.code === 'string' ? NOT_FOUND_CODES[apiError.code] : undefined;
	if (notFound === 'resource') {
		return {
			message: `The LBA service has no such resource for ${what} (HTTP 404)${said ? `: ${said.replace(/\.$/, '')}` : ''}. ${SAY.checkId}`,
			description: 'The endpoint exists, so the Base URL is right; the value in the path names nothing the service holds.',
		};
	}
	if (notFound === 'endpoint') {
		return {
			message: `The LBA service has no endpoint ${what} (HTTP 404): ${SAY.checkBaseUrl}`,
			description: `The Base URL must be the service's root, with no path such as /v1 after it.${said ? ` The service said: ${said}` : ''}`,
		};
	}
	return {
		message: `The LBA service answered ${what} with HTTP 404: there is no such endpoint, or nothing by the id in its path`,
		description: `${SAY.checkBaseUrlAndId}${said ? ` The service said: ${said}` : ''}`,
	};
}

function serverText(body: IDataObject): string {
	const apiError = (body.error ?? {}) as IDataObject;
	const candidate = apiError.message ?? body.message ?? body.error_message ?? (typeof body.error === 'string' ? body.error : undefined);
	return candidate === undefined ? '' : String(candidate);
}

function fieldLines(details: unknown): string[] {
	if (!Array.isArray(details)) return [];
	return details.map((detail: IDataObject) => `- ${String(detail.field ?? '?')}: ${String(detail.message ?? '')}`);
}
