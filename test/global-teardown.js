const { rmSync } = require('node:fs');

module.exports = async () => {
  if (process.env.LBA_HARNESS_OWNS_USER_FOLDER === '1') {
    rmSync(process.env.N8N_USER_FOLDER, { recursive: true, force: true });
  }
};
