'use strict';
// Bearer tokens (spec 5, 7.2) and the client-credentials token endpoint (beyond the spec).

const crypto = require('node:crypto');
const { jsonReply } = require('./http-util');

// Spec 7.2: the same body for a missing, malformed, unknown or expired token.
const INVALID_TOKEN_BODY = {
  fault: {
    faultstring: 'Invalid Access Token',
    detail: { errorcode: 'keymanagement.service.invalid_access_token' },
  },
};

function invalidTokenReply() {
  return jsonReply(401, INVALID_TOKEN_BODY, { 'WWW-Authenticate': 'Bearer realm="LBA sandbox"' });
}

/** The token of an "Authorization: Bearer <token>" header, or null when malformed. */
function bearerToken(header) {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(String(header || ''));
  return match ? match[1] : null;
}

function sameSecret(a, b) {
  const left = Buffer.from(String(a));
  const right = Buffer.from(String(b));
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

class TokenStore {
  constructor({ tokens, clientId, clientSecret, tokenTtlSeconds, tokenType = 'Bearer' }) {
    this.staticTokens = new Set(tokens);
    // The real service (Apigee) may answer token_type "BearerToken"; --token-type reproduces it.
    this.tokenType = tokenType;
    this.clientId = clientId;
    this.clientSecret = clientSecret;
    this.ttlSeconds = tokenTtlSeconds;
    this.issued = new Map(); // token -> expiry time in ms
  }

  isValid(token) {
    if (token === null) return false;
    if (this.staticTokens.has(token)) return true;
    const expiresAt = this.issued.get(token);
    if (expiresAt === undefined) return false;
    if (Date.now() < expiresAt) return true;
    this.issued.delete(token);
    return false;
  }

  issue() {
    if (this.issued.size >= 10000) this.forgetExpired();
    const token = crypto.randomBytes(24).toString('base64url');
    this.issued.set(token, Date.now() + this.ttlSeconds * 1000);
    return token;
  }

  forgetExpired() {
    const now = Date.now();
    for (const [token, expiresAt] of this.issued) if (expiresAt <= now) this.issued.delete(token);
  }

  isClient(id, secret) {
    return sameSecret(id, this.clientId) && sameSecret(secret, this.clientSecret);
  }
}

/** Client id and secret from a Basic header, else from the form; null when neither. */
function clientCredentials(authorization, form) {
  const basic = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(String(authorization || ''));
  if (basic) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return { id: decoded, secret: '' };
    // RFC 6749 2.3.1: both parts are form-urlencoded before base64.
    const decode = (s) => {
      try {
        return decodeURIComponent(s.replace(/\+/g, ' '));
      } catch {
        return s;
      }
    };
    return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
  }
  if (form.has('client_id')) return { id: form.get('client_id'), secret: form.get('client_secret') || '' };
  return null;
}

// The real service (Apigee) answers token errors as {"ErrorCode": "...", "Error": "..."}, not in
// RFC 6749's {error, error_description}: OAuth2 clients must cope with it, so the sandbox does too.
function oauthError(status, errorCode, description, headers = {}) {
  return jsonReply(status, { ErrorCode: errorCode, Error: description }, { 'Cache-Control': 'no-store', ...headers });
}

// What the real service lists in api_product_list: the API products the client may call.
const API_PRODUCT_LIST = '[lba-ads-sandbox]';

/** POST /oauth/token (RFC 6749 4.4). `form` is a URLSearchParams of the body. */
function issueTokenReply(store, authorization, form) {
  const client = clientCredentials(authorization, form);
  if (!client || !store.isClient(client.id, client.secret)) {
    // RFC 9110 11.6.1: every 401 carries WWW-Authenticate (RFC 6749 5.2 only insists when the client
    // used the Authorization header); Basic is how a client authenticates here.
    return oauthError(401, 'invalid_client', 'Unknown client or wrong secret.', { 'WWW-Authenticate': 'Basic realm="LBA sandbox"' });
  }
  const grantType = form.get('grant_type');
  if (!grantType) return oauthError(400, 'invalid_request', 'grant_type is required.');
  if (grantType !== 'client_credentials') {
    return oauthError(400, 'unsupported_grant_type', 'Only client_credentials is supported.');
  }
  return jsonReply(
    200,
    // As the real service answers: expires_in is a string of seconds, plus api_product_list.
    { token_type: store.tokenType, access_token: store.issue(), expires_in: String(store.ttlSeconds), api_product_list: API_PRODUCT_LIST },
    { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
  );
}

module.exports = { TokenStore, bearerToken, invalidTokenReply, issueTokenReply, oauthError, INVALID_TOKEN_BODY };
