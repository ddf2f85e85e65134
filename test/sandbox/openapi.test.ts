// The OpenAPI document: valid OpenAPI 3.1 (checked by a real validator), and faithful to
// the spec's enumerations, which are read from the spec itself.

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { OPENAPI_FILE, REPO, SPEC_FILE, openapi, startTestSandbox } from './helpers';

/** Rows of the first markdown table after a heading. */
function tableAfter(markdown: string, heading: string): string[][] {
  const start = markdown.indexOf(heading);
  if (start < 0) throw new Error(`no heading ${heading}`);
  const lines = markdown.slice(start).split('\n').slice(1);
  const first = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim()));
  }
  return rows.slice(2); // header and separator
}

describe('openapi.yaml', () => {
  const spec = fs.readFileSync(SPEC_FILE, 'utf8');
  const schemas = openapi.components.schemas;

  test('passes the OpenAPI 3.1 schema validator (@seriousme/openapi-schema-validator)', () => {
    // The validator is ESM-only; run it in a child Node process.
    const script = `
      import { Validator } from '@seriousme/openapi-schema-validator';
      const validator = new Validator();
      const result = await validator.validate(${JSON.stringify(OPENAPI_FILE)});
      console.log(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors }));
    `;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO, encoding: 'utf8' });
    const result = JSON.parse(output);
    expect(result.errors).toBeUndefined();
    expect(result).toMatchObject({ valid: true, version: '3.1' });
  });

  test('category ids are exactly those of spec 2.2', () => {
    const ids = tableAfter(spec, '### 2.2').map((row) => Number(row[0]));
    expect(ids).toHaveLength(24);
    expect(schemas.CategoryId.enum).toEqual(ids);
  });

  test('telco ids are exactly those of spec 2.3', () => {
    const telcos = tableAfter(spec, 'Allowed values of telcoId').map((row) => row[0]);
    expect(schemas.TelcoId.enum).toEqual(telcos);
  });

  test('campaign and channel fields and required lists follow spec 2.1 and 2.3', () => {
    const campaignFields = tableAfter(spec, '### 2.1').map((row) => row[0].replace('*', ''));
    const channelFields = tableAfter(spec, '### 2.3').map((row) => row[0].replace('*', ''));
    expect(Object.keys(schemas.Campaign.properties).sort()).toEqual([...campaignFields].sort());
    expect([...schemas.Campaign.required].sort()).toEqual([...campaignFields].sort());
    expect(Object.keys(schemas.Channel.properties).sort()).toEqual([...channelFields].sort());
    expect([...schemas.Channel.required].sort()).toEqual([...channelFields].sort());
  });

  test('the 7.2 fault body carries the spec error code', () => {
    const row = tableAfter(spec, '### 7.2').find((r) => r[0] === 'fault.detail.errorcode');
    expect(schemas.InvalidTokenFault.properties.fault.properties.detail.properties.errorcode.const).toBe(row?.[2]);
  });

  test('has the spec operations with bearer security, and marks /oauth/token as beyond the spec', () => {
    expect(openapi.paths['/lba/campaign'].post.operationId).toBeDefined();
    expect(openapi.paths['/io/location'].get.parameters[0]).toMatchObject({ name: 'latlng', in: 'query', required: true });
    expect(openapi.paths['/io/products'].get).toBeDefined();
    expect(openapi.security).toEqual([{ bearerAuth: [] }]);
    expect(openapi.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const token = openapi.paths['/oauth/token'].post;
    expect(token.tags).toContain('beyond-spec');
    expect(token.description).toMatch(/Beyond the spec/);
  });

  test('the server starts from this document (every operation has a handler)', async () => {
    const sandbox = await startTestSandbox();
    await sandbox.close();
  });
});
