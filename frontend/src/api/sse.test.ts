import { describe, expect, it } from 'vitest'
import { createSSEParser, type SSEMessage } from './sse'

function parseAll(chunks: string[]): SSEMessage[] {
  const out: SSEMessage[] = []
  const feed = createSSEParser((m) => out.push(m))
  for (const c of chunks) feed(c)
  return out
}

describe('createSSEParser', () => {
  it.each([
    { name: 'one message', chunks: ['id: 3\nevent: hermes\ndata: {"seq":3}\n\n'], want: [{ id: '3', event: 'hermes', data: '{"seq":3}' }] },
    {
      name: 'split anywhere, CRLF, heartbeats between',
      chunks: ['id: 1\r', '\nevent: her', 'mes\r\ndata: a\r\n\r\n: ping\n\nid: 2\ndata:b\n', '\n'],
      want: [
        { id: '1', event: 'hermes', data: 'a' },
        { id: '2', event: 'message', data: 'b' },
      ],
    },
    { name: 'data over lines', chunks: ['data: one\ndata: two\n\n'], want: [{ id: '', event: 'message', data: 'one\ntwo' }] },
    { name: 'an end without data is not a message, an incomplete one waits', chunks: ['event: end\n\nevent: end\ndata: {}\n\ndata: half'], want: [{ id: '', event: 'end', data: '{}' }] },
  ])('$name', ({ chunks, want }) => {
    expect(parseAll(chunks)).toEqual(want)
  })
})
