import { describe, expect, it } from 'vitest'
import type { HermesEvent } from '../api/types'
import { stageTokenList } from './stagetokens'
import { foldRun } from './timeline'

const ev = (seq: number, type: string, iteration: number, data: unknown): HermesEvent => ({ v: 1, run_id: 'r', seq, time: '2026-12-01T10:00:00Z', iteration, type, data })
const usage = (total: number) => ({ usage: { total_tokens: total } })

// A plan run as it logs its stages: the plan, a decision whose verdict on
// a step came in its _meta (no usage of its own), the answer, and the
// check of the last step with the rating.
const events = [
  ev(1, 'run.started', 0, { task: 'Count the logs' }),
  ev(2, 'route.decided', 0, { route: 'loop', by: 'rules' }),
  ev(3, 'plan.created', 0, { steps: [{ id: 1, description: 'Read the logs' }], ...usage(300) }),
  ev(4, 'model.decided', 1, { tool_calls: [], spent: 'decide', ...usage(1200) }),
  ev(5, 'step.evaluated', 2, { step: 1, passed: true, in_decision: true, usage: {} }),
  ev(6, 'model.decided', 2, { final_answer: 'Two logs.', spent: 'answer', ...usage(1400) }),
  ev(7, 'completion.checked', 2, { passed: true, confidence: 0.9, ...usage(250) }),
]

describe('tokens by stage', () => {
  it('add up while the run goes, by the stage each event names', () => {
    const view = foldRun(events)
    expect(view.stageTokens).toEqual({ plan: 300, decide: 1200, answer: 1400, evaluate: 250 })
    expect(stageTokenList(view.stageTokens).map((s) => s.stage)).toEqual(['plan', 'decide', 'evaluate', 'answer'])
  })

  it('are the totals’ once the run finished: they count the summaries too', () => {
    const done = [...events, ev(8, 'run.finished', 2, { status: 'finished', totals: { total_tokens: 3350, stage_tokens: { plan: 300, decide: 1200, evaluate: 250, answer: 1400, summary: 200 } } })]
    const list = stageTokenList(foldRun(done).stageTokens)
    expect(list).toEqual([
      { stage: 'plan', tokens: 300 },
      { stage: 'decide', tokens: 1200 },
      { stage: 'evaluate', tokens: 250 },
      { stage: 'answer', tokens: 1400 },
      { stage: 'summary', tokens: 200 },
    ])
  })

  it('count prompt plus completion where an endpoint leaves the total out', () => {
    const noTotal = ev(2, 'model.decided', 1, { tool_calls: [], spent: 'decide', usage: { prompt_tokens: 700, completion_tokens: 50 } })
    expect(foldRun([events[0], noTotal]).stageTokens).toEqual({ decide: 750 })
  })

  it('count a compression’s summary call while the run goes, in the run’s tokens too', () => {
    const summary = ev(8, 'summary.updated', 2, { summary: 'Read the logs.', from: 0, to: 4, usage: { prompt_tokens: 900, completion_tokens: 60, total_tokens: 960 } })
    const view = foldRun([...events, summary])
    expect(view.stageTokens).toEqual({ plan: 300, decide: 1200, answer: 1400, evaluate: 250, summary: 960 })
    expect(view.tokens).toBe(1200 + 1400 + 960)
    expect([view.promptTokens, view.completionTokens]).toEqual([900, 60])
  })

  it('are not listed when the turns spent them all, and a direct answer is the answer’s', () => {
    expect(stageTokenList(foldRun(events.slice(0, 1).concat([ev(2, 'model.decided', 1, { tool_calls: [], ...usage(900) })])).stageTokens)).toEqual([])
    expect(foldRun([ev(1, 'model.decided', 1, { final_answer: 'Hi!', stage: 'intake', ...usage(80) })]).stageTokens).toEqual({ answer: 80 })
  })
})
