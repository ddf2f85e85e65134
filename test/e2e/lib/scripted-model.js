// A scripted OpenAI-compatible chat server on loopback, so n8n's AI Agent can be run for real
// without the internet. n8n's OpenAI Chat Model talks to it through the credential's Base URL.
// It serves GET /v1/models, POST /v1/chat/completions and POST /v1/responses (the Responses API,
// the default of OpenAI Chat Model 1.3), plain JSON or server-sent events when `stream` is asked.
//
// Each request becomes a normalised "turn" { api, prompt, tools, toolResults } handed to the
// test's script, which answers { call: { tool, arguments } } or { text }. Every turn is kept, so a
// test can assert what the model received: the tool schemas and each tool result, word for word.
'use strict';

const http = require('node:http');

/** @param {{ script?: (turn: object) => object, model?: string }} [opts] */
async function startScriptedModel(opts = {}) {
	let script = opts.script ?? (() => ({ text: 'No script.' }));
	const modelId = opts.model ?? 'scripted-gpt';
	const turns = [];
	let callCounter = 0;

	const server = http.createServer((req, res) => {
		let raw = '';
		req.on('data', (chunk) => (raw += chunk));
		req.on('end', () => {
			try {
				handle(req, res, raw);
			} catch (error) {
				send(res, 500, { error: { message: `scripted model: ${error.message}`, type: 'server_error' } });
			}
		});
	});

	function handle(req, res, raw) {
		const url = new URL(req.url, 'http://127.0.0.1');
		if (req.method === 'GET' && url.pathname === '/v1/models') {
			return send(res, 200, { object: 'list', data: [{ id: modelId, object: 'model', created: 0, owned_by: 'scripted' }] });
		}
		if (req.method !== 'POST' || !['/v1/chat/completions', '/v1/responses'].includes(url.pathname)) {
			return send(res, 404, { error: { message: `no route ${req.method} ${url.pathname}` } });
		}
		const body = JSON.parse(raw || '{}');
		const api = url.pathname === '/v1/responses' ? 'responses' : 'chat';
		const turn = { index: turns.length, api, ...(api === 'chat' ? fromChat(body) : fromResponses(body)), body };
		turns.push(turn);
		const answer = script(turn) ?? { text: 'Done.' };
		turn.answer = answer;
		const callId = `call_${++callCounter}`;
		if (api === 'chat') return replyChat(res, body, answer, callId);
		return replyResponses(res, body, answer, callId);
	}

	function replyChat(res, body, answer, callId) {
		const message = answer.call
			? { role: 'assistant', content: null, tool_calls: [{ id: callId, type: 'function', function: { name: answer.call.tool, arguments: JSON.stringify(answer.call.arguments) } }] }
			: { role: 'assistant', content: answer.text };
		const finish = answer.call ? 'tool_calls' : 'stop';
		const usage = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };
		const completion = { id: `chatcmpl_${callId}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: modelId };
		if (!body.stream) return send(res, 200, { ...completion, choices: [{ index: 0, message, finish_reason: finish }], usage });
		const delta = answer.call
			? { role: 'assistant', content: null, tool_calls: [{ index: 0, ...message.tool_calls[0] }] }
			: { role: 'assistant', content: answer.text };
		sse(res, [
			{ ...completion, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] },
			{ ...completion, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: finish }], usage },
		], true);
	}

	function replyResponses(res, body, answer, callId) {
		const item = answer.call
			? { type: 'function_call', id: `fc_${callId}`, call_id: callId, name: answer.call.tool, arguments: JSON.stringify(answer.call.arguments), status: 'completed' }
			: { type: 'message', id: `msg_${callId}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: answer.text, annotations: [] }] };
		const response = {
			id: `resp_${callId}`,
			object: 'response',
			created_at: Math.floor(Date.now() / 1000),
			status: 'completed',
			model: modelId,
			output: [item],
			parallel_tool_calls: false,
			tool_choice: 'auto',
			tools: body.tools ?? [],
			usage: { input_tokens: 10, output_tokens: 10, total_tokens: 20 },
		};
		if (!body.stream) return send(res, 200, response);
		let sequence = 0;
		const event = (type, extra) => ({ type, sequence_number: sequence++, ...extra });
		sse(res, [
			event('response.created', { response: { ...response, status: 'in_progress', output: [] } }),
			event('response.output_item.added', { output_index: 0, item }),
			event('response.output_item.done', { output_index: 0, item }),
			event('response.completed', { response }),
		], false);
	}

	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address();
	return {
		url: `http://127.0.0.1:${port}/v1`,
		turns,
		setScript(next) {
			script = next;
		},
		/** Turns since `from`, e.g. those of one agent run. */
		turnsSince(from) {
			return turns.slice(from);
		},
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

/** Chat Completions: the last user message, the tools offered, and each tool call with its result. */
function fromChat(body) {
	const messages = body.messages ?? [];
	const calls = new Map();
	const toolResults = [];
	for (const message of messages) {
		for (const call of message.tool_calls ?? []) calls.set(call.id, { name: call.function.name, arguments: safeJson(call.function.arguments) });
		if (message.role === 'tool') toolResults.push({ ...calls.get(message.tool_call_id), output: text(message.content) });
	}
	const prompt = text([...messages].reverse().find((message) => message.role === 'user')?.content);
	const tools = (body.tools ?? []).map((tool) => ({ name: tool.function.name, description: tool.function.description, parameters: tool.function.parameters }));
	return { prompt, tools, toolResults };
}

/** Responses API: the same, from `input` items. */
function fromResponses(body) {
	const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input ?? [];
	const calls = new Map();
	const toolResults = [];
	for (const item of input) {
		if (item.type === 'function_call') calls.set(item.call_id, { name: item.name, arguments: safeJson(item.arguments) });
		if (item.type === 'function_call_output') toolResults.push({ ...calls.get(item.call_id), output: text(item.output) });
	}
	const prompt = text([...input].reverse().find((item) => item.role === 'user')?.content);
	const tools = (body.tools ?? []).filter((tool) => tool.type === 'function').map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters }));
	return { prompt, tools, toolResults };
}

function text(content) {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) return content.map((part) => part.text ?? part.output ?? '').join('');
	return content === undefined || content === null ? '' : JSON.stringify(content);
}

function safeJson(value) {
	try {
		return JSON.parse(value);
	} catch {
		return value;
	}
}

function send(res, status, body) {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

function sse(res, events, done) {
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	for (const event of events) res.write(`${event.type ? `event: ${event.type}\n` : ''}data: ${JSON.stringify(event)}\n\n`);
	if (done) res.write('data: [DONE]\n\n');
	res.end();
}

module.exports = { startScriptedModel };
