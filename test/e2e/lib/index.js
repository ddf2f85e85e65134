'use strict';
// e2e helpers for running community packages in a real n8n. See README.md beside this file.
module.exports = {
	...require('./env'),
	...require('./packages'),
	...require('./cli'),
	...require('./server'),
	...require('./browser'),
	...require('./editor-suite'),
	...require('./examples'),
	...require('./lba-n8n'),
	...require('./describe'),
	...require('./registry'),
	...require('./workflows'),
	...require('./report'),
	...require('./steps'),
};
