// A Server-Sent Events reader over fetch: unlike EventSource it runs in Node
// for tests, and it resumes from the last seq it saw rather than trusting a
// browser's reconnect.

export interface SSEMessage {
  id: string
  event: string
  data: string
}

/**
 * createSSEParser returns a function that takes chunks of an event stream as
 * they arrive and calls onMessage for each complete message. Comments
 * (heartbeats) and fields it does not know are skipped, as the spec says.
 */
export function createSSEParser(onMessage: (m: SSEMessage) => void): (chunk: string) => void {
  let buffer = ''
  let id = ''
  let event = ''
  let data: string[] = []
  const dispatch = () => {
    if (data.length > 0) onMessage({ id, event: event || 'message', data: data.join('\n') })
    event = ''
    data = []
  }
  return (chunk) => {
    buffer += chunk
    let nl: number
    while ((nl = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, nl)
      buffer = buffer.slice(nl + (buffer.startsWith('\r\n', nl) ? 2 : 1))
      if (line === '') {
        dispatch()
        continue
      }
      if (line.startsWith(':')) continue
      const colon = line.indexOf(':')
      const field = colon < 0 ? line : line.slice(0, colon)
      let value = colon < 0 ? '' : line.slice(colon + 1)
      if (value.startsWith(' ')) value = value.slice(1)
      if (field === 'data') data.push(value)
      else if (field === 'event') event = value
      else if (field === 'id') id = value
    }
  }
}
