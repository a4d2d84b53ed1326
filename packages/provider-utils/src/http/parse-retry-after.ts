/**
 * An HTTP-date (RFC 9110 §5.6.7): IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete
 * RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`) or asctime (`Sun Nov  6 08:49:37 1994`).
 */
const HTTP_DATE =
  /^(?:[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

/**
 * Reads how long a server asked the client to wait: `retry-after-ms` (milliseconds), else
 * `retry-after` in an RFC 9110 form only: delay-seconds (digits) or an HTTP-date (relative to
 * `now`). Negative and unparseable values, and numbers in other notations (`0x10`, `1e3`, `1.5`),
 * give `undefined`.
 */
export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const milliseconds = headers.get('retry-after-ms');
  // Not in RFC 9110 (OpenAI's own header): plain decimal milliseconds only, no other notation.
  if (milliseconds !== null && /^[0-9]+(?:\.[0-9]+)?$/.test(milliseconds.trim())) return Number(milliseconds.trim());
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  const text = after.trim();
  // RFC 9110 §10.2.3: delay-seconds is 1*DIGIT; `0x10`, `1e3`, `-1`, `1.5` are none of its forms.
  if (/^[0-9]+$/.test(text)) return Number(text) * 1000;
  if (!HTTP_DATE.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
