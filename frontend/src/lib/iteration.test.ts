import { describe, expect, it } from 'vitest'
import type { HermesEvent } from '../api/types'
import { resultShown } from './iteration'
import { foldRun } from './timeline'

function builder() {
  let seq = 0
  return (iteration: number, type: string, data: unknown): HermesEvent => ({ v: 1, run_id: 'r', seq: ++seq, time: '2026-11-30T01:35:00Z', iteration, type, data })
}

// The events the loop sends for an invalid call, a denied one and one that failed (backend/agent/tools.go).
function calls() {
  const ev = builder()
  const invalid = 'missing required argument "path"; the schema is {"path": string}'
  const denied = 'the user denied this call: Not now.. Do not retry it; find another way, or say in your answer what you could not do.'
  return foldRun([
    ev(0, 'run.started', { task: 't' }),
    ev(1, 'model.decided', {
      tool_calls: [
        { id: 'a', name: 'read_file', arguments: '{}', valid: false, error: invalid },
        { id: 'b', name: 'write_file', arguments: '{"path":"x"}', valid: true },
        { id: 'c', name: 'get_order', arguments: '{"id":"1"}', valid: true },
      ],
    }),
    ev(1, 'approval.requested', { approval_id: 'p', call_id: 'b', name: 'write_file', risk: 'write' }),
    ev(1, 'approval.resolved', { approval_id: 'p', call_id: 'b', decision: 'deny', reason: 'Not now.', by: 'user' }),
    ev(1, 'tool.finished', { call_id: 'b', name: 'write_file', ok: false, result: 'Error: ' + denied, error: denied }),
    ev(1, 'tool.finished', { call_id: 'a', name: 'read_file', ok: false, result: 'Error: ' + invalid, error: invalid }),
    ev(1, 'tool.started', { call_id: 'c', name: 'get_order', attempt: 1 }),
    ev(1, 'tool.finished', { call_id: 'c', name: 'get_order', ok: false, result: 'Error: no order 1', error: 'no order 1', attempt: 1 }),
  ]).iterations[1].calls
}

describe('resultShown', () => {
  it('prints an invalid call\u2019s reason once: its own line says it', () => {
    const [invalid] = calls()
    expect(invalid.status).toBe('failed')
    expect(invalid.invalidReason).not.toBe('')
    expect(resultShown(invalid)).toBe('')
  })

  it('prints a denial once: its approval line gives the reason', () => {
    const [, denied] = calls()
    expect(denied.status).toBe('denied')
    expect(resultShown(denied)).toBe('')
  })

  it('prints what the model saw of a call that ran and failed', () => {
    const [, , failed] = calls()
    expect(resultShown(failed)).toBe('Error: no order 1')
  })
})
