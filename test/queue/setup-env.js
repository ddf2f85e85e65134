// Loaded by test/queue/jest.config.js only: turns the queue-mode suite on (it is
// `describe.skip` elsewhere, so a plain `jest` run does not start PostgreSQL, Redis and n8n).
process.env.LBA_QUEUE = process.env.LBA_QUEUE || '1';
