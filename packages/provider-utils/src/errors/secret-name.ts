/**
 * Names that may carry a credential (`key`, `api_key`, `token`, `sig`, `pass`, `pwd`, `pw`, `jwt`,
 * `session`, `bearer`, `access`, `cred`, ...): a name holding any of these, or the whole name `ak`,
 * `code` or none (`?=S`). Read for query parameters and for provider option keys.
 * @internal
 */
export const SECRET_NAME =
  /key|secret|token|sig|pass|pwd|auth|cred|jwt|session|bearer|access|(?:^|[^a-z])pw(?:$|[^a-z])|^(?:ak|code|)$/i;
