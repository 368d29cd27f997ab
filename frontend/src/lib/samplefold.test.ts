import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { HermesEvent } from '../api/types'
import { foldRun, modelIterations } from './timeline'
import { replayTo } from './replay'

// Runs recorded by the real loop (see backend/runner/sample/gen) and the
// figures the Go run summary folds from each: both folds are held to the same
// files, so a change to either that disagrees fails a test.
const dir = new URL('../../../backend/runner/sample/', import.meta.url)

function recorded(name: string): { events: HermesEvent[]; want: Expected } {
  const events = readFileSync(new URL(`${name}.jsonl`, dir), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as HermesEvent)
  return { events, want: JSON.parse(readFileSync(new URL(`${name}.expected.json`, dir), 'utf8')) as Expected }
}

interface Expected {
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
  /** The fold of every event before run.finished, before the totals raise it. */
  live: { status: string; iterations: number; tokens: number; tool_calls: number }
}

describe.each(['sample', 'controls'])('the recorded %s run', (name) => {
  const { events, want } = recorded(name)

  it('folds to the figures the Go run summary folds', () => {
    const { live, ...whole } = want
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
    }).toEqual(whole)
  })

  it('folds, while it runs, to the figures the Go run summary folds', () => {
    expect(events.at(-1)?.type).toBe('run.finished')
    const v = foldRun(events.slice(0, -1))
    expect({
      status: v.status,
      iterations: modelIterations(v).length,
      tokens: v.tokens,
      tool_calls: v.toolCalls,
    }).toEqual(want.live)
  })

  it('replays to the same run as its fold', () => {
    const r = replayTo(events, replayTo(events, null, 5), events.length)
    expect(r.view).toEqual(foldRun(events))
  })
})
