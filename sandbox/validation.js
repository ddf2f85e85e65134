'use strict';
// Turns ajv errors into the `error.details` list of a G-400003 answer and adds the
// checks JSON Schema cannot express (startDate before endDate).

const DATE_TIME_WITH_OFFSET =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;

const DAY_MS = 86400000;

/**
 * Days from 1970-01-01 to year-month-day of the proleptic Gregorian calendar, for any whole
 * year (0-99 included) and any month (13 is January of the next year), and day 1 of that month
 * plus `day - 1` days: what Date's setUTCFullYear(year, month - 1, day) gives, without a Date
 * (its setters cost more than the whole rest of a campaign's checks). Hinnant's days_from_civil.
 */
function daysFromCivil(year, month, day) {
  year += Math.floor((month - 1) / 12);
  month = ((((month - 1) % 12) + 12) % 12) + 1;
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5);
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468 + (day - 1);
}

/**
 * Milliseconds since the epoch of an ISO 8601 date-time with a UTC offset, or NaN.
 * Date.parse is not used: it rejects offsets like "+07" and leap seconds that the
 * schema's date-time format accepts. Not Date.UTC(y, ...) either: it reads years 0-99 as
 * 1900-1999.
 */
function parseDateTimeWithOffset(text) {
  const m = DATE_TIME_WITH_OFFSET.exec(String(text));
  if (!m) return NaN;
  const [, y, mo, d, h, mi, s, fraction, zulu, sign, offsetHours, offsetMinutes] = m;
  const local = daysFromCivil(+y, +mo, +d) * DAY_MS + ((+h * 60 + +mi) * 60 + +s) * 1000 + (fraction ? Math.floor(Number(fraction) * 1000) : 0);
  if (zulu) return local;
  const offset = (Number(offsetHours) * 60 + Number(offsetMinutes || 0)) * 60000;
  return sign === '+' ? local - offset : local + offset;
}

/** "/channels/0/startDate" -> "channels[0].startDate"; the root is "body". */
function fieldName(instancePath, child) {
  const segments = instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) segments.push(child);
  let name = '';
  for (const segment of segments) {
    if (/^\d+$/.test(segment)) name += `[${segment}]`;
    else name += name ? `.${segment}` : segment;
  }
  return name || 'body';
}

function detailFromAjvError(error) {
  const { keyword, params, instancePath } = error;
  switch (keyword) {
    case 'required':
      return { field: fieldName(instancePath, params.missingProperty), message: 'is required' };
    case 'additionalProperties':
      return { field: fieldName(instancePath, params.additionalProperty), message: 'is not an allowed field' };
    case 'unevaluatedProperties':
      return { field: fieldName(instancePath, params.unevaluatedProperty), message: 'is not an allowed field' };
    case 'enum':
      return { field: fieldName(instancePath), message: `must be one of: ${params.allowedValues.join(', ')}` };
    case 'format':
      return {
        field: fieldName(instancePath),
        message:
          params.format === 'date-time'
            ? 'must be an ISO 8601 date-time with a UTC offset, e.g. 2026-12-01T08:00:00+07:00'
            : `must be a valid ${params.format}`,
      };
    case 'pattern':
      return {
        field: fieldName(instancePath),
        message: params.pattern === '\\S' ? 'must not be blank' : `must match ${params.pattern}`,
      };
    default:
      return { field: fieldName(instancePath), message: error.message };
  }
}

/** Details of a failed ajv validation, one per field and message. */
function detailsFromAjv(errors) {
  const seen = new Set();
  const details = [];
  for (const error of errors || []) {
    const detail = detailFromAjvError(error);
    const key = detail.field + '\u0000' + detail.message;
    if (!seen.has(key)) {
      seen.add(key);
      details.push(detail);
    }
  }
  return details;
}

/** Checks across fields of a campaign that passed or failed the schema; returns details. */
function campaignSemanticDetails(campaign) {
  const details = [];
  const channels = campaign && Array.isArray(campaign.channels) ? campaign.channels : [];
  channels.forEach((channel, index) => {
    if (!channel || typeof channel !== 'object') return;
    const start = parseDateTimeWithOffset(channel.startDate);
    const end = parseDateTimeWithOffset(channel.endDate);
    if (!Number.isNaN(start) && !Number.isNaN(end) && start >= end) {
      details.push({ field: `channels[${index}].startDate`, message: 'must be before endDate' });
    }
  });
  return details;
}

module.exports = { parseDateTimeWithOffset, detailsFromAjv, campaignSemanticDetails, fieldName };
