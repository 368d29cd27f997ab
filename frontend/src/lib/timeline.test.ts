import { describe, expect, it } from 'vitest'
import type { HermesEvent } from '../api/types'
import { applyEvent, applyEvents, emptyRun, foldRun, modelIterations } from './timeline'
import { sampleEvents, steeredEvents } from './fixture'

// A shuffle that is the same on every run.
function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const out = xs.slice()
  let s = seed
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648
    const j = s % (i + 1)
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  return out
}

describe('foldRun', () => {
  const view = foldRun(sampleEvents)

  it('folds the run header and totals', () => {
    expect(view).toMatchObject({
      runId: 'r1',
      task: 'Summarise README.md',
      model: 'gpt-4o-mini',
      tools: ['read_file'],
      status: 'finished',
      answer: 'There is no README.md.',
      verified: false,
      tokens: 1932,
      toolCalls: 1,
      window: 128000,
      lastSeq: 15,
      eventCount: 15,
    })
    expect(view.ended).toBe(sampleEvents[14].time)
    expect(view.origin).toBe('')
  })

  it('says who asked a run the bot started for a chat user', () => {
    const started = { ...sampleEvents[0], data: { task: 'Book a room', origin: 'wecom/zhangsan' } }
    expect(foldRun([started]).origin).toBe('wecom/zhangsan')
  })

  it('makes one card per iteration, after the run start card', () => {
    expect(view.iterations.map((it) => it.n)).toEqual([0, 1, 2])
    expect(modelIterations(view).map((it) => it.n)).toEqual([1, 2])
    const [, one, two] = view.iterations
    expect(one.seqs).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(one).toMatchObject({ tokensIn: 900, tokensOut: 20, streamed: 'Let me read it.', thought: 'Let me read it.', failedCalls: 1, guards: 1, latencyMs: 300 })
    expect(one.context).toMatchObject({ tokens: 900, window: 128000, full: true, layers: { system: 300, tool_schemas: 500, task_anchor: 100 } })
    expect(one.calls).toEqual([
      expect.objectContaining({ id: 'c1', name: 'read_file', status: 'failed', attempts: 1, durationMs: 3 }),
    ])
    expect(one.calls[0].error).toContain('no such file')
    expect(one.items.map((x) => (x.kind === 'mark' ? x.mark.kind : x.kind))).toEqual(['model', 'call', 'guard'])
    expect(two).toMatchObject({ thought: 'It is missing.', answer: 'There is no README.md.', calls: [] })
    expect(two.items.map((x) => (x.kind === 'mark' ? x.mark.kind : x.kind))).toEqual(['model', 'finished'])
  })

  it.each([
    ['reversed', [...sampleEvents].reverse()],
    ['shuffled', shuffled(sampleEvents, 7)],
    ['with repeats', shuffled(sampleEvents.concat(sampleEvents.slice(3, 8)), 3)],
  ])('is the same whatever the order and however often events repeat (%s)', (_, events) => {
    expect(foldRun(events)).toEqual(view)
  })

  it('draws live, event by event or in batches, what the replay draws', () => {
    let live = emptyRun()
    const seen: string[] = []
    for (const e of sampleEvents) {
      live = applyEvent(live, e)
      seen.push(live.status)
    }
    expect(live).toEqual(view)
    expect(seen.at(-2)).toBe('running')
    expect(applyEvents(applyEvents(emptyRun(), sampleEvents.slice(0, 6)), sampleEvents.slice(4))).toEqual(view)
  })

  it('leaves the previous view untouched', () => {
    const before = foldRun(sampleEvents.slice(0, 5))
    const snapshot = JSON.stringify(before)
    applyEvent(before, sampleEvents[5])
    applyEvent(before, sampleEvents[6])
    expect(JSON.stringify(before)).toBe(snapshot)
  })

  it('keeps why its answer is unverified: the guard on the answer given, not on one before it', () => {
    const ev = (seq: number, iteration: number, type: string, data: unknown): HermesEvent => ({ v: 1, run_id: 'r', seq, time: '', iteration, type, data })
    const v = foldRun([
      ev(1, 0, 'run.started', { task: 't' }),
      ev(2, 1, 'model.decided', { final_answer: 'Maybe.' }),
      ev(3, 1, 'guard.tripped', { guard: 'unverified_answer', action: 'warn', message: 'the model answered right after a failed call (x); it gets one more turn to check' }),
      ev(4, 2, 'model.decided', { final_answer: 'Done.' }),
      ev(5, 2, 'guard.tripped', { guard: 'unverified_answer', action: 'warn', message: 'the answer was given while these calls had been denied: w (denied); it is marked unverified' }),
      ev(6, 2, 'run.finished', { status: 'finished', answer: 'Done.', verified: false }),
    ])
    expect(v.verified).toBe(false)
    expect(v.unverifiedReason).toBe('the answer was given while these calls had been denied: w (denied); it is marked unverified')
    // The fixture's guard came with the turn before its answer.
    expect(foldRun(sampleEvents).unverifiedReason).toBe('')
  })

  it('shows streamed text until the decision replaces it', () => {
    const streaming = foldRun(sampleEvents.slice(0, 4))
    expect(streaming.iterations[1]).toMatchObject({ streamed: 'Let me ', decided: false, thought: '' })
  })
})

describe('a steered run', () => {
  const view = foldRun(steeredEvents)
  const [, one, two, three] = view.iterations

  it('keeps the pause after a decision with its pending calls until the resume', () => {
    const paused = foldRun(steeredEvents.slice(0, 5))
    expect(paused.paused).toEqual({ at: 'decided', pendingCalls: [expect.objectContaining({ id: 'w1' })], iteration: 1 })
    expect(paused.iterations[1].calls[0].status).toBe('decided')
    expect(foldRun(steeredEvents.slice(0, 7)).paused).toBeNull()
  })

  it('shows a call edit as the old and new arguments, and runs the edited call', () => {
    expect(one.calls[0]).toMatchObject({
      arguments: '{"path":"notes.md","content":"final"}',
      edit: { old: '{"path":"notes.md","content":"draft"}', new: '{"path":"notes.md","content":"final"}' },
      status: 'ok',
      result: 'wrote 5 bytes',
      approval: { approvalId: 'a1', decision: 'allow_once', by: 'user', risk: 'write' },
    })
  })

  it('holds a pending approval until it is answered', () => {
    const waiting = foldRun(steeredEvents.slice(0, 8))
    expect(waiting.pendingApproval).toMatchObject({ approval_id: 'a1', call_id: 'w1', name: 'write_file', iteration: 1 })
    expect(waiting.iterations[1].calls[0].status).toBe('awaiting_approval')
    expect(foldRun(steeredEvents.slice(0, 9)).pendingApproval).toBeNull()
  })

  it('marks injections, task edits, pauses and resumes where they entered', () => {
    const kinds = one.items.map((x) => (x.kind === 'mark' ? x.mark.kind : x.kind))
    expect(kinds).toEqual(['model', 'call', 'paused', 'call_edited', 'resumed', 'approval', 'injected', 'paused', 'task_edited', 'resumed'])
    expect(view.task).toBe('Write short notes')
    expect(view.instructions).toBe('Be very brief')
  })

  it('shows a denial with its reason, the compression, the stop and the resume from the checkpoint', () => {
    expect(two.calls[0]).toMatchObject({ status: 'denied', approval: { decision: 'deny', denyReason: 'keep the final version' } })
    expect(two.context).toMatchObject({ compressed: true, full: true })
    expect(two.items.map((x) => (x.kind === 'mark' ? x.mark.kind : x.kind))).toEqual(['model', 'call', 'approval', 'finished', 'resumed'])
    expect(three.n).toBe(3)
    expect(view.status).toBe('running')
    expect(view.ended).toBeUndefined()
  })
})
