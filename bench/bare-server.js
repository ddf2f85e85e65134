'use strict';
// The limit for P3: bare node:http answering every request with a fixed body, no routing
// logic beyond a Map lookup, no validation. Bodies are the sandbox's own answers (passed
// as a JSON file), so the bytes on the wire are the same as the sandbox's.
const http = require('node:http');
const fs = require('node:fs');

const replies = new Map(
	Object.entries(JSON.parse(fs.readFileSync(process.argv[2], 'utf8'))).map(([route, body]) => [route, Buffer.from(body)]),
);

const server = http.createServer({ keepAliveTimeout: 5000 }, (req, res) => {
	const q = req.url.indexOf('?');
	const body = replies.get(`${req.method} ${q < 0 ? req.url : req.url.slice(0, q)}`);
	// POST bodies must be read before answering or keep-alive breaks.
	req.resume();
	req.on('end', () => {
		if (!body) {
			res.writeHead(404).end();
			return;
		}
		res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
		res.end(body);
	});
});
server.listen(0, '127.0.0.1', () => console.log(`bare listening on http://127.0.0.1:${server.address().port}`));
