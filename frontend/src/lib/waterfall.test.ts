import { describe, expect, it } from 'vitest'
import type { HermesEvent } from '../api/types'
import { formatMs, ticks, timeMs, waterfall, type Span } from './waterfall'

// Events at exact offsets (ms) from 01:35:00 UTC.
function builder() {
  let seq = 0
  return (iteration: number, type: string, data: unknown, ms: number): HermesEvent => ({
    v: 1,
    run_id: 'r',
    seq: ++seq,
    time: new Date(Date.UTC(2026, 10, 30, 1, 35, 0, ms)).toISOString(),
    iteration,
    type,
    data,
  })
}

const call = (id: string, name: string) => ({ id, name, arguments: '{}', valid: true })
const brief = (s: Span) => [s.kind, s.name, s.start, s.duration, s.status, s.lane]

describe('waterfall', () => {
  it('splits a model turn at its first token and times each call', () => {
    const ev = builder()
    const w = waterfall([
      ev(0, 'run.started', {}, 0),
      ev(1, 'iteration.started', {}, 10),
      // Asked at 20, first token at 320, decided at 500.
      ev(1, 'model.decided', { tool_calls: [call('c1', 'read_file')], latency_ms: 480, first_token_ms: 300, cost: 0.0012, currency: 'USD' }, 500),
      ev(1, 'tool.started', { call_id: 'c1', name: 'read_file', attempt: 1 }, 510),
      ev(1, 'tool.finished', { call_id: 'c1', name: 'read_file', ok: true, duration_ms: 40, attempt: 1 }, 551),
      ev(2, 'model.decided', { final_answer: 'Done.', latency_ms: 100 }, 700),
    ])
    expect(w.spans.map(brief)).toEqual([
      ['first_token', 'decide', 20, 300, 'ok', 0],
      ['stream', 'decide', 320, 180, 'ok', 0],
      ['tool', 'read_file', 510, 40, 'ok', 0],
      ['model', 'answer', 600, 100, 'ok', 0],
    ])
    expect(w.rows.map((r) => [r.iteration, r.start, r.end, r.lanes, r.cost, r.currency])).toEqual([
      [1, 20, 550, 1, 0.0012, 'USD'],
      [2, 600, 700, 1, undefined, undefined],
    ])
    expect(w.end).toBe(700)
  })

  it('stacks parallel calls in lanes and lets calls one after another share one', () => {
    const ev = builder()
    const w = waterfall([
      ev(0, 'run.started', {}, 0),
      ev(1, 'model.decided', { tool_calls: [call('a', 'grep'), call('b', 'read_file'), call('c', 'list_files')], latency_ms: 100 }, 100),
      ev(1, 'tool.started', { call_id: 'a', name: 'grep' }, 110),
      ev(1, 'tool.started', { call_id: 'b', name: 'read_file' }, 112),
      ev(1, 'tool.finished', { call_id: 'b', name: 'read_file', ok: false, duration_ms: 20 }, 132),
      ev(1, 'tool.started', { call_id: 'c', name: 'list_files' }, 140),
      ev(1, 'tool.finished', { call_id: 'a', name: 'grep', ok: true, duration_ms: 90 }, 200),
      ev(1, 'tool.finished', { call_id: 'c', name: 'list_files', ok: true, duration_ms: 30 }, 170),
    ])
    const lanes = Object.fromEntries(w.spans.filter((s) => s.kind === 'tool').map((s) => [s.name, [s.lane, s.status]]))
    expect(lanes).toEqual({ grep: [0, 'ok'], read_file: [1, 'failed'], list_files: [1, 'ok'] })
    expect(w.rows[0].lanes).toBe(2)
  })

  it('shows a retried model call and a wait for approval as their own segments', () => {
    const ev = builder()
    const w = waterfall([
      ev(0, 'run.started', {}, 0),
      // The call starts at 100; attempt 1 fails at 400 and waits 500 ms.
      ev(1, 'model.retried', { attempt: 1, wait_ms: 500, error: '503' }, 400),
      ev(1, 'model.decided', { tool_calls: [call('w', 'write_file')], latency_ms: 1100, first_token_ms: 1000 }, 1200),
      ev(1, 'approval.requested', { approval_id: 'p1', call_id: 'w', name: 'write_file' }, 1210),
      ev(1, 'approval.resolved', { approval_id: 'p1', call_id: 'w', decision: 'deny' }, 4210),
      ev(2, 'model.decided', { tool_calls: [call('x', 'write_file')], latency_ms: 50 }, 4300),
      ev(2, 'approval.requested', { approval_id: 'p2', call_id: 'x', name: 'write_file' }, 4310),
      ev(2, 'tool.started', { call_id: 'y', name: 'grep' }, 4320),
      ev(2, 'guard.tripped', {}, 4400),
    ])
    expect(w.spans.map(brief)).toEqual([
      ['retry', '#1', 100, 800, 'retried', 0],
      ['first_token', 'decide', 900, 200, 'ok', 0],
      ['stream', 'decide', 1100, 100, 'ok', 0],
      ['approval', 'write_file', 1210, 3000, 'denied', 0],
      ['model', 'decide', 4250, 50, 'ok', 0],
      ['approval', 'write_file', 4310, 90, 'running', 0],
      ['tool', 'grep', 4320, 80, 'running', 1],
    ])
  })

  it('times the stages\u2019 own model calls', () => {
    const ev = builder()
    const w = waterfall([ev(0, 'run.started', {}, 0), ev(0, 'plan.created', { steps: [], latency_ms: 250 }, 300), ev(0, 'route.decided', { route: 'loop', by: 'rule' }, 310)])
    expect(w.spans.map(brief)).toEqual([['stage', 'plan.created', 50, 250, 'ok', 0]])
  })

  it('draws the time before the first iteration: a stage call retried and failed, and a pause', () => {
    // Recorded from a live plan run (hermes serve and the scripted model):
    // the plan's call is answered 503, retried, twice not JSON, so no plan is
    // made; the person paused the run meanwhile and resumed it 2.4 s later.
    const recorded: [number, string, number, string, unknown][] = [
      [1, '2026-12-05T10:18:48.907541501Z', 0, 'run.started', {}],
      [2, '2026-12-05T10:18:48.913587442Z', 0, 'route.decided', { route: 'loop', by: 'rules' }],
      [3, '2026-12-05T10:18:48.91586769Z', 0, 'model.retried', { attempt: 1, wait_ms: 1000, error: 'HTTP 503: overloaded', stage: 'planning' }],
      [4, '2026-12-05T10:18:51.169418976Z', 0, 'guard.tripped', { guard: 'plan', action: 'warn', stage: 'planning', message: 'no usable plan could be made' }],
      [5, '2026-12-05T10:18:51.169473562Z', 0, 'checkpoint.saved', {}],
      [6, '2026-12-05T10:18:51.169666109Z', 0, 'run.paused', { at: 'boundary' }],
      [7, '2026-12-05T10:18:53.595454768Z', 0, 'run.resumed', {}],
      [8, '2026-12-05T10:18:53.595474756Z', 1, 'iteration.started', {}],
      [11, '2026-12-05T10:18:53.799799481Z', 1, 'model.decided', { final_answer: 'Done: nothing to do.', latency_ms: 203, attempts: 1, stage: 'deciding' }],
      [12, '2026-12-05T10:18:53.908199384Z', 1, 'completion.checked', { passed: true, steps_passed: 0, steps_required: 0, confidence: 0.9, threshold: 0.8, latency_ms: 108 }],
      [15, '2026-12-05T10:18:53.915096301Z', 1, 'run.finished', { status: 'finished', verified: true }],
    ]
    const w = waterfall(recorded.map(([seq, time, iteration, type, data]) => ({ v: 1, run_id: 'r', seq, time, iteration, type, data })))
    const rounded = (s: Span) => [s.kind, s.name, Math.round(s.start), Math.round(s.duration), s.status]
    const start = w.rows[0]
    expect(start.iteration).toBe(0)
    expect(start.spans.map(rounded)).toEqual([
      // The first attempt and its second's wait, from the route's decision on.
      ['retry', '#1', 6, 1002, 'retried'],
      ['stage', 'plan.created', 1008, 1254, 'failed'],
      ['pause', 'boundary', 2262, 2426, 'resumed'],
    ])
    // From the run's start to #1 nothing is left blank but the route by the rules.
    expect(w.rows[1].start - (start.spans.at(-1)!.start + start.spans.at(-1)!.duration)).toBeLessThan(5)
    expect(w.rows[1].spans.map((s) => [s.kind, s.name, s.status])).toEqual([
      ['model', 'answer', 'ok'],
      ['stage', 'completion.checked', 'ok'],
    ])
  })

  it('draws a pause still on to the last event, and a plan\u2019s dropped steps as no failure', () => {
    const ev = builder()
    const w = waterfall([
      ev(0, 'run.started', {}, 0),
      ev(0, 'plan.created', { steps: [], latency_ms: 200 }, 300),
      ev(0, 'guard.tripped', { guard: 'plan', stage: 'planning', message: 'steps no tool can do were left out' }, 300),
      ev(2, 'run.paused', { at: 'decided' }, 900),
      ev(2, 'guard.tripped', { guard: 'approval' }, 1500),
    ])
    expect(w.spans.map(brief)).toEqual([
      ['stage', 'plan.created', 100, 200, 'ok', 0],
      ['pause', 'decided', 900, 600, 'running', 0],
    ])
  })

  it('is empty without events', () => {
    expect(waterfall([])).toEqual({ rows: [], spans: [], origin: 0, end: 0 })
  })

  it('computes a thousand iterations quickly', () => {
    const ev = builder()
    const events: HermesEvent[] = [ev(0, 'run.started', {}, 0)]
    for (let i = 1; i <= 1000; i++) {
      const t = i * 1000
      events.push(ev(i, 'iteration.started', {}, t))
      events.push(ev(i, 'model.decided', { tool_calls: [call(`a${i}`, 'grep'), call(`b${i}`, 'read_file')], latency_ms: 400, first_token_ms: 150 }, t + 500))
      events.push(ev(i, 'tool.started', { call_id: `a${i}`, name: 'grep' }, t + 510))
      events.push(ev(i, 'tool.started', { call_id: `b${i}`, name: 'read_file' }, t + 511))
      events.push(ev(i, 'tool.finished', { call_id: `a${i}`, ok: true, duration_ms: 100 }, t + 610))
      events.push(ev(i, 'tool.finished', { call_id: `b${i}`, ok: true, duration_ms: 50 }, t + 561))
    }
    const w = waterfall(events)
    expect(w.rows).toHaveLength(1000)
    expect(w.spans).toHaveLength(4000)
    expect(w.rows[999].lanes).toBe(2)
  })
})

describe('timeMs', () => {
  it('keeps the digits past milliseconds that Go writes', () => {
    expect(timeMs('2026-11-30T01:35:02.123456789Z') - timeMs('2026-11-30T01:35:02Z')).toBeCloseTo(123.4568, 3)
    expect(timeMs('2026-11-30T09:35:02.5+08:00')).toBe(Date.parse('2026-11-30T01:35:02.500Z'))
  })
})

describe('axis', () => {
  it('steps in round numbers', () => {
    expect(ticks(1000, 5)).toEqual([0, 200, 400, 600, 800, 1000])
    expect(ticks(4300, 6)).toEqual([0, 1000, 2000, 3000, 4000])
    expect(ticks(0)).toEqual([0])
  })
  it('formats durations', () => {
    expect([formatMs(850), formatMs(1250), formatMs(12_340), formatMs(125_000)]).toEqual(['850 ms', '1.25 s', '12.3 s', '2 m 05 s'])
  })
})
