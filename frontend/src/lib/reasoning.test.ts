import { describe, expect, it } from 'vitest'
import type { HermesEvent } from '../api/types'
import { summarizeEvent } from './events'
import { foldRun } from './timeline'

const ev = (seq: number, type: string, iteration: number, data: unknown): HermesEvent => ({ v: 1, run_id: 'r', seq, time: '2026-12-01T10:00:00Z', iteration, type, data })

// A thinking model's turn, as a DeepSeek run logs it: the reasoning streamed
// before the text, then the decision that carries it whole.
const events = [
  ev(1, 'run.started', 0, { task: 'Summarise a.md', model: 'deepseek-reasoner' }),
  ev(2, 'iteration.started', 1, {}),
  ev(3, 'model.reasoning', 1, { text: 'The user wants ' }),
  ev(4, 'model.reasoning', 1, { text: 'a summary.' }),
  ev(5, 'model.delta', 1, { text: 'Reading it.' }),
  ev(6, 'model.decided', 1, {
    thought: 'Reading it.',
    reasoning: 'The user wants a summary.',
    usage: { prompt_tokens: 400, completion_tokens: 60, total_tokens: 460, reasoning_tokens: 41 },
    tool_calls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"a.md"}', valid: true }],
  }),
]

describe("the model's reasoning", () => {
  it('streams into the card before the decision, then is the decision’s whole', () => {
    const live = foldRun(events.slice(0, 4)).iterations.find((it) => it.n === 1)
    expect(live).toMatchObject({ reasoning: 'The user wants a summary.', decided: false, streamed: '' })
    expect(live?.items[0]).toMatchObject({ kind: 'model' })

    const it1 = foldRun(events).iterations.find((it) => it.n === 1)
    expect(it1).toMatchObject({ reasoning: 'The user wants a summary.', reasoningTokens: 41, thought: 'Reading it.', tokensOut: 60 })
  })

  it('comes from the decision when the streamed pieces were dropped', () => {
    const it1 = foldRun([events[0], events[1], events[5]]).iterations.find((it) => it.n === 1)
    expect(it1?.reasoning).toBe('The user wants a summary.')
  })

  it('is described in the event list, in both languages', () => {
    expect(summarizeEvent(events[2], 'en')).toBe('Thinking: The user wants')
    expect(summarizeEvent(events[2], 'zh-CN')).toBe('思考：The user wants')
  })
})
