import { describe, expect, it } from 'vitest'
import { applyEvent, emptyRun, foldRun } from './timeline'
import { sampleEvents } from './fixture'

describe('foldRun', () => {
  const view = foldRun(sampleEvents)

  it('folds the run header and totals', () => {
    expect(view).toMatchObject({
      runId: 'r1',
      task: 'Summarise README.md',
      model: 'gpt-4o-mini',
      status: 'finished',
      answer: 'There is no README.md.',
      verified: false,
      tokens: 1932,
      toolCalls: 1,
      lastSeq: 14,
      eventCount: 14,
    })
    expect(view.started).toBe(sampleEvents[0].time)
    expect(view.ended).toBe(sampleEvents[13].time)
  })

  it('groups events into iterations', () => {
    expect(view.iterations.map((it) => it.n)).toEqual([1, 2])
    const [one, two] = view.iterations
    expect(one.seqs).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(one).toMatchObject({ contextTokens: 900, tokensIn: 900, tokensOut: 20, streamed: 'Let me read it.', thought: 'Let me read it.', toolCalls: 1, failedCalls: 1 })
    expect(one.guards).toEqual([{ guard: 'unverified_answer', action: 'warn', message: 'the last tool call failed' }])
    expect(two).toMatchObject({ thought: 'It is missing.', answer: 'There is no README.md.', toolCalls: 0 })
  })

  it('is the same whatever the order and however often events repeat', () => {
    const messy = [...sampleEvents].reverse().concat(sampleEvents.slice(3, 8))
    expect(foldRun(messy)).toEqual(view)
  })

  it('draws live what the replay draws', () => {
    let live = emptyRun()
    const seen: string[] = []
    for (const e of sampleEvents) {
      live = applyEvent(live, e)
      seen.push(live.status)
    }
    expect(live).toEqual(view)
    expect(seen.at(-2)).toBe('running')
  })

  it('leaves the previous view untouched', () => {
    const before = foldRun(sampleEvents.slice(0, 5))
    const snapshot = JSON.stringify(before)
    applyEvent(before, sampleEvents[5])
    expect(JSON.stringify(before)).toBe(snapshot)
  })

  it('takes the totals when decisions carry no usage, and a resume reopens the run', () => {
    const finished = sampleEvents.at(-1)!
    const noUsage = foldRun([sampleEvents[0], finished])
    expect(noUsage.tokens).toBe(1932)
    const resumed = applyEvent(noUsage, { ...finished, seq: 99, type: 'run.resumed', data: { from_checkpoint: true } })
    expect(resumed.status).toBe('running')
    expect(resumed.ended).toBeUndefined()
  })
})
