/** Every `anthropic-ratelimit-*` header, names lower-cased. @internal */
export function readRateLimits(headers: Headers | undefined): Record<string, string> {
  const limits: Record<string, string> = {};
  headers?.forEach((value, name) => {
    if (name.toLowerCase().startsWith('anthropic-ratelimit-')) limits[name.toLowerCase()] = value;
  });
  return limits;
}
