/**
 * Parts of a name that mark a credential anywhere in it: `key`, `secret`, `token`, `sig`(nature),
 * `pass`(word), `pwd`, `auth`, `cred`, `jwt`, `session`, `bearer`, `access`, `cookie`, `hmac`,
 * `cert`, `refresh`, `assertion`, `connection string`, `private`, `license`, `webhook`, `proxy`,
 * `userinfo`, `salt`, `nonce`, `csrf`, `xsrf`, `saml`, `mnemonic`, `xpriv`, `ticket`, `vault`.
 */
const ANYWHERE =
  /key|secret|token|sig|pass|pwd|auth|cred|jwt|session|bearer|access|cookie|hmac|cert|refresh|assertion|connection_?string|private|license|webhook|proxy|userinfo|salt|nonce|csrf|xsrf|saml|mnemonic|xpriv|ticket|vault/i;
/** Short words that mark a credential only as a word of the name (`pat`, `sas_url`, `x-pin`; not `path`). */
const WORD = /(?:^|[^a-z])(?:pw|pat|ghp|sk|psk|pk|sas|otp|totp|pin|mfa|sid|dsn|seed|wif|kms|ak|code|)(?:$|[^a-z])/i;

/**
 * Whether a name (a query parameter's, a provider option's key) may carry a credential: it holds one
 * of the parts of `ANYWHERE` (`api_key`, `accessToken`, `clientSecret`, `x-goog-api-key`,
 * `Ocp-Apim-Subscription-Key`, `connectionString`, `webhookUrl`), or one of the short words `pw`, `pat`, `ghp`, `sk`, `psk`, `pk`, `seed`, `wif`, `kms`, `sas`,
 * `otp`, `totp`, `pin`, `mfa`, `sid`, `dsn` as a word of it (camelCase words split: `sasUrl`,
 * `githubPat`), or it is the whole name `ak`, `code` or none (`?=S`).
 * @internal
 */
export function isSecretName(name: string): boolean {
  if (ANYWHERE.test(name)) return true;
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2');
  return words === '' || WORD.test(words);
}
