'use strict';
// One handler per operationId of openapi.yaml. A handler gets
// { req, op, raw, query, params, allow } (params: the path template's values, e.g. { campaignId },
// already checked against their schemas) and returns a reply (see http-util.js); for a value that
// names nothing, resourceNotFoundReply(`No campaign ${id}.`).

const http = require('node:http');
const { jsonReply, cachedJsonReply, errorReply, mediaType, resourceNotFoundReply } = require('./http-util');
const { issueTokenReply, oauthError } = require('./auth');
const { detailsFromAjv, campaignSemanticDetails } = require('./validation');

const G_400003_MESSAGE = 'The campaign could not be created because the data are incomplete or invalid.';

function validationFailed(details) {
  return jsonReply(400, { success: false, error: { code: 'G-400003', message: G_400003_MESSAGE, details } });
}

// RFC 8259 8.1: JSON between systems is UTF-8. Invalid bytes are refused rather than replaced by
// U+FFFD; a byte order mark is kept, so JSON.parse refuses it (senders must not add one).
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// The 200 answer of POST /lba/campaign, written out: the same bytes as JSON.stringify of
// { success, message, campaignId, channels, status }, whose only variable parts are IDs made of
// upper-case hex digits and '-' (nothing to escape).
const CREATED_START = '{"success":true,"message":"Campaign created and published.","campaignId":"';

function createdReply({ campaignId, channels }) {
  const list = channels.length ? `["${channels.join('","')}"]` : '[]';
  return { status: 200, headers: {}, body: Buffer.from(`${CREATED_START}${campaignId}","channels":${list},"status":"Published"}`) };
}

/** The JSON body of a request whose operation declares JSON: { value, text } or { details }. */
function jsonBody(op, req, raw) {
  const type = mediaType(req.headers['content-type']);
  if (!op.bodyTypes.includes(type)) {
    return { details: [{ field: 'Content-Type', message: `must be ${op.bodyTypes.join(' or ')}, not ${type || 'missing'}` }] };
  }
  let text;
  try {
    text = UTF8.decode(raw);
  } catch {
    return { details: [{ field: 'body', message: 'is not valid UTF-8' }] };
  }
  try {
    return { value: JSON.parse(text), text };
  } catch (error) {
    return { details: [{ field: 'body', message: `is not valid JSON (${error.message})` }] };
  }
}

/** JSON.parse takes any depth; JSON.stringify overflows the stack on very deep values. */
function serialisable(value) {
  try {
    JSON.stringify(value);
    return true;
  } catch {
    return false;
  }
}

// Headers a fault may not set: the sandbox frames every answer itself.
const FRAMING_HEADERS = new Set(['content-length', 'content-type', 'transfer-encoding']);

/** Problems with the headers of a fault that would make its answer fail or break HTTP framing. */
function faultHeaderDetails(headers) {
  const details = [];
  for (const [name, value] of Object.entries(headers || {})) {
    try {
      http.validateHeaderName(name);
      http.validateHeaderValue(name, value);
    } catch (error) {
      details.push({ field: `headers.${name}`, message: `is not a valid header (${error.code})` });
      continue;
    }
    if (FRAMING_HEADERS.has(name.toLowerCase())) details.push({ field: `headers.${name}`, message: 'is set by the sandbox' });
  }
  return details;
}

const LATLNG = /^\s*([+-]?(?:\d+\.?\d*|\.\d+))\s*,\s*([+-]?(?:\d+\.?\d*|\.\d+))\s*$/;

function invalidLocation(message) {
  return jsonReply(400, { status: 'INVALID_REQUEST', error_message: message, results: [] });
}

/** `latlng` -> { lat, lng } or { error } (a message in Google's wording). */
function parseLatLng(op, query) {
  for (const param of op.queryParams) {
    const value = query.get(param.name);
    if (value === null) {
      if (param.required) return { error: `Invalid request. Missing the '${param.name}' parameter.` };
    } else if (!param.validate(value)) {
      return { error: `Invalid request. Invalid '${param.name}' parameter.` };
    }
  }
  const match = LATLNG.exec(query.get('latlng'));
  if (!match) return { error: "Invalid request. Invalid 'latlng' parameter." };
  const lat = Number(match[1]);
  const lng = Number(match[2]);
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) {
    return { error: "Invalid request. Invalid 'latlng' parameter: latitude must be within -90..90 and longitude within -180..180." };
  }
  return { lat, lng };
}

/**
 * @param {object} context { tokens, campaigns, requests, faults, geocoder, catalogue, locations, validateFault }
 */
function createHandlers(context) {
  const { tokens, campaigns, requests, faults, geocoder, catalogue, locations, validateFault } = context;

  return {
    async createCampaign({ req, op, raw }) {
      const body = jsonBody(op, req, raw);
      if (body.details) return validationFailed(body.details);
      const details = op.validateBody(body.value) ? [] : detailsFromAjv(op.validateBody.errors);
      details.push(...campaignSemanticDetails(body.value));
      if (details.length) return validationFailed(details);
      const campaign = await campaigns.create(body.value, body.text);
      return createdReply(campaign);
    },

    rejectCampaignGet({ allow }) {
      return errorReply(405, 'METHOD_NOT_ALLOWED', `Use ${allow} to create a campaign.`, { headers: { Allow: allow } });
    },

    getLocation({ op, query }) {
      const point = parseLatLng(op, query);
      if (point.error) return invalidLocation(point.error);
      return cachedJsonReply(200, geocoder.reverse(point.lat, point.lng));
    },

    getProducts() {
      return catalogue.reply();
    },

    getLocations({ query }) {
      const results = locations.search(query.get('name'));
      return jsonReply(200, { success: true, totalResults: results.length, results });
    },

    issueToken({ req, raw }) {
      if (mediaType(req.headers['content-type']) !== 'application/x-www-form-urlencoded') {
        return oauthError(400, 'invalid_request', 'The body must be application/x-www-form-urlencoded.');
      }
      return issueTokenReply(tokens, req.headers.authorization, new URLSearchParams(raw.toString('utf8')));
    },

    listReceivedCampaigns() {
      const list = campaigns.list().map((campaign) => ({
        ...campaign,
        targets: (Array.isArray(campaign.request?.channels) ? campaign.request.channels : []).map((channel) => ({
          locationId: channel?.locationId ?? null,
          place: locations.place(channel?.locationId),
        })),
      }));
      return jsonReply(200, { campaigns: list });
    },

    async resetReceivedCampaigns() {
      return jsonReply(200, { deleted: await campaigns.reset() });
    },

    listRecentRequests() {
      const list = requests.list();
      try {
        return jsonReply(200, { requests: list });
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        // A body nested too deeply to serialise (JSON.parse took it) is listed as a note, not a 500.
        for (const entry of list) if (!serialisable(entry.body)) entry.body = '[JSON nested too deeply to list]';
        return jsonReply(200, { requests: list });
      }
    },

    listFaults() {
      return jsonReply(200, { faults: faults.list() });
    },

    addFault({ req, op, raw }) {
      const body = jsonBody(op, req, raw);
      const details = body.details || (validateFault(body.value) ? [] : detailsFromAjv(validateFault.errors));
      if (!details.length && body.value.status === undefined && !body.value.drop && body.value.latencyMs === undefined) {
        details.push({ field: 'body', message: 'needs status, drop or latencyMs' });
      }
      if (!details.length) details.push(...faultHeaderDetails(body.value.headers));
      if (!details.length && !serialisable(body.value.body)) details.push({ field: 'body.body', message: 'is nested too deeply' });
      if (details.length) return errorReply(400, 'BAD_REQUEST', 'The fault is invalid.', { details });
      return jsonReply(201, { id: faults.add(body.value).id });
    },

    clearFaults() {
      return jsonReply(200, { deleted: faults.clear() });
    },

    changeCatalogue({ req, op, raw }) {
      const body = jsonBody(op, req, raw);
      const details = body.details || (op.validateBody(body.value) ? [] : detailsFromAjv(op.validateBody.errors));
      if (details.length) return errorReply(400, 'BAD_REQUEST', 'The catalogue change is invalid.', { details });
      return jsonReply(200, { totalResults: catalogue.change(body.value) });
    },

    resetCatalogue() {
      return jsonReply(200, { totalResults: catalogue.reset() });
    },

    async resetSandbox() {
      await campaigns.reset();
      requests.clear();
      faults.clear();
      catalogue.reset();
      return jsonReply(200, { reset: true });
    },
  };
}

module.exports = { createHandlers, parseLatLng };
