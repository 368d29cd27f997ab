import { describe, expect, it } from 'vitest'
import { completionsURL, curlCommand, requestBody } from './curl'
import { messagesOf, rebuildContexts } from './context'
import { sampleEvents } from './fixture'

// The body of a here-document: what curl reads on its standard input.
const bodyOf = (cmd: string): unknown => JSON.parse(cmd.slice(cmd.indexOf("<<'JSON'\n") + 9, cmd.lastIndexOf('\nJSON\n')))

describe('copy as cURL', () => {
  const ctx = rebuildContexts(sampleEvents).get(2)!
  const req = { model: 'gpt-4o-mini', baseUrl: 'https://api.openai.com/v1/', messages: messagesOf(ctx), tools: ['read_file'] }

  it('sends the request the iteration sent, as an OpenAI chat completion', () => {
    expect(requestBody(req)).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'You are Hermes.' },
        { role: 'user', content: 'Task: Summarise README.md' },
        { role: 'assistant', content: 'Let me read it.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"README.md"}' } }] },
        { role: 'tool', content: 'error: no such file README.md', tool_call_id: 'c1' },
      ],
      tools: [{ type: 'function', function: { name: 'read_file' } }],
    })
  })

  it('names the key by its variable and never holds one', () => {
    const cmd = curlCommand(req)
    expect(cmd.split('\n').slice(0, 4)).toEqual([
      "curl 'https://api.openai.com/v1/chat/completions' \\",
      "  -H 'Content-Type: application/json' \\",
      '  -H "Authorization: Bearer $OPENAI_API_KEY" \\',
      "  -d @- <<'JSON'",
    ])
    expect(bodyOf(cmd)).toEqual(requestBody(req))
    expect(cmd.match(/Authorization: [^"]*/g)).toEqual(['Authorization: Bearer $OPENAI_API_KEY'])
  })

  it('keeps a masked query, drops a user name, and says when the endpoint is unknown', () => {
    expect(completionsURL('https://gw.example/openai?api-key=xxxxx')).toBe('https://gw.example/openai/chat/completions?api-key=xxxxx')
    expect(completionsURL('http://ada:xxxxx@127.0.0.1:11434/v1')).toBe('http://127.0.0.1:11434/v1/chat/completions')
    expect(curlCommand({ ...req, baseUrl: '' })).toContain('curl "$OPENAI_BASE_URL/chat/completions"')
  })

  it('quotes a URL with a quote in it for the shell', () => {
    expect(curlCommand({ ...req, baseUrl: "http://h/it's" })).toContain("curl 'http://h/it'\\''s/chat/completions'")
  })
})
