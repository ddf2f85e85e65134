// Loaded before every e2e and queue-mode suite: each fetch to this machine (the sandbox, n8n) asks
// for its own connection. A kept-alive socket the server closed at its 5 s keep-alive while this
// process was stalled on a loaded machine failed calls with "fetch failed: other side closed"
// (dry-run.e2e at load 15 in CI); the REST client to n8n already sent `connection: close`.
const fetchWithKeepAlive = globalThis.fetch;
globalThis.fetch = (input, init = {}) => {
	const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
	if (!/^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(url)) return fetchWithKeepAlive(input, init);
	const headers = new Headers(init.headers ?? (typeof input === 'object' && !(input instanceof URL) ? input.headers : undefined));
	if (!headers.has('connection')) headers.set('connection', 'close');
	return fetchWithKeepAlive(input, { ...init, headers });
};
