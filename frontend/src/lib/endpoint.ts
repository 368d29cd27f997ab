/**
 * The identity of a model endpoint, as hermes.toml's [[model.endpoints]]
 * matches a run's base_url: scheme, host, port and path (a trailing slash
 * aside). A URL that does not parse stands for itself.
 */
function endpointKey(url: string): string {
  const s = url.trim()
  try {
    const u = new URL(s)
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`
  } catch {
    return s.replace(/\/+$/, '')
  }
}

/**
 * otherEndpoint says whether the base URL typed into the New run form names
 * another endpoint than the configured one and than those listed under
 * [[model.endpoints]]: the configured API key is not sent there, and no
 * entry gives it one of its own.
 */
export function otherEndpoint(typed: string, configured: string, listed: readonly string[] = []): boolean {
  if (!typed.trim()) return false
  const key = endpointKey(typed)
  return key !== endpointKey(configured) && !listed.some((u) => endpointKey(u) === key)
}
