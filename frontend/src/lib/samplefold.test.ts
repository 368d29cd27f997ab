import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { HermesEvent } from '../api/types'
import { foldRun, modelIterations } from './timeline'
import { replayTo } from './replay'

// The recorded sample run (made by the real loop, see backend/runner/sample/gen)
// and the figures the Go run summary folds from it: both folds are held to the
// same file, so a change to either that disagrees fails a test.
const dir = new URL('../../../backend/runner/sample/', import.meta.url)
const events: HermesEvent[] = readFileSync(new URL('sample.jsonl', dir), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as HermesEvent)
const want = JSON.parse(readFileSync(new URL('sample.expected.json', dir), 'utf8')) as {
  run_id: string
  task: string
  status: string
  model: string
  workspace: string
  started: string
  ended: string
  iterations: number
  tokens: number
  tool_calls: number
  answer: string
  verified: boolean
  events: number
}

describe('the recorded sample run', () => {
  it('folds to the figures the Go run summary folds', () => {
    const v = foldRun(events)
    expect({
      run_id: v.runId,
      task: v.task,
      status: v.status,
      model: v.model,
      workspace: v.workspace,
      started: v.started,
      ended: v.ended,
      iterations: modelIterations(v).length,
      tokens: v.tokens,
      tool_calls: v.toolCalls,
      answer: v.answer,
      verified: v.verified,
      events: v.eventCount,
    }).toEqual(want)
  })

  it('replays to the same run as its fold', () => {
    const r = replayTo(events, replayTo(events, null, 5), events.length)
    expect(r.view).toEqual(foldRun(events))
  })
})
