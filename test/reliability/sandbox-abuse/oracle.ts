/**
 * What the sandbox must answer to a request, worked out from the documents only
 * (docs/lba-api.md, sandbox/README.md "Limits and errors" and "Choices", sandbox/openapi.yaml,
 * and the HTTP/URI RFCs where those are silent), never by calling sandbox code.
 *
 * Order of the checks (README "Limits and errors"): a body over 1 MiB gets 413 whatever the
 * path; then routing (404 unknown path, 405 method the path does not serve); then the bearer
 * token (401) on the service's operations; then the operation's own checks.
 */
import { expectDocumented, expectSchema, openapi, Reply } from '../../sandbox/helpers';

/** README: "A body over 1 MiB gets 413" (sandbox/http-util.js MAX_BODY_BYTES). */
export const MAX_BODY_BYTES = 1024 * 1024;
export const TOKEN = 'lba-sandbox-token';
export const CLIENT_ID = 'lba-sandbox-client';
export const CLIENT_SECRET = 'lba-sandbox-secret';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * Path -> method -> operationId, derived from openapi.yaml's routes: every method a path serves
 * (one with a 2xx answer; a method documented with an error only, such as GET /lba/campaign,
 * gets the router's 405). A `{name}` segment stands for any one non-empty segment (OpenAPI path
 * templating). What each operation must answer is the oracle's own reading of the docs
 * (expectedFor() below), not derived.
 */
export const ROUTES: Record<string, Record<string, string>> = Object.fromEntries(
	Object.entries(openapi.paths as Record<string, Record<string, { operationId: string; responses?: Record<string, unknown> }>>).map(([route, item]) => [
		route,
		Object.fromEntries(
			Object.entries(item)
				.filter(([method, op]) => HTTP_METHODS.includes(method) && Object.keys(op.responses ?? {}).some((status) => status.startsWith('2')))
				.map(([method, op]) => [method.toUpperCase(), op.operationId]),
		),
	]),
);

/**
 * Spec 5: every operation of the service needs the bearer token; README: the token endpoint
 * and the control API (`/_sandbox/…`) do not. A rule, so a new endpoint of the service needs no
 * line here; `npm test` holds it against openapi.yaml's `security` (test/agreements/oracle.test.ts).
 */
export function needsToken(route: string): boolean {
	return route !== '/oauth/token' && !route.startsWith('/_sandbox/');
}

/**
 * The answer expected. `code` names the kind of answer: `error.code` of a SandboxError or
 * ValidationError, `INVALID_TOKEN` for the spec 7.2 fault, the geocoding `status` of a location
 * answer, the OAuth `error`, or `OK` for a success.
 */
export interface Expected {
	status: number;
	code: string;
	/** The route (a ROUTES key, the document's path) for the contract check; absent for an unknown path. */
	route?: string;
	/** The request's method, for the contract check. */
	method?: string;
}

/** Errors any request can get, whatever its path (README "Limits and errors"): a SandboxError body. */
const GENERIC_CODES = new Set([
	'NOT_FOUND',
	'METHOD_NOT_ALLOWED',
	'PAYLOAD_TOO_LARGE',
	'BAD_REQUEST',
	'REQUEST_TIMEOUT',
	'HEADERS_TOO_LARGE',
	'EXPECTATION_FAILED',
	'HTTP_VERSION_NOT_SUPPORTED',
]);

export interface Probe {
	method: string;
	/** The request-target exactly as sent. */
	target: string;
	/** Header names in lower case. */
	headers: Record<string, string>;
	body?: Buffer;
	/**
	 * Whether the body bytes are a valid campaign (UTF-8 without a BOM, one JSON value, every
	 * rule of spec 2.1/2.3 and the bounds of README "Choices"), labelled by hand where the
	 * request is written.
	 */
	campaign?: boolean;
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * The path of a request-target as the sandbox must route it. RFC 3986 6.2.2.2: a
 * percent-encoded unreserved character is the same URI as the character itself, so it is
 * decoded; nothing else is (an encoded "/" is not a separator, dot segments and empty segments
 * are taken literally, case matters). An absolute-form target (RFC 9112 3.2.2) routes by its path.
 */
export function routePath(target: string): string {
	let path = target.split('?')[0];
	const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(path);
	if (absolute) path = path.slice(absolute[0].length) || '/';
	return path.replace(/%([0-9a-f]{2})/gi, (escape, hex: string) => {
		const char = String.fromCharCode(parseInt(hex, 16));
		return UNRESERVED.test(char) ? char : escape;
	});
}

/** The ROUTES key a routed path falls under: itself, else a template it fits; undefined for none. */
export function routeOf(path: string): string | undefined {
	if (ROUTES[path]) return path;
	const segments = path.split('/');
	return Object.keys(ROUTES).find((template) => {
		const parts = template.split('/');
		return parts.length === segments.length && parts.every((part, i) => part === segments[i] || (/^\{[^{}]+\}$/.test(part) && segments[i] !== ''));
	});
}

/** A header value without the optional white space around it (RFC 9110 5.5). */
function fieldValue(value: string | undefined): string | undefined {
	return value === undefined ? undefined : value.replace(/^[ \t]+|[ \t]+$/g, '');
}

/** The media type of a Content-Type value, lower case, without parameters (RFC 9110 8.3.1). */
function mediaType(value: string | undefined): string {
	return (fieldValue(value) ?? '').split(';')[0].trim().toLowerCase();
}

/** RFC 6750 2.1: `Bearer` (any case, RFC 9110 11.1) then one or more spaces then the token. */
function hasValidToken(authorization: string | undefined): boolean {
	const match = /^([^ ]+) +([^ ]+)$/.exec(fieldValue(authorization) ?? '');
	return match !== null && match[1].toLowerCase() === 'bearer' && match[2] === TOKEN;
}

/**
 * README / openapi: latlng is "<latitude>,<longitude>" in decimal degrees, at most 100
 * characters, latitude -90..90 and longitude -180..180. Choices where the spec is silent: an
 * optional sign, "1." and ".5" are decimal numbers; white space around either number is ignored
 * (what ECMAScript's Number() trims); exponents, NaN, Infinity, hex and non-ASCII digits are
 * not decimal degrees. The first `latlng` parameter counts; other parameters are ignored.
 */
export function isValidLatLng(value: string | null): boolean {
	if (value === null || [...value].length > 100) return false;
	const number = '[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)';
	const match = new RegExp(`^\\s*(${number})\\s*,\\s*(${number})\\s*$`).exec(value);
	return match !== null && Math.abs(Number(match[1])) <= 90 && Math.abs(Number(match[2])) <= 180;
}

/** RFC 6749 2.3.1: Basic credentials are form-urlencoded before base64. */
function formDecode(text: string): string {
	try {
		return decodeURIComponent(text.replace(/\+/g, ' '));
	} catch {
		return text;
	}
}

/** README "Choices", spec 5: the client-credentials grant of POST /oauth/token. */
function tokenEndpoint(probe: Probe): Expected {
	const route = '/oauth/token';
	if (mediaType(probe.headers['content-type']) !== 'application/x-www-form-urlencoded') {
		return { status: 400, code: 'invalid_request', route };
	}
	const form = new URLSearchParams((probe.body ?? Buffer.alloc(0)).toString('utf8'));
	const basic = /^Basic +([A-Za-z0-9+/]+=*)$/i.exec(fieldValue(probe.headers.authorization) ?? '');
	let client: [string, string] | null = null;
	if (basic) {
		const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
		const colon = decoded.indexOf(':');
		client = colon < 0 ? [decoded, ''] : [formDecode(decoded.slice(0, colon)), formDecode(decoded.slice(colon + 1))];
	} else if (form.has('client_id')) {
		client = [form.get('client_id') ?? '', form.get('client_secret') ?? ''];
	}
	if (!client || client[0] !== CLIENT_ID || client[1] !== CLIENT_SECRET) return { status: 401, code: 'invalid_client', route };
	const grant = form.get('grant_type');
	if (!grant) return { status: 400, code: 'invalid_request', route };
	if (grant !== 'client_credentials') return { status: 400, code: 'unsupported_grant_type', route };
	return { status: 200, code: 'OK', route };
}

/** The answer the sandbox must give to a well-formed HTTP request. */
export function expectedAnswer(probe: Probe): Expected {
	return { ...expectedFor(probe), method: probe.method };
}

function expectedFor(probe: Probe): Expected {
	if ((probe.body?.length ?? 0) > MAX_BODY_BYTES) return { status: 413, code: 'PAYLOAD_TOO_LARGE' };
	const route = routeOf(routePath(probe.target));
	if (!route) return { status: 404, code: 'NOT_FOUND' };
	const methods = ROUTES[route];
	// RFC 9110 9.3.2: HEAD is GET without the body.
	const operation = methods[probe.method === 'HEAD' ? 'GET' : probe.method];
	if (!operation) return { status: 405, code: 'METHOD_NOT_ALLOWED', route };
	if (needsToken(route) && !hasValidToken(probe.headers.authorization)) return { status: 401, code: 'INVALID_TOKEN', route };
	const query = probe.target.includes('?') ? probe.target.slice(probe.target.indexOf('?') + 1) : '';
	switch (operation) {
		case 'createCampaign': {
			// README "Choices": another Content-Type or a body that is not JSON -> 400 G-400003, not 415.
			if (probe.campaign === undefined) throw new Error(`no campaign label for ${probe.method} ${probe.target}`);
			const ok = mediaType(probe.headers['content-type']) === 'application/json' && probe.campaign;
			return ok ? { status: 200, code: 'OK', route } : { status: 400, code: 'G-400003', route };
		}
		case 'getLocation':
			return isValidLatLng(new URLSearchParams(query).get('latlng'))
				? { status: 200, code: 'OK', route }
				: { status: 400, code: 'INVALID_REQUEST', route };
		case 'getProducts':
		case 'getLocations':
			return { status: 200, code: 'OK', route };
		case 'issueToken':
			return tokenEndpoint(probe);
		case 'addFault': {
			if (mediaType(probe.headers['content-type']) !== 'application/json') return { status: 400, code: 'BAD_REQUEST', route };
			// Generated bodies never program a fault (they would change later answers): anything
			// that might is refused here rather than guessed.
			const text = probe.body?.toString('utf8') ?? '';
			if (/"(status|drop|latencyMs)"/.test(text)) throw new Error(`the oracle does not judge fault bodies: ${text}`);
			return { status: 400, code: 'BAD_REQUEST', route };
		}
		case 'changeCatalogue':
			return catalogueChange(probe, route);
		default:
			return derivedAnswer(operation, route, probe.method);
	}
}

/** A route with a `{name}` segment. */
export const isTemplated = (route: string): boolean => route.includes('{');

/**
 * The answer of an operation with no case of its own in expectedFor(). On a templated path: 404
 * RESOURCE_NOT_FOUND (openapi.yaml components.responses.ResourceNotFound), as the values the
 * generator puts in a path (TEMPLATE_VALUES in generate.ts, and random segments) never name
 * anything the sandbox holds. An operation with no body and no required parameter: 200. Any
 * other needs its own case, written from the docs.
 */
function derivedAnswer(operationId: string, route: string, method: string): Expected {
	if (isTemplated(route)) return { status: 404, code: 'RESOURCE_NOT_FOUND', route };
	const op = openapi.paths[route][(method === 'HEAD' ? 'GET' : method).toLowerCase()];
	const required = (op.parameters ?? []).some((parameter: { required?: boolean }) => parameter.required);
	if (!op.requestBody && !required) return { status: 200, code: 'OK', route };
	throw new Error(
		`The oracle has no expected answer for ${operationId} (${method} ${route}): it has a body or a required parameter. ` +
			'Add a case for it in expectedFor() of test/reliability/sandbox-abuse/oracle.ts, written from the docs (docs/lba-api.md, sandbox/README.md), not from the sandbox.',
	);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** sandbox/openapi.yaml CatalogueChange: `{ upsert?: Product[], remove?: uuid[] }`, at least one. */
function catalogueChange(probe: Probe, route: string): Expected {
	const refused = { status: 400, code: 'BAD_REQUEST', route };
	if (mediaType(probe.headers['content-type']) !== 'application/json') return refused;
	let body: unknown;
	try {
		body = JSON.parse(probe.body?.toString('utf8') ?? '');
	} catch {
		return refused;
	}
	if (!body || typeof body !== 'object' || Array.isArray(body)) return refused;
	const keys = Object.keys(body);
	if (keys.length === 0 || keys.some((key) => key !== 'upsert' && key !== 'remove')) return refused;
	const { upsert = [], remove = [] } = body as { upsert?: unknown; remove?: unknown };
	if (!Array.isArray(upsert) || !Array.isArray(remove)) return refused;
	if (upsert.some((item) => item === null || typeof item !== 'object' || Array.isArray(item))) return refused;
	// Generated bodies never hold a whole product: anything that might be one is refused here rather than guessed.
	if (upsert.length) throw new Error(`the oracle does not judge product bodies: ${JSON.stringify(upsert).slice(0, 200)}`);
	return remove.every((uuid) => typeof uuid === 'string' && UUID.test(uuid)) ? { status: 200, code: 'OK', route } : refused;
}

// --- Judging an answer ------------------------------------------------------------------------

/** The kind of a JSON answer, comparable with Expected.code. */
function codeOf(json: Record<string, unknown>): string | undefined {
	const error = json.error;
	if (error && typeof error === 'object' && typeof (error as { code?: unknown }).code === 'string') return (error as { code: string }).code;
	if (json.fault) return 'INVALID_TOKEN';
	if (typeof json.ErrorCode === 'string') return json.ErrorCode; // token endpoint (Apigee's shape)
	if (json.status === 'INVALID_REQUEST') return 'INVALID_REQUEST'; // geocoding
	return undefined;
}

export interface Answer {
	status: number;
	/** Header names in lower case. */
	headers: Record<string, string | string[] | undefined>;
	body: Buffer;
}

/**
 * Null when the answer is right: the expected status, `Content-Type: application/json`, a body
 * that parses and has the documented shape (openapi.yaml) and kind; `Allow` on 405 and
 * `WWW-Authenticate` on every 401 (RFC 9110 15.5.6, 15.5.2). Otherwise what is wrong.
 */
export function judge(expected: Expected, answer: Answer, method = expected.method ?? 'GET'): string | null {
	if (answer.status !== expected.status) return `status ${answer.status}, expected ${expected.status} ${expected.code}; body ${preview(answer.body)}`;
	const type = String(answer.headers['content-type'] ?? '');
	if (!/^application\/json\b/i.test(type)) return `Content-Type "${type}", body ${preview(answer.body)}`;
	if (answer.status === 405 && !answer.headers.allow) return '405 without Allow';
	if (answer.status === 401 && !answer.headers['www-authenticate']) return '401 without WWW-Authenticate';
	if (method === 'HEAD') return answer.body.length === 0 ? null : `HEAD answer with a body of ${answer.body.length} bytes`;
	const text = answer.body.toString('utf8');
	let json: Record<string, unknown>;
	try {
		json = JSON.parse(text);
	} catch {
		return `body is not JSON: ${preview(answer.body)}`;
	}
	if (expected.code !== 'OK' && codeOf(json) !== expected.code) return `answer kind ${codeOf(json)}, expected ${expected.code}: ${preview(answer.body)}`;
	try {
		if (GENERIC_CODES.has(expected.code) || !expected.route) expectSchema(json, 'components', 'schemas', 'SandboxError');
		else expectDocumented(method, expected.route, { status: answer.status, headers: answer.headers, text, json } as Reply);
	} catch (error) {
		return `body does not match the contract: ${(error as Error).message.slice(0, 300)}`;
	}
	return null;
}

export function preview(body: Buffer): string {
	const text = body.toString('utf8');
	return JSON.stringify(text.length > 160 ? `${text.slice(0, 160)}...` : text);
}
