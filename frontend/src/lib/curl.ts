import type { ChatMessage } from '../api/types'

// "Copy as cURL": a model request as an OpenAI chat completion a person can
// send by hand. The key is never in it: the Authorization header names the
// $OPENAI_API_KEY variable, and the base URL comes from the run log, where
// it is recorded with its password and query values masked.

export interface CurlRequest {
  model: string
  /** The run's base URL, e.g. https://api.openai.com/v1; "" when unknown. */
  baseUrl: string
  messages: readonly ChatMessage[]
  /** The names of the tools the request offered. */
  tools: readonly string[]
}

interface WireMessage {
  role: string
  content: string
  name?: string
  tool_call_id?: string
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[]
}

function wire(m: ChatMessage): WireMessage {
  const out: WireMessage = { role: m.role, content: m.content }
  if (m.name && m.role !== 'tool') out.name = m.name
  if (m.tool_call_id) out.tool_call_id = m.tool_call_id
  if (m.tool_calls?.length) {
    out.tool_calls = m.tool_calls.map((c) => ({ id: c.id ?? '', type: 'function', function: { name: c.name ?? '', arguments: c.arguments ?? '' } }))
  }
  return out
}

/**
 * requestBody is the chat completion body. The log records the tools' names,
 * not their schemas, so each tool is offered by name alone.
 */
export function requestBody(r: CurlRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { model: r.model, messages: r.messages.map(wire) }
  if (r.tools.length > 0) body.tools = r.tools.map((name) => ({ type: 'function', function: { name } }))
  return body
}

/** completionsURL is where a chat completion of baseUrl goes, its query kept. */
export function completionsURL(baseUrl: string): string {
  if (!baseUrl) return '$OPENAI_BASE_URL/chat/completions'
  try {
    const u = new URL(baseUrl)
    u.username = ''
    u.password = ''
    u.hash = ''
    u.pathname = u.pathname.replace(/\/+$/, '') + '/chat/completions'
    return u.toString()
  } catch {
    return baseUrl.replace(/\/+$/, '') + '/chat/completions'
  }
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

/** curlCommand is the request as a shell command; the body goes in a quoted here-document. */
export function curlCommand(r: CurlRequest): string {
  const url = completionsURL(r.baseUrl)
  return [
    `curl ${r.baseUrl ? quote(url) : `"${url}"`} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H "Authorization: Bearer $OPENAI_API_KEY" \\`,
    `  -d @- <<'JSON'`,
    JSON.stringify(requestBody(r), null, 2),
    'JSON',
    '',
  ].join('\n')
}
